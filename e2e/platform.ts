import { e2e } from "../playwright.config";

/** The local platform's default admin API key (the e2e server does not override it). */
const ADMIN_KEY = "local-platform-admin-key-change-me";

export const demoMember = { email: "demo@ridgeline.example", password: "ridgeline-demo", name: "Dana" };

/** Reads the local platform's request counter. */
export async function platformRequests(): Promise<Record<string, number>> {
  const response = await fetch(`${e2e.platformUrl}/_local/stats`);
  return ((await response.json()) as { requests: Record<string, number> }).requests;
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
