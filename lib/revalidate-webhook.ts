import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import {
  MAX_REVALIDATION_COLLECTIONS,
  REVALIDATE_SIGNATURE_HEADER,
  REVALIDATE_TIMESTAMP_HEADER,
  REVALIDATION_MAX_AGE_SECONDS,
  checkRevalidation,
} from "@ridgeline/platform-contract";
import { seenSignatures } from "@/lib/security/seen-signatures";
import { revalidateCollections } from "@/lib/wix/cache";

const MAX_BODY_BYTES = 16_384;

const bodySchema = z.object({
  collections: z.array(z.string().min(1).max(256)).max(MAX_REVALIDATION_COLLECTIONS).default([]),
  members: z.boolean().default(false),
});

const answer = (status: number, body: object) => NextResponse.json(body, { status, headers: { "cache-control": "no-store" } });

/**
 * `POST /api/revalidate`: a signed "this data changed" call (from the local platform, or any
 * tool that holds the secret) drops the cached reads of the named collections at once.
 * Body: `{"collections": ["Trails"], "members": false}`; headers: when it was signed, and the HMAC
 * of that timestamp with the raw body. A call signed more than a few minutes ago, or one whose
 * signature was already taken, is refused: a captured call cannot be replayed.
 */
export async function handleRevalidate(request: NextRequest): Promise<NextResponse> {
  const secret = getConfig().revalidateSecret;
  if (!secret) return answer(404, { error: "Revalidation is not configured (set REVALIDATE_SECRET)." });
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_BODY_BYTES) return answer(413, { error: "Body too large." });
  const raw = await request.text();
  if (raw.length > MAX_BODY_BYTES) return answer(413, { error: "Body too large." });
  const signature = request.headers.get(REVALIDATE_SIGNATURE_HEADER);
  const check = checkRevalidation(raw, signature, request.headers.get(REVALIDATE_TIMESTAMP_HEADER), secret);
  if (check === "bad-signature") return answer(401, { error: "Bad or missing signature or timestamp." });
  if (check === "stale") return answer(401, { error: `Signed more than ${REVALIDATION_MAX_AGE_SECONDS} seconds from now; sign the call again.` });
  // Remembered for both sides of the window a timestamp may be off by.
  if (!(await seenSignatures().firstSeen(signature!, 2 * REVALIDATION_MAX_AGE_SECONDS)))
    return answer(409, { error: "This call was already taken; sign each call once." });
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return answer(400, { error: "The body is not JSON." });
  }
  const parsed = bodySchema.safeParse(json);
  if (!parsed.success) return answer(400, { error: "Expected {collections: string[], members?: boolean}." });
  const tags = revalidateCollections(parsed.data.collections, { members: parsed.data.members });
  return answer(200, { revalidated: tags });
}
