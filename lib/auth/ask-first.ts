/**
 * "Ask first for": the way of two-step sign-in a member wants a login's second step to lead with,
 * on one browser. The platform (like Wix, whose factors carry no order or default) challenges by the
 * member's oldest factor, so the choice is the site's: its login code page leads with the chosen way
 * when the challenge offers it. Pure: tested on its own (docs/two-step-sign-in.md).
 */

/** The ways a member may ask for first: the factors a login can be challenged by. */
export const ASK_FIRST_WAYS = ["EMAIL", "SMS", "TOTP", "WEBAUTHN"] as const;
export type AskFirstWay = (typeof ASK_FIRST_WAYS)[number];

/** Each way as the choice and the confirmations name it. */
export const ASK_FIRST_WORDS: Record<AskFirstWay, string> = {
  EMAIL: "a code we e-mail you",
  SMS: "a code we text you",
  TOTP: "your authenticator app's code",
  WEBAUTHN: "a passkey",
};

/** A login's challenge as the code page knows it: the way it led with and the others it offers. */
export type ChallengeWays = { factorType: AskFirstWay; appToo: boolean; others: ReadonlyArray<"EMAIL" | "SMS">; passkey: boolean };

/**
 * What the code page leads with: the challenge's own way; the app's code or a passkey, which answer
 * any challenge; or, for a code by the other sending way, that way's button first (`offer`): the
 * password step has already sent a code by the challenged way, and switching on its own would send
 * a second one and void the first.
 */
export type Lead = "challenged" | "app" | "passkey" | { offer: "EMAIL" | "SMS" };

export function leadingWay(challenge: ChallengeWays, preferred: AskFirstWay | undefined): Lead {
  if (!preferred || preferred === challenge.factorType) return "challenged";
  if (preferred === "TOTP") return challenge.appToo ? "app" : "challenged";
  if (preferred === "WEBAUTHN") return challenge.passkey ? "passkey" : "challenged";
  return challenge.others.includes(preferred) ? { offer: preferred } : "challenged";
}

/**
 * What the next logins on this browser will do, for a confirmation: `ways` are the member's ways
 * that are on, in the platform's order (its first is the one a login challenges by), `preferred`
 * this browser's choice, `added` the way just turned on (its tip when it is not asked first).
 */
export function nextLoginsSentence(ways: readonly AskFirstWay[], preferred: AskFirstWay | undefined, added?: AskFirstWay): string {
  const [first] = ways;
  if (!first) return "Logins ask for your password only.";
  const chosen = preferred && preferred !== first && ways.includes(preferred) ? preferred : undefined;
  if (!chosen) {
    const tip = added && added !== first ? `; to be asked for ${ASK_FIRST_WORDS[added]} first on this browser, choose it under “Ask first for”` : "";
    return `Your logins ask first for ${ASK_FIRST_WORDS[first]}${tip}.`;
  }
  if (chosen === "EMAIL" || chosen === "SMS") {
    return (
      `Your logins ask first for ${ASK_FIRST_WORDS[first]}; on this browser the login page first offers to send ` +
      `${ASK_FIRST_WORDS[chosen]} instead, as you chose under “Ask first for”.`
    );
  }
  const sent = first === "EMAIL" || first === "SMS" ? ` (${ASK_FIRST_WORDS[first]} is still sent, and works too)` : "";
  return `On this browser your logins ask first for ${ASK_FIRST_WORDS[chosen]}, as you chose under “Ask first for”${sent}.`;
}
