import { randomUUID } from "node:crypto";
import { test } from "@playwright/test";
import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { collections, items } from "@wix/data";
import { members } from "@wix/members";
import { LOCAL_SITE_APP_ID, WIX_WEBHOOK_PATH, localWebhookKey, routeWixApis, signWixEvent, type WixEventEnvelope } from "@ridgeline/platform-contract";
import { DEFAULT_API_KEY } from "../platform/config";
import { e2e } from "../playwright.config";

/** The local platform's default admin API key (the e2e server does not override it). */
export const ADMIN_KEY = DEFAULT_API_KEY;

export const demoMember = { email: "demo@ridgeline.example", password: "ridgeline-demo", name: "Dana" };
export const secondDemoMember = { email: "rowan@ridgeline.example", password: "ridgeline-rowan", name: "Rowan" };

/** Reads the local platform's request counter. */
export async function platformRequests(): Promise<Record<string, number>> {
  const response = await fetch(`${e2e.platformUrl}/_local/stats`, { headers: { authorization: ADMIN_KEY } });
  return ((await response.json()) as { requests: Record<string, number> }).requests;
}

/** The real `@wix/data` client with the admin key, as a site owner's tool would use it. */
function adminData() {
  return createClient({
    modules: { items, collections },
    auth: ApiKeyStrategy({ apiKey: ADMIN_KEY, siteId: "local-site" }),
    fetch: routeWixApis(e2e.platformUrl, globalThis.fetch),
  });
}

/** The platform's data items, edited with the admin key. */
export function adminItems() {
  return adminData().items;
}

/** The platform's collections (their fields and limits), edited with the admin key. */
export function adminCollections() {
  return adminData().collections;
}

/**
 * Drops the site's cached reads of these collections at once, with a data item event per collection
 * signed as the local platform signs them (the e2e site and platform share the data folder's key).
 */
export async function revalidateSite(change: { collections: string[]; members?: boolean }): Promise<void> {
  for (const collectionId of change.collections) await sendWixEvent(dataItemUpdated(collectionId));
  if (change.members)
    await sendWixEvent({ eventType: "wix.members.v1.member_updated", instanceId: "local-instance", payload: { id: randomUUID(), updatedEvent: {} } });
}

/**
 * Public, approved members made by the site's owner (`createMember` with the admin key), one per
 * nickname (none: the platform's neutral name); the site's cached directory is dropped after.
 */
export async function createPublicMembers(nicknames: Array<string | undefined>): Promise<void> {
  const admin = createClient({
    modules: { members },
    auth: ApiKeyStrategy({ apiKey: ADMIN_KEY, siteId: "local-site" }),
    fetch: routeWixApis(e2e.platformUrl, globalThis.fetch),
  });
  for (const nickname of nicknames)
    await admin.members.createMember({
      member: { loginEmail: `made-${randomUUID()}@ridgeline.example`, privacyStatus: "PUBLIC", status: "APPROVED", ...(nickname && { profile: { nickname } }) },
    });
  await revalidateSite({ collections: [], members: true });
}

/** A data item event of one collection, as Wix's webhooks carry it. */
export const dataItemUpdated = (dataCollectionId: string, id = randomUUID()) => ({
  eventType: "wix.data.v2.data_item_updated",
  instanceId: "local-instance",
  payload: { id: randomUUID(), entityFqdn: "wix.data.v2.data_item", slug: "updated", entityId: id, updatedEvent: { currentEntity: { id, dataCollectionId } } },
});

/** Posts one Wix webhook event to the site, signed now for the site's app; answers the site's status. */
export async function sendWixEvent(event: WixEventEnvelope, { expectOk = true } = {}): Promise<number> {
  const body = signWixEvent(localWebhookKey(e2e.dataDir), LOCAL_SITE_APP_ID, event);
  const response = await fetch(new URL(WIX_WEBHOOK_PATH, e2e.siteUrl), { method: "POST", headers: { "content-type": "text/plain" }, body });
  if (expectOk && !response.ok) throw new Error(`the Wix event was refused: ${response.status} ${await response.text()}`);
  return response.status;
}

