import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { workAsyncStorage, type WorkStore } from "next/dist/server/app-render/work-async-storage.external";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { LOCAL_SITE_APP_ID, WIX_EVENT_LIFETIME_SECONDS, localWebhookKey, signWixEvent } from "@ridgeline/platform-contract";
import { onRevalidation } from "@/lib/cache/page-cache-signals";
import { handleWixEvent } from "@/lib/revalidate-webhook";
import { createSeenSignatures } from "@/lib/security/seen-signatures";
import { readCollectionIds } from "@/lib/site-config";
import { EVENT_MAX_AGE_SECONDS, readWixEvent } from "@/lib/wix/events";
import { freePort, useRedisServer } from "./support/redis-server";

/**
 * Wix's webhook events as the site takes them (lib/wix/events.ts, lib/revalidate-webhook.ts): what
 * each event drops, and the refusals of issue 37: a forged, expired, wrongly-audienced or replayed
 * event changes nothing. That a real edit reaches a cached page is shown end to end in the browser
 * tests (e2e/wix-events.spec.ts).
 */

const key = () => localWebhookKey(process.env.LOCAL_PLATFORM_DATA_DIR!);
const app = () => getConfig().wixApp!;
const all = () => ["Everything"];
const itemEvent = (slug: "created" | "updated" | "deleted", body: object) => ({
  eventType: `wix.data.v2.data_item_${slug}`,
  instanceId: "local-instance",
  payload: { id: "e1", entityFqdn: "wix.data.v2.data_item", slug, entityId: "item-1", ...body },
});
/** An event that changes nothing the site caches, for the checks that come before what it names. */
const followEvent = () => ({ eventType: "wix.members.v3.follow_member_followed", instanceId: "local-instance", payload: { id: `${Math.random()}` } });

