import { describe, expect, it } from "vitest";
import { leadingWay, nextLoginsSentence, type ChallengeWays } from "@/lib/auth/ask-first";

const byEmail: ChallengeWays = { factorType: "EMAIL", appToo: true, others: ["SMS"], passkey: true };

describe("the way a login's code page leads with", () => {
  it("is the challenge's own without a choice, or when the choice is the challenged way", () => {
    expect(leadingWay(byEmail, undefined)).toBe("challenged");
    expect(leadingWay(byEmail, "EMAIL")).toBe("challenged");
  });

  it("is the app's code or a passkey when chosen and the challenge offers it", () => {
    expect(leadingWay(byEmail, "TOTP")).toBe("app");
    expect(leadingWay(byEmail, "WEBAUTHN")).toBe("passkey");
    expect(leadingWay({ ...byEmail, factorType: "WEBAUTHN", appToo: true }, "TOTP")).toBe("app");
    expect(leadingWay({ ...byEmail, factorType: "TOTP", appToo: false }, "WEBAUTHN")).toBe("passkey");
  });

  it("offers the other sending way's button first rather than sending a second code", () => {
    expect(leadingWay(byEmail, "SMS")).toEqual({ offer: "SMS" });
    expect(leadingWay({ factorType: "TOTP", appToo: false, others: ["EMAIL"], passkey: false }, "EMAIL")).toEqual({ offer: "EMAIL" });
  });

  it("is the challenge's own when the chosen way is not offered (turned off since, or not on this account)", () => {
    const emailOnly: ChallengeWays = { factorType: "EMAIL", appToo: false, others: [], passkey: false };
    expect(leadingWay(emailOnly, "TOTP")).toBe("challenged");
    expect(leadingWay(emailOnly, "WEBAUTHN")).toBe("challenged");
    expect(leadingWay(emailOnly, "SMS")).toBe("challenged");
  });
});

describe("what a confirmation says the next logins do", () => {
  it("names the oldest way, with the tip when the way just turned on is not it", () => {
    expect(nextLoginsSentence(["EMAIL"], undefined, "EMAIL")).toBe("Your logins ask first for a code we e-mail you.");
    expect(nextLoginsSentence(["EMAIL", "TOTP"], undefined, "TOTP")).toBe(
      "Your logins ask first for a code we e-mail you; to be asked for your authenticator app's code first on this browser, choose it under “Ask first for”.",
    );
    expect(nextLoginsSentence([], undefined)).toBe("Logins ask for your password only.");
  });

  it("names this browser's choice when it leads, and says a code still goes by the oldest way", () => {
    expect(nextLoginsSentence(["EMAIL", "TOTP"], "TOTP", "TOTP")).toBe(
      "On this browser your logins ask first for your authenticator app's code, as you chose under “Ask first for” " +
        "(a code we e-mail you is still sent, and works too).",
    );
    expect(nextLoginsSentence(["WEBAUTHN", "TOTP"], "TOTP")).toBe(
      "On this browser your logins ask first for your authenticator app's code, as you chose under “Ask first for”.",
    );
    expect(nextLoginsSentence(["EMAIL", "SMS"], "SMS")).toBe(
      "Your logins ask first for a code we e-mail you; on this browser the login page first offers to send a code we text you instead, " +
        "as you chose under “Ask first for”.",
    );
  });

  it("ignores a choice that is the oldest way or is not on", () => {
    expect(nextLoginsSentence(["EMAIL", "TOTP"], "EMAIL")).toBe("Your logins ask first for a code we e-mail you.");
    expect(nextLoginsSentence(["EMAIL"], "TOTP")).toBe("Your logins ask first for a code we e-mail you.");
  });
});
