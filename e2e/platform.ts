import { e2e } from "../playwright.config";

/** Reads the local platform's request counter. */
export async function platformRequests(): Promise<Record<string, number>> {
  const response = await fetch(`${e2e.platformUrl}/_local/stats`);
  return ((await response.json()) as { requests: Record<string, number> }).requests;
}
