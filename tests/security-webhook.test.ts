import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import {
  REVALIDATE_SIGNATURE_HEADER,
  REVALIDATE_TIMESTAMP_HEADER,
  REVALIDATION_MAX_AGE_SECONDS,
  revalidationRequests,
  signRevalidation,
} from "@ridgeline/platform-contract";
import { handleRevalidate } from "@/lib/revalidate-webhook";
import { createSeenSignatures } from "@/lib/security/seen-signatures";
import { freePort, useRedisServer } from "./support/redis-server";

/**
 * The webhook attacks of issue 19: a captured signed call replayed at once and later, a call
 * signed long ago, a timestamp changed to look fresh, and a replay to another instance (through
 * the Redis they share).
 */

const post = (request: { body: string; headers: Record<string, string> }) =>
  handleRevalidate(new NextRequest("http://localhost:3000/api/revalidate", { method: "POST", ...request }));
const secret = () => getConfig().revalidateSecret!;
// Names nothing to drop: revalidateTag needs a Next.js request, and the signature checks come first anyway.
const change = { collections: [], members: false };

describe("POST /api/revalidate against replays", () => {
  it("takes a signed call once; the same call again, at once or seconds later, is refused", async () => {
    const [call] = revalidationRequests(change, secret());
    expect((await post(call)).status).toBe(200);
    expect((await post(call)).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await post(call)).status).toBe(409);
    // A new signature for the same change is a new call, even within the same second (an edit and its undo).
    const now = Date.now();
    const [again, andAgain] = [revalidationRequests(change, secret(), now)[0], revalidationRequests(change, secret(), now)[0]];
    expect(again.headers[REVALIDATE_TIMESTAMP_HEADER].split(".")[0]).toBe(andAgain.headers[REVALIDATE_TIMESTAMP_HEADER].split(".")[0]);
    expect((await post(again)).status).toBe(200);
    expect((await post(andAgain)).status).toBe(200);
  });

  it("refuses a call signed longer ago than the window, or as far ahead", async () => {
    for (const skew of [-(REVALIDATION_MAX_AGE_SECONDS + 5), REVALIDATION_MAX_AGE_SECONDS + 5]) {
      const [call] = revalidationRequests(change, secret(), Date.now() + skew * 1000);
      const response = await post(call);
      expect(response.status).toBe(401);
      expect((await response.json()).error).toMatch(/sign the call again/);
    }
  });

  it("refuses an old call whose timestamp was changed to look fresh: the signature covers it", async () => {
    const [old] = revalidationRequests(change, secret(), Date.now() - 3600_000);
    const fresh = String(Math.floor(Date.now() / 1000));
    expect((await post({ body: old.body, headers: { ...old.headers, [REVALIDATE_TIMESTAMP_HEADER]: fresh } })).status).toBe(401);
    // Only the secret's holder can sign the fresh timestamp.
    const forged = signRevalidation(fresh, old.body, "y".repeat(40));
    expect(
      (await post({ body: old.body, headers: { ...old.headers, [REVALIDATE_TIMESTAMP_HEADER]: fresh, [REVALIDATE_SIGNATURE_HEADER]: forged } })).status,
    ).toBe(401);
  });
});

describe("seen signatures in Redis (a real redis-server)", () => {
  const redisUrl = useRedisServer();

  it("are shared by instances: a call taken by one is refused by the other", async () => {
    const [first, second] = [createSeenSignatures(redisUrl()), createSeenSignatures(redisUrl())];
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const signature = `sha256=${Date.now()}`;
      expect(await first.firstSeen(signature, 60)).toBe(true);
      expect(await second.firstSeen(signature, 60)).toBe(false);
      expect(await first.firstSeen(signature, 60)).toBe(false);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("fall back to memory while Redis is unreachable: replays are still refused", async () => {
    const store = createSeenSignatures(`redis://127.0.0.1:${await freePort()}`);
    try {
      expect(await store.firstSeen("sha256=offline", 60)).toBe(true);
      expect(await store.firstSeen("sha256=offline", 60)).toBe(false);
    } finally {
      await store.close();
    }
  });
});
