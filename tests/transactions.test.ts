import { NextRequest, NextResponse } from "next/server";
import { describe, expect, it } from "vitest";
import { readTransaction, saveTransaction, type LoginTransaction } from "@/lib/auth/transactions";

const transaction = (state: string, createdAt = Date.now(), returnTo = "/account"): LoginTransaction => ({
  oauthData: { state, codeVerifier: "v".repeat(43), codeChallenge: "c".repeat(43), redirectUri: "http://localhost:3000/api/auth/callback", originalUri: "" },
  returnTo,
  prompt: "login",
  createdAt,
});

/** The browser's cookie jar, as far as these cookies go. */
function jar() {
  const cookies = new Map<string, string>();
  return {
    cookies,
    request: () => new NextRequest("http://localhost:3000/api/auth/callback", { headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") } }),
    apply(response: NextResponse) {
      for (const cookie of response.cookies.getAll()) {
        if (cookie.maxAge === 0) cookies.delete(cookie.name);
        else cookies.set(cookie.name, cookie.value);
      }
    },
  };
}

describe("login transactions", () => {
  it("keeps one cookie per login, so several tabs can log in at once", async () => {
    const browser = jar();
    for (const [state, returnTo] of [["state-tab-one-0123456789", "/trails"], ["state-tab-two-0123456789", "/account"]]) {
      const response = NextResponse.redirect("http://platform/login");
      await saveTransaction(browser.request(), response, transaction(state, Date.now(), returnTo));
      browser.apply(response);
    }
    expect(browser.cookies.size).toBe(2);
    expect((await readTransaction(browser.request(), "state-tab-one-0123456789"))?.returnTo).toBe("/trails");
    expect((await readTransaction(browser.request(), "state-tab-two-0123456789"))?.returnTo).toBe("/account");
  });

  it("sets the cookie encrypted, HttpOnly, SameSite=Lax, only for /api/auth, for ten minutes", async () => {
    const response = NextResponse.redirect("http://platform/login");
    await saveTransaction(jar().request(), response, transaction("state-attributes-0123456789"));
    const header = response.headers.get("set-cookie")!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=lax/i);
    expect(header).toMatch(/Path=\/api\/auth/);
    expect(header).toMatch(/Max-Age=600/);
    expect(header).not.toContain("v".repeat(43));
  });

  it("refuses a state that does not match any transaction of this browser", async () => {
    const browser = jar();
    const response = NextResponse.redirect("http://platform/login");
    await saveTransaction(browser.request(), response, transaction("state-real-0123456789"));
    browser.apply(response);
    expect(await readTransaction(browser.request(), "state-forged-0123456789")).toBeNull();
    expect(await readTransaction(jar().request(), "state-real-0123456789")).toBeNull();
  });

  it("refuses a tampered transaction cookie", async () => {
    const browser = jar();
    const response = NextResponse.redirect("http://platform/login");
    await saveTransaction(browser.request(), response, transaction("state-tampered-0123456789"));
    browser.apply(response);
    const [name, value] = [...browser.cookies][0];
    browser.cookies.set(name, value.slice(0, -4) + "AAAA");
    expect(await readTransaction(browser.request(), "state-tampered-0123456789")).toBeNull();
  });

  it("keeps at most five, evicting the oldest", async () => {
    const browser = jar();
    for (let i = 0; i < 7; i++) {
      const response = NextResponse.redirect("http://platform/login");
      await saveTransaction(browser.request(), response, transaction(`state-number-${i}-0123456789`, 1000 + i));
      browser.apply(response);
    }
    expect(browser.cookies.size).toBe(5);
    expect(await readTransaction(browser.request(), "state-number-0-0123456789")).toBeNull();
    expect(await readTransaction(browser.request(), "state-number-1-0123456789")).toBeNull();
    expect(await readTransaction(browser.request(), "state-number-6-0123456789")).not.toBeNull();
  });
});