/** Revokes every session of a member on the platform, as an administrator would. */
export async function revokeMemberSessions(email: string): Promise<number> {
  const response = await fetch(`${e2e.platformUrl}/_local/revoke`, {
    method: "POST",
    headers: { authorization: ADMIN_KEY, "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  if (!response.ok) throw new Error(`revoke failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { revoked: number }).revoked;
}

const OWNER_HEADERS = { authorization: ADMIN_KEY, "content-type": "application/json" };

/** A member's id, found by login e-mail with the owner's key. */
async function memberIdOf(email: string): Promise<string> {
  const found = await fetch(`${e2e.platformUrl}/members/v1/members/query`, {
    method: "POST",
    headers: OWNER_HEADERS,
    body: JSON.stringify({ fieldsets: ["FULL"], query: { filter: { loginEmail: email } } }),
  });
  const { members } = (await found.json()) as { members: Array<{ id: string; loginEmail?: string }> };
  const member = members.find((each) => each.loginEmail === email);
  if (!member) throw new Error(`no member ${email}`);
  return member.id;
}

/** One of the owner's calls about a member: `block`, `mute`, `unmute`. */
async function ownerAction(email: string, action: "block" | "mute" | "unmute"): Promise<void> {
  const id = await memberIdOf(email);
  const done = await fetch(`${e2e.platformUrl}/members/v1/members/${id}/${action}`, { method: "POST", headers: OWNER_HEADERS, body: JSON.stringify({ id }) });
  if (!done.ok) throw new Error(`${action} failed: ${done.status} ${await done.text()}`);
}

/** Blocks a member, as the owner would through the members API. */
export const blockMember = (email: string) => ownerAction(email, "block");

/** Mutes or unmutes a member, as the owner would in the Studio (the members API's muteMember). */
export const setMemberMuted = (email: string, muted: boolean) => ownerAction(email, muted ? "mute" : "unmute");

/** Makes a member's profile private, as the owner may through the members API. */
export async function makeProfilePrivate(email: string): Promise<void> {
  const id = await memberIdOf(email);
  const done = await fetch(`${e2e.platformUrl}/members/v1/members/${id}`, {
    method: "PATCH",
    headers: OWNER_HEADERS,
    body: JSON.stringify({ member: { privacyStatus: "PRIVATE" } }),
  });
  if (!done.ok) throw new Error(`privacy change failed: ${done.status} ${await done.text()}`);
}

type SignUpSettings = Record<"requireEmailVerification" | "requireOwnerApproval" | "requireCaptcha" | "rejectInvisibleCaptcha", boolean>;

/** Changes the local platform's sign-up settings while it runs. */
export async function setPlatformSettings(settings: Partial<SignUpSettings>) {
  const response = await fetch(`${e2e.platformUrl}/_local/settings`, {
    method: "PATCH",
    headers: { authorization: ADMIN_KEY, "content-type": "application/json" },
    body: JSON.stringify(settings),
  });
  if (!response.ok) throw new Error(`settings failed: ${response.status} ${await response.text()}`);
}

/**
 * For a spec that changes the sign-up settings: each test starts with all of them off, and after
 * it they go back to what they were (other specs share the platform).
 */
export function plainSignUpInEachTest(): void {
  let before: SignUpSettings;
  test.beforeEach(async () => {
    const response = await fetch(`${e2e.platformUrl}/_local/settings`, { headers: { authorization: ADMIN_KEY } });
    before = (await response.json()) as SignUpSettings;
    await setPlatformSettings({ requireEmailVerification: false, requireOwnerApproval: false, requireCaptcha: false, rejectInvisibleCaptcha: false });
  });
  test.afterEach(() => setPlatformSettings(before));
}

type Mail = { id: string; to: string; subject: string; text: string; kind: string; code?: string; link?: string };
type MailKind = "verification" | "login-code" | "sms" | "password-reset" | "activation" | "code-ceiling" | "password-changed";

/** The messages of a kind the platform "sent" to an address, the newest first. */
export async function mails(to: string, kind: MailKind): Promise<Mail[]> {
  const response = await fetch(`${e2e.platformUrl}/_local/outbox?to=${encodeURIComponent(to)}`, {
    headers: { authorization: ADMIN_KEY },
  });
  if (!response.ok) throw new Error(`outbox failed: ${response.status} ${await response.text()}`);
  const { messages } = (await response.json()) as { messages: Mail[] };
  return messages.filter((message) => message.kind === kind);
}

/** The newest message of a kind the platform "sent" to an address (a phone number for a text message). */
export async function latestMail(to: string, kind: MailKind): Promise<Mail> {
  const mail = (await mails(to, kind))[0];
  if (!mail) throw new Error(`no ${kind} e-mail for ${to}`);
  return mail;
}

type FaultRule = { pathPrefix: string; latencyMs?: number; errorRate?: number; errorStatus?: number; dropRate?: number; garbageRate?: number };

/** Puts the local platform's fault rules in force (docs/platform/operations.md §3); an empty list clears them. */
export async function setPlatformFaults(rules: FaultRule[]) {
  const response = await fetch(`${e2e.platformUrl}/_local/faults`, {
    method: "PUT",
    headers: { authorization: ADMIN_KEY, "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
  if (!response.ok) throw new Error(`faults failed: ${response.status} ${await response.text()}`);
}
