import { createHash } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import type { NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { oauthDataSchema } from "@/lib/wix/oauth";

/**
 * A login in progress: PKCE data, where to return and how it was asked for. Each lives in
 * its own encrypted cookie named after its state, so several tabs can log in at once
 * (pitfall P5); at most MAX_TRANSACTIONS are kept, the oldest evicted first.
 */
const transactionSchema = z.object({
  oauthData: oauthDataSchema,
  returnTo: z.string().startsWith("/"),
  prompt: z.enum(["login", "none"]),
  createdAt: z.number(),
});
export type LoginTransaction = z.infer<typeof transactionSchema>;

const PREFIX = "wms_txn_";
const TTL_SECONDS = 600;
const MAX_TRANSACTIONS = 5;
const cookieOptions = () => ({
  httpOnly: true,
  sameSite: "lax" as const,
  secure: getConfig().siteUrl.protocol === "https:",
  path: "/api/auth",
});

function cookieName(state: string): string {
  return PREFIX + createHash("sha256").update(state).digest("base64url").slice(0, 22);
}

async function unseal(value: string): Promise<LoginTransaction | null> {
  try {
    const parsed = transactionSchema.safeParse(await unsealData(value, { password: getConfig().sessionSecret, ttl: TTL_SECONDS }));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function saveTransaction(request: NextRequest, response: NextResponse, transaction: LoginTransaction): Promise<void> {
  const existing = request.cookies.getAll().filter((c) => c.name.startsWith(PREFIX));
  if (existing.length >= MAX_TRANSACTIONS) {
    const dated = await Promise.all(existing.map(async (c) => ({ name: c.name, createdAt: (await unseal(c.value))?.createdAt ?? 0 })));
    dated.sort((a, b) => a.createdAt - b.createdAt);
    for (const { name } of dated.slice(0, existing.length - MAX_TRANSACTIONS + 1)) response.cookies.set(name, "", { ...cookieOptions(), maxAge: 0 });
  }
  const sealed = await sealData(transaction, { password: getConfig().sessionSecret, ttl: TTL_SECONDS });
  response.cookies.set(cookieName(transaction.oauthData.state), sealed, { ...cookieOptions(), maxAge: TTL_SECONDS });
}

/** The transaction for a state, or null when it is unknown, used, expired or tampered with. */
export async function readTransaction(request: NextRequest, state: string): Promise<LoginTransaction | null> {
  const value = request.cookies.get(cookieName(state))?.value;
  const transaction = value ? await unseal(value) : null;
  return transaction && transaction.oauthData.state === state ? transaction : null;
}

export function deleteTransaction(response: NextResponse, state: string): void {
  response.cookies.set(cookieName(state), "", { ...cookieOptions(), maxAge: 0 });
}

export function deleteAllTransactions(request: NextRequest, response: NextResponse): void {
  for (const cookie of request.cookies.getAll()) {
    if (cookie.name.startsWith(PREFIX)) response.cookies.set(cookie.name, "", { ...cookieOptions(), maxAge: 0 });
  }
}
