import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import {
  MAX_REVALIDATION_COLLECTIONS,
  REVALIDATE_SIGNATURE_HEADER,
  REVALIDATE_TIMESTAMP_HEADER,
  checkRevalidation,
  revalidationRequests,
  signRevalidation,
} from "@ridgeline/platform-contract";
import { handleRevalidate } from "@/lib/revalidate-webhook";

const SECRET = "s".repeat(40);

describe("revalidation signatures", () => {
  it("accept the HMAC of the exact timestamp and body with the same secret, and nothing else", () => {
    const body = JSON.stringify({ collections: ["Trails"] });
    const now = Date.now();
    const timestamp = String(Math.floor(now / 1000));
    const signature = signRevalidation(timestamp, body, SECRET);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(checkRevalidation(body, signature, timestamp, SECRET, now)).toBe("valid");
    expect(checkRevalidation(`${body} `, signature, timestamp, SECRET, now)).toBe("bad-signature");
    expect(checkRevalidation(body, signature, String(Number(timestamp) + 1), SECRET, now)).toBe("bad-signature");
    expect(checkRevalidation(body, signRevalidation(timestamp, body, "t".repeat(40)), timestamp, SECRET, now)).toBe("bad-signature");
    for (const bad of [null, "", "sha256=", signature.slice(0, -1), `${signature}0`, signature.toUpperCase()]) {
      expect(checkRevalidation(body, bad, timestamp, SECRET, now)).toBe("bad-signature");
    }
    for (const bad of [null, "", "soon", "1e9", "-1"]) expect(checkRevalidation(body, signature, bad, SECRET, now)).toBe("bad-signature");
  });
});

describe("POST /api/revalidate", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    handleRevalidate(new NextRequest("http://localhost:3000/api/revalidate", { method: "POST", body, headers }));
  const secret = () => getConfig().revalidateSecret!;
  const signed = (body: string, key = secret()) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    return { [REVALIDATE_TIMESTAMP_HEADER]: timestamp, [REVALIDATE_SIGNATURE_HEADER]: signRevalidation(timestamp, body, key) };
  };

  it("refuses a missing or wrong signature with 401, before reading what the body asks", async () => {
    const body = JSON.stringify({ collections: ["Trails"] });
    expect((await post(body)).status).toBe(401);
    expect((await post(body, signed(body, "x".repeat(40)))).status).toBe(401);
  });

  it("answers 400 for a signed body that is not what it expects, and 413 for a huge one", async () => {
    for (const body of ["not json", JSON.stringify({ collections: "Trails" }), JSON.stringify({ collections: [""] })]) {
      const response = await post(body, signed(body));
      expect(response.status).toBe(400);
      expect(await response.json()).toHaveProperty("error");
    }
    const huge = JSON.stringify({ collections: ["x".repeat(20_000)] });
    expect((await post(huge, signed(huge))).status).toBe(413);
  });
});

describe("revalidationRequests (what the local platform sends)", () => {
  // The webhook taking them is shown end to end by e2e/performance.spec.ts (revalidateTag needs a request).
  it("splits a change naming many collections into signed calls of at most the webhook's limit, members named once", () => {
    const collections = Array.from({ length: 2 * MAX_REVALIDATION_COLLECTIONS + 30 }, (_, i) => `C${i}`);
    const secret = getConfig().revalidateSecret!;
    const requests = revalidationRequests({ collections, members: true }, secret);
    const bodies = requests.map((request) => JSON.parse(request.body) as { collections: string[]; members: boolean });
    expect(bodies.map((body) => body.collections.length)).toEqual([MAX_REVALIDATION_COLLECTIONS, MAX_REVALIDATION_COLLECTIONS, 30]);
    expect(bodies.flatMap((body) => body.collections)).toEqual(collections);
    expect(bodies.map((body) => body.members)).toEqual([true, false, false]);
    for (const { body, headers } of requests)
      expect(checkRevalidation(body, headers[REVALIDATE_SIGNATURE_HEADER], headers[REVALIDATE_TIMESTAMP_HEADER], secret)).toBe("valid");
    expect(JSON.parse(revalidationRequests({ collections: [], members: true }, secret)[0].body)).toEqual({ collections: [], members: true });
  });
});
