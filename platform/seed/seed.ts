import type { Db } from "../types";
import { DataStore } from "../data/store";
import { hashPassword } from "../identity/passwords";
import type { IdentityStore } from "../identity/store";
import { MemberStore, type ProfileDetails } from "../members/store";
import { demoCollections, demoItems, demoReferences, demoTrailReports, ORGANISED_OUTING, OUTING_ROSTERS, OUTING_SIGNUPS, TRAIL_REPORTS } from "./demo-content";

/** Seeds the demo site into an empty database; a database that has collections is left alone. */
export function seedDemoContent(store: DataStore): boolean {
  if (store.countCollections() > 0) return false;
  store.transaction(() => {
    for (const collection of demoCollections) store.createCollection(collection);
    for (const [collectionId, items] of Object.entries(demoItems())) {
      for (const item of items) store.insertItem(collectionId, item, null, true);
    }
    for (const link of demoReferences()) store.references.insert(link.collectionId, link.field, link.referringId, link.targetCollectionId, link.referencedIds);
  });
  return true;
}

/**
 * A database the demo seeded before the organisers' rosters existed gets them: the demo site's
 * join writes there first. Only where the demo's sign-ups are and the rosters are not.
 */
export function seedLaterDemoCollections(store: DataStore): boolean {
  const rosters = demoCollections.find((collection) => collection.id === OUTING_ROSTERS);
  if (!rosters || store.findCollection(OUTING_ROSTERS) || !store.findCollection(OUTING_SIGNUPS)) return false;
  store.createCollection(rosters);
  return true;
}

type DemoMember = {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  nickname: string;
  details: ProfileDetails;
};

/** The demo member, documented in platform/README.md; the site's sign-in works out of the box with it. */
export const DEMO_MEMBER = {
  email: "demo@ridgeline.example",
  password: "ridgeline-demo",
  firstName: "Dana",
  lastName: "Demo",
  nickname: "Dana",
  details: { title: "Trail steward", photo: { url: "/media/demo/forest.svg", width: 400, height: 300 } },
} as const satisfies DemoMember;

/** A second member, so that "someone else's" trail reports and profiles exist (platform/README.md). */
export const SECOND_DEMO_MEMBER = {
  email: "rowan@ridgeline.example",
  password: "ridgeline-rowan",
  firstName: "Rowan",
  lastName: "Reyes",
  nickname: "Rowan",
  details: { title: "Weekend scrambler", photo: { url: "/media/demo/desert.svg", width: 400, height: 300 } },
} as const satisfies DemoMember;

/** Seeds the demo members into a platform that has no members yet. */
export async function seedDemoMembers(db: Db, identities: IdentityStore): Promise<boolean> {
  if (identities.count() > 0) return false;
  const members = new MemberStore(db, identities);
  for (const demo of [DEMO_MEMBER, SECOND_DEMO_MEMBER]) {
    const passwordHash = await hashPassword(demo.password);
    members.create(
      {
        email: demo.email,
        passwordHash,
        firstName: demo.firstName,
        lastName: demo.lastName,
        nickname: demo.nickname,
        emailVerified: true,
        privacyStatus: "PUBLIC",
      },
      structuredClone(demo.details) as ProfileDetails,
    );
  }
  return true;
}

/** Seeds the demo trail reports, owned by the two demo members, into an empty reports collection. */
export function seedTrailReports(data: DataStore, identities: IdentityStore): boolean {
  const dana = identities.findForLogin(DEMO_MEMBER.email)?.identity.id;
  const rowan = identities.findForLogin(SECOND_DEMO_MEMBER.email)?.identity.id;
  if (!dana || !rowan || !data.findCollection(TRAIL_REPORTS) || data.count(TRAIL_REPORTS, {}) > 0) return false;
  data.transaction(() => {
    for (const { author, item } of demoTrailReports()) data.insertItem(TRAIL_REPORTS, item, author === "dana" ? dana : rowan, true);
  });
  return true;
}

/**
 * Makes the demo member the organiser of one outing: their id in its `organiser` field, and the
 * special permission that lets them read the rosters (docs/outings.md, "The organiser"). Left
 * alone once the rosters have a grant, or when the outing or the member is missing.
 */
export function seedOrganiser(data: DataStore, identities: IdentityStore): boolean {
  const dana = identities.findForLogin(DEMO_MEMBER.email)?.identity.id;
  const outing = data.findItem(ORGANISED_OUTING.collectionId, ORGANISED_OUTING.id);
  if (!dana || !outing || !data.findCollection(OUTING_ROSTERS) || data.specialPermissions.list(OUTING_ROSTERS).length > 0) return false;
  data.transaction(() => {
    data.replaceItem(ORGANISED_OUTING.collectionId, ORGANISED_OUTING.id, { ...outing, organiser: dana });
    data.specialPermissions.add(OUTING_ROSTERS, dana, ["read"]);
  });
  return true;
}
