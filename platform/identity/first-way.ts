import { SECOND_FACTOR_TYPES, type Factor, type SecondFactorType } from "./factors";

/**
 * Which of a member's ways the hosted login's second step asks for first (docs/two-step-sign-in.md,
 * "The hosted login page"). The API challenges by the oldest factor, as Wix does (no factor carries
 * an order); the hosted page is the platform's own, so it may choose, and it chooses before anything
 * is sent: a member who set up the app after e-mail codes is asked for the app's code and mailed nothing.
 * - `last-used`: the way this browser last finished a hosted login with (the `lp_way` cookie), while the member has it;
 * - `newest`: else the way the member set up most recently, the one they chose last;
 * - a passkey only where the page may use it (its origin and the site's RP id): elsewhere it would lead to a dead end.
 * Pure: tested on its own (first-way.test.ts).
 */
export type FirstWay = { factor: Factor; because: "last-used" | "newest" | "only" };

export function firstWay(factors: readonly Factor[], lastUsed: SecondFactorType | undefined, passkeysHere: boolean): FirstWay | undefined {
  const usable = factors.filter((factor) => passkeysHere || factor.type !== "WEBAUTHN");
  const used = usable.find((factor) => factor.type === lastUsed);
  if (used) return { factor: used, because: "last-used" };
  // Oldest first (FactorStore.list): the newest is the last.
  const newest = usable.at(-1);
  if (newest) return { factor: newest, because: usable.length > 1 ? "newest" : "only" };
  return factors[0] && { factor: factors[0], because: "only" };
}

/** The `lp_way` cookie's value as a way, or nothing for anything else. */
export function wayOf(value: string | undefined): SecondFactorType | undefined {
  return SECOND_FACTOR_TYPES.find((type) => type === value);
}
