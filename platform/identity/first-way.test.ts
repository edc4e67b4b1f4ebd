import { describe, expect, it } from "vitest";
import type { Factor, SecondFactorType } from "./factors";
import { firstWay, wayOf } from "./first-way";

/** A member's factors, oldest first, as FactorStore.list answers them. */
const factors = (...types: SecondFactorType[]): Factor[] =>
  types.map((type, index) => ({ factorId: `f${index}`, identityId: "m", type, status: "ENABLED", phone: null, secret: null, createdAt: index }));

describe("firstWay: what the hosted code page asks for first", () => {
  it("asks for the way set up most recently, not the oldest (the API's order)", () => {
    expect(firstWay(factors("EMAIL", "TOTP"), undefined, true)).toMatchObject({ factor: { type: "TOTP" }, because: "newest" });
    expect(firstWay(factors("TOTP", "SMS"), undefined, true)).toMatchObject({ factor: { type: "SMS" }, because: "newest" });
  });

  it("asks first for the way this browser last finished a login with, while the member has it", () => {
    expect(firstWay(factors("EMAIL", "SMS", "TOTP"), "SMS", true)).toMatchObject({ factor: { type: "SMS" }, because: "last-used" });
    // Turned off since (or another member's way on a shared browser): the newest again.
    expect(firstWay(factors("EMAIL", "TOTP"), "SMS", true)).toMatchObject({ factor: { type: "TOTP" }, because: "newest" });
  });

  it("leads with a passkey only where the page may use one; else with the newest other way, or the passkey when there is no other", () => {
    expect(firstWay(factors("EMAIL", "WEBAUTHN"), undefined, true)).toMatchObject({ factor: { type: "WEBAUTHN" } });
    expect(firstWay(factors("EMAIL", "WEBAUTHN"), undefined, false)).toMatchObject({ factor: { type: "EMAIL" }, because: "only" });
    expect(firstWay(factors("EMAIL", "WEBAUTHN"), "WEBAUTHN", false)).toMatchObject({ factor: { type: "EMAIL" } });
    expect(firstWay(factors("WEBAUTHN"), undefined, false)).toMatchObject({ factor: { type: "WEBAUTHN" }, because: "only" });
  });

  it("asks nothing of a member without factors", () => {
    expect(firstWay([], "TOTP", true)).toBeUndefined();
  });

  it("reads only the ways from the cookie", () => {
    expect(wayOf("TOTP")).toBe("TOTP");
    expect(wayOf("RECOVERY_CODE")).toBeUndefined();
    expect(wayOf(undefined)).toBeUndefined();
  });
});
