import type { Db } from "../db";
import { DataStore } from "../data/store";
import { hashPassword } from "../identity/passwords";
import type { IdentityStore } from "../identity/store";
import { demoCollections, demoItems } from "./demo-content";

/** Seeds the demo site into an empty database; a database that has collections is left alone. */
export function seedDemoContent(db: Db): boolean {
  const store = new DataStore(db);
  if (store.countCollections() > 0) return false;
  db.transaction(() => {
    for (const collection of demoCollections) store.createCollection(collection);
    for (const [collectionId, items] of Object.entries(demoItems())) {
      for (const item of items) store.insertItem(collectionId, item, null, true);
    }
  })();
  return true;
}

/** The demo member, documented in platform/README.md; the site's sign-in works out of the box with it. */
export const DEMO_MEMBER = {
  email: "demo@ridgeline.example",
  password: "ridgeline-demo",
  firstName: "Dana",
  lastName: "Demo",
  nickname: "Dana",
} as const;

/** Seeds the demo member into a platform that has no members yet. */
export async function seedDemoMember(identities: IdentityStore): Promise<boolean> {
  if (identities.count() > 0) return false;
  const created = identities.create({
    email: DEMO_MEMBER.email,
    passwordHash: await hashPassword(DEMO_MEMBER.password),
    firstName: DEMO_MEMBER.firstName,
    lastName: DEMO_MEMBER.lastName,
    nickname: DEMO_MEMBER.nickname,
    emailVerified: true,
    privacyStatus: "PUBLIC",
  });
  return created !== null;
}