/** A JWT with any claims at all, signed RS256: what a forger with some key, or a careless sender, could make. */
function signClaims(privateKey: KeyObject, claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${part({ alg: "RS256", typ: "JWT" })}.${part(claims)}`;
  return `${input}.${sign("sha256", Buffer.from(input), privateKey).toString("base64url")}`;
}
const envelope = (event: ReturnType<typeof followEvent>) =>
  JSON.stringify({ data: JSON.stringify(event.payload), eventType: event.eventType, instanceId: event.instanceId });

describe("reading a Wix event", () => {
  it("names the collection of a data item created, updated or deleted, member profiles for a member event, and nothing for others", async () => {
    const read = (event: Parameters<typeof signWixEvent>[2]) => readWixEvent(signWixEvent(key(), LOCAL_SITE_APP_ID, event), app(), all);
    const entity = { id: "item-1", dataCollectionId: "Trails", data: {} };
    expect(await read(itemEvent("created", { createdEvent: { entity } }))).toMatchObject({ ok: true, changes: { collections: ["Trails"], members: false } });
    expect(await read(itemEvent("updated", { updatedEvent: { currentEntity: entity } }))).toMatchObject({ changes: { collections: ["Trails"] } });
    expect(await read(itemEvent("deleted", { deletedEvent: { deletedEntity: { id: "item-1", dataCollectionId: "Journal" } } }))).toMatchObject({
      changes: { collections: ["Journal"] },
    });
    // A deletion that does not say where from: everything the site reads is stale.
    expect(await read(itemEvent("deleted", { deletedEvent: {} }))).toMatchObject({ changes: { collections: ["Everything"], members: false } });
    for (const slug of ["created", "updated", "deleted"]) {
      expect(await read({ eventType: `wix.members.v1.member_${slug}`, instanceId: "i", payload: {} })).toMatchObject({
        changes: { collections: [], members: true },
      });
      // The member it names, whose sessions may have ended (a block, a deletion).
      expect(await read({ eventType: `wix.members.v1.member_${slug}`, instanceId: "i", payload: { entityId: "m-1" } })).toMatchObject({
        changes: { members: true, memberId: "m-1" },
      });
    }
    expect(await read(followEvent())).toMatchObject({ ok: true, changes: { collections: [], members: false } });
  });

  it("refuses a body signed with another key, for another app or by another issuer, or not a JWT at all", async () => {
    const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    expect(await readWixEvent(signWixEvent(stranger, LOCAL_SITE_APP_ID, followEvent()), app(), all)).toEqual({ ok: false, reason: "invalid" });
    expect(await readWixEvent(signWixEvent(key(), "another-app", followEvent()), app(), all)).toEqual({ ok: false, reason: "invalid" });
    const now = Math.floor(Date.now() / 1000);
    const claims = { data: envelope(followEvent()), aud: LOCAL_SITE_APP_ID, iat: now, exp: now + 60 };
    expect(await readWixEvent(signClaims(key(), { ...claims, iss: "evil.example" }), app(), all)).toEqual({ ok: false, reason: "invalid" });
    expect(await readWixEvent(signClaims(key(), { ...claims, iss: "wix.com" }), app(), all)).toMatchObject({ ok: true });
    for (const garbage of ["", "not-a-jwt", "a.b.c"]) expect(await readWixEvent(garbage, app(), all)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses an expired event, one with no expiry signed too long ago, and one signed in the future", async () => {
    const now = Date.now();
    expect(await readWixEvent(signWixEvent(key(), LOCAL_SITE_APP_ID, followEvent(), now - (WIX_EVENT_LIFETIME_SECONDS + 5) * 1000), app(), all)).toEqual({
      ok: false,
      reason: "expired",
    });
    const seconds = Math.floor(now / 1000);
    const base = { data: envelope(followEvent()), iss: "wix.com", aud: LOCAL_SITE_APP_ID };
    expect(await readWixEvent(signClaims(key(), { ...base, iat: seconds - EVENT_MAX_AGE_SECONDS - 5 }), app(), all)).toEqual({ ok: false, reason: "expired" });
    expect(await readWixEvent(signClaims(key(), { ...base, iat: seconds - 10 }), app(), all)).toMatchObject({ ok: true });
    expect(await readWixEvent(signClaims(key(), { ...base, iat: seconds + 600, exp: seconds + 900 }), app(), all)).toEqual({ ok: false, reason: "invalid" });
  });

  it("calls a signed body whose envelope is not Wix's malformed", async () => {
    const seconds = Math.floor(Date.now() / 1000);
    const claims = { iss: "wix.com", aud: LOCAL_SITE_APP_ID, iat: seconds, exp: seconds + 60 };
    for (const data of ["not json", JSON.stringify({ eventType: "x" }), JSON.stringify({ eventType: "x", data: "{" })]) {
      expect(await readWixEvent(signClaims(key(), { ...claims, data }), app(), all)).toEqual({ ok: false, reason: "malformed" });
    }
  });
});

describe("POST /api/webhooks/wix", () => {
  const post = (body: string) => handleWixEvent(new NextRequest("http://localhost:3000/api/webhooks/wix", { method: "POST", body }));

  it("takes an event once: the same body again, at once or later, is refused; a new event is taken", async () => {
    const body = signWixEvent(key(), LOCAL_SITE_APP_ID, followEvent());
    const first = await post(body);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ eventType: "wix.members.v3.follow_member_followed", revalidated: [] });
    expect((await post(body)).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await post(body)).status).toBe(409);
    expect((await post(signWixEvent(key(), LOCAL_SITE_APP_ID, followEvent()))).status).toBe(200);
  });

  it("has the sessions of the member a member event names asked about again, on this instance and the others", async () => {
    const announced: string[][] = [];
    const stop = onRevalidation((tags) => announced.push(tags));
    const blocked = { eventType: "wix.members.v1.member_updated", instanceId: "i", payload: { id: `${Math.random()}`, entityId: "m-blocked" } };
    // Inside a route handler's store, as Next.js runs it: the member profiles' tags are noted there.
    const store = { route: "/api/webhooks/wix", incrementalCache: (globalThis as { __incrementalCache?: unknown }).__incrementalCache } as WorkStore;
    const taken = await workAsyncStorage.run(store, () => post(signWixEvent(key(), LOCAL_SITE_APP_ID, blocked)));
    stop();
    expect(taken.status).toBe(200);
    expect(announced).toContainEqual(["member-sessions:m-blocked", "member:m-blocked"]);
  });

  it("refuses a forged or expired event with 401, a malformed envelope with 400, and a huge body with 413", async () => {
    const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    expect((await post(signWixEvent(stranger, LOCAL_SITE_APP_ID, followEvent()))).status).toBe(401);
    expect((await post(signWixEvent(key(), "another-app", followEvent()))).status).toBe(401);
    const expired = await post(signWixEvent(key(), LOCAL_SITE_APP_ID, followEvent(), Date.now() - 3600_000));
    expect([expired.status, (await expired.json()).error]).toEqual([401, "This event has expired."]);
    const seconds = Math.floor(Date.now() / 1000);
    expect((await post(signClaims(key(), { data: "{}", iss: "wix.com", aud: LOCAL_SITE_APP_ID, iat: seconds, exp: seconds + 60 }))).status).toBe(400);
    expect((await post("x".repeat(1_000_001))).status).toBe(413);
  });

  it("falls back to every collection the site reads", () => {
    expect(readCollectionIds).toEqual(
      expect.arrayContaining(["Trails", "Regions", "Events", "Journal", "MembersOutings", "TrailReports", "OutingSignups", "MembersOutingSignups"]),
    );
  });
});

describe("seen events in Redis (a real redis-server)", () => {
  const redisUrl = useRedisServer();

  it("are shared by instances: an event taken by one is refused by the other", async () => {
    const [first, second] = [createSeenSignatures(redisUrl()), createSeenSignatures(redisUrl())];
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const digest = `event-${Date.now()}`;
      expect(await first.firstSeen(digest, 60)).toBe(true);
      expect(await second.firstSeen(digest, 60)).toBe(false);
      expect(await first.firstSeen(digest, 60)).toBe(false);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("fall back to memory while Redis is unreachable: replays are still refused", async () => {
    const store = createSeenSignatures(`redis://127.0.0.1:${await freePort()}`);
    try {
      expect(await store.firstSeen("offline", 60)).toBe(true);
      expect(await store.firstSeen("offline", 60)).toBe(false);
    } finally {
      await store.close();
    }
  });
});
