import { NextResponse } from "next/server";
import { describe, expect, it } from "vitest";
import { forgetRecoveryCodes, keepRecoveryCodes, keptRecoveryCodes } from "@/lib/account/recovery-codes-store";
import { RECOVERY_CODES_PATH, recoveryCodesCookieName } from "@/lib/auth/cookie-names";
import { CookieJar } from "./support/cookie-jar";

const kept = { memberId: "m-1", codes: ["ABCDE-FGH23", "JKLMN-PQR45"], done: "New recovery codes are ready." };

async function jarWithCodes() {
  const response = NextResponse.redirect(`http://localhost:3000${RECOVERY_CODES_PATH}`);
  await keepRecoveryCodes(response.cookies, kept);
  return new CookieJar().apply(response);
}

describe("recovery codes kept for their page", () => {
  it("are sent only to their page and its download, sealed, for 10 minutes", async () => {
    const jar = await jarWithCodes();
    const header = jar.cookies.get(recoveryCodesCookieName())!.header;
    expect(header).toMatch(/Path=\/account\/recovery-codes/i);
    expect(header).toMatch(/Max-Age=600/i);
    expect(header).toMatch(/HttpOnly/i);
    expect(jar.get(recoveryCodesCookieName())).not.toContain("ABCDE");
    expect(jar.header("/account")).toBe("");
    expect(jar.header(`${RECOVERY_CODES_PATH}/download`)).not.toBe("");
  });

  it("are shown to the member who made them only, and forgotten once saved", async () => {
    const jar = await jarWithCodes();
    const request = jar.request(`http://localhost:3000${RECOVERY_CODES_PATH}`);
    expect(await keptRecoveryCodes(request.cookies, "m-1")).toEqual(kept);
    expect(await keptRecoveryCodes(request.cookies, "m-2")).toBeNull();
    expect(await keptRecoveryCodes(request.cookies, undefined)).toBeNull();
    const saved = NextResponse.redirect("http://localhost:3000/account#two-step");
    forgetRecoveryCodes(saved.cookies);
    jar.apply(saved);
    expect(await keptRecoveryCodes(jar.request(`http://localhost:3000${RECOVERY_CODES_PATH}`).cookies, "m-1")).toBeNull();
  });
});
