import { NextRequest, NextResponse } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { askFirstChoice, chooseAskFirst } from "@/lib/auth/ask-first-store";
import { rememberDevice, rememberedDeviceToken } from "@/lib/auth/device-store";
import { MiddlewareCookies } from "@/lib/auth/middleware-cookies";
import { SESSION_ENDED } from "@/lib/auth/notice-store";
import { SESSION_MAX_AGE_SECONDS, readSession } from "@/lib/auth/session-store";
import {
  MAX_STORED_RETURN_TO,
  MAX_TRANSACTIONS,
  readTransaction,
  saveTransaction,
  storableReturnTo,
  type LoginTransaction,
} from "@/lib/auth/transaction-store";
import type { Session } from "@/lib/auth/session";
import { readPendingVerification, writePendingVerification } from "@/lib/auth/verification-store";
import { CookieJar, jarWithSession } from "./support/cookie-jar";

const transaction = (state: string, createdAt = Date.now(), returnTo = "/account"): LoginTransaction => ({
  oauthData: { state, codeVerifier: "v".repeat(43), codeChallenge: "c".repeat(43), redirectUri: "http://localhost:3000/api/auth/callback", originalUri: "" },
  returnTo,
  mode: "hosted",
  createdAt,
});

const session: Session = {
  accessToken: "at-1",
  refreshToken: "rt-1",
  role: "member",
  expiresAt: 2_000_000_000,
  renewAt: 1_999_999_940,
  issuedAt: 1_900_000_000,
  startedAt: 1_900_000_000,
  seenAt: 1_900_000_000,
  member: { id: "m-1", name: "Dana" },
};

async function savedInto(jar: CookieJar, state: string, returnTo = "/account", createdAt = Date.now()) {
  const response = NextResponse.redirect("http://platform/login");
  const request = jar.request("http://localhost:3000/api/auth/login");
  await saveTransaction(request.cookies, response.cookies, transaction(state, createdAt, returnTo));
  jar.apply(response);
}

describe("the session cookie", () => {
  it("is sealed, HttpOnly, SameSite=Lax, not Secure on http, for the whole site, and reads back", async () => {
    const jar = await jarWithSession(session);
    const { header, value } = jar.cookies.get("wms_session")!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=lax/i);
    expect(header).toMatch(/Path=\//);
    expect(header).not.toMatch(/Secure/i);
    expect(value).not.toContain("at-1");
    expect(await readSession(jar.request("http://localhost:3000/").cookies)).toEqual(session);
  });

  it("reads as no session when tampered with, truncated or foreign", async () => {
    const jar = await jarWithSession(session);
    const sealed = jar.get("wms_session")!;
    for (const value of [`${sealed.slice(0, -4)}AAAA`, sealed.slice(0, sealed.length / 2), "Fe26.2**garbage", "not-sealed"]) {
      const request = new NextRequest("http://localhost:3000/", { headers: { cookie: `wms_session=${value}` } });
      expect(await readSession(request.cookies)).toBeNull();
    }
  });
});

describe("opening the session cookie", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  const read = (value: string) => readSession(new NextRequest("http://localhost:3000/", { headers: { cookie: `wms_session=${value}` } }).cookies);
  /** Seals opened so far: each verifies its HMAC once through WebCrypto. */
  const countOpenings = () => vi.spyOn(crypto.subtle, "verify");

  it("costs one unseal per cookie however often it is read, each read a copy of its own", async () => {
    const sealed = (await jarWithSession({ ...session, accessToken: "at-read-twice" })).get("wms_session")!;
    const openings = countOpenings();
    const first = await read(sealed);
    const second = await read(sealed);
    expect(openings).toHaveBeenCalledTimes(1);
    expect(second).toEqual({ ...session, accessToken: "at-read-twice" });
    expect(second).not.toBe(first);
  });

  it("refuses a remembered seal once it has expired, as an unopened one is", async () => {
    const visitor: Session = { ...session, role: "visitor", member: undefined, accessToken: "at-expiring" };
    delete visitor.member;
    const sealed = (await jarWithSession(visitor)).get("wms_session")!;
    expect(await read(sealed)).toEqual(visitor);
    // Past the seal's 30 days and iron's minute of clock skew: visitors' sessions never lapse otherwise.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + (SESSION_MAX_AGE_SECONDS + 61) * 1000 });
    expect(await read(sealed)).toBeNull();
  });

  it("refuses a tampered cookie even while the genuine one is remembered", async () => {
    const sealed = (await jarWithSession({ ...session, accessToken: "at-genuine" })).get("wms_session")!;
    expect(await read(sealed)).toMatchObject({ accessToken: "at-genuine" });
    const parts = sealed.split("*");
    parts[4] = `${parts[4].slice(0, -4)}AAAA`;
    for (const tampered of [parts.join("*"), `${sealed.slice(0, -6)}AAAA~2`]) expect(await read(tampered)).toBeNull();
  });
});

describe("login transactions", () => {
  it("keeps one cookie per login, so several tabs can log in at once", async () => {
    const jar = new CookieJar();
    await savedInto(jar, "state-tab-one-0123456789", "/trails");
    await savedInto(jar, "state-tab-two-0123456789", "/account");
    const request = jar.request("http://localhost:3000/api/auth/callback");
    expect((await readTransaction(request.cookies, "state-tab-one-0123456789"))?.returnTo).toBe("/trails");
    expect((await readTransaction(request.cookies, "state-tab-two-0123456789"))?.returnTo).toBe("/account");
    expect(await readTransaction(request.cookies, "state-never-issued-0000")).toBeNull();
  });

  it("are sealed, HttpOnly, SameSite=Lax, sent only to the auth handlers, for ten minutes", async () => {
    const jar = new CookieJar();
    await savedInto(jar, "state-attributes-0123456789");
    const [{ header, value }] = [...jar.cookies.values()];
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=lax/i);
    expect(header).toMatch(/Path=\/api\/auth/);
    expect(header).toMatch(/Max-Age=600/);
    expect(value).not.toContain("state-attributes");
    // Pages never receive them.
    expect(jar.header("/trails")).toBe("");
  });

  it(`keeps at most ${MAX_TRANSACTIONS}, evicting the oldest`, async () => {
    const jar = new CookieJar();
    for (let i = 0; i < 5; i++) await savedInto(jar, `state-number-${i}-0123456789`, "/", 1000 + i);
    expect(jar.cookies.size).toBe(MAX_TRANSACTIONS);
    const request = jar.request("http://localhost:3000/api/auth/callback");
    expect(await readTransaction(request.cookies, "state-number-0-0123456789")).toBeNull();
    expect(await readTransaction(request.cookies, "state-number-4-0123456789")).not.toBeNull();
  });

  it("keeps the Cookie header on the auth handlers under 8 KB after five logins with the longest returnTo", async () => {
    const jar = await jarWithSession({ ...session, accessToken: "a".repeat(1000), refreshToken: "r".repeat(1000) });
    const longest = `/trails?q=${"x".repeat(2030)}`;
    for (let i = 0; i < 5; i++) await savedInto(jar, `state-long-${i}-0123456789abcdef`, longest, 2000 + i);
    const header = jar.header("/api/auth/callback");
    expect(Buffer.byteLength(header)).toBeLessThan(8 * 1024);
    // The query was dropped to fit; the path survives.
    const kept = await readTransaction(jar.request("http://localhost:3000/api/auth/callback").cookies, "state-long-4-0123456789abcdef");
    expect(kept?.returnTo).toBe("/trails");
  });

  it("shortens a return path only as far as needed", () => {
    expect(storableReturnTo("/trails?page=2")).toBe("/trails?page=2");
    expect(storableReturnTo(`/trails?q=${"x".repeat(MAX_STORED_RETURN_TO)}`)).toBe("/trails");
    expect(storableReturnTo(`/${"p".repeat(MAX_STORED_RETURN_TO + 1)}`)).toBe("/");
  });
});

describe("middleware cookie changes", () => {
  it("show a notice on this request only: the request sees it, the browser never stores it", async () => {
    const changes = new MiddlewareCookies(new NextRequest("http://localhost:3000/"));
    changes.showNotice(SESSION_ENDED);
    changes.setSession(null);
    const response = await changes.respond();
    expect(response.headers.get("x-middleware-request-x-wms-notice")).toBe(SESSION_ENDED);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("wms_notice="))).toBe(false);
    expect(response.headers.getSetCookie().find((c) => c.startsWith("wms_session="))).toMatch(/Max-Age=0/);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("let a notice the browser brought show on this page, then clear it", async () => {
    const changes = new MiddlewareCookies(new NextRequest("http://localhost:3000/", { headers: { cookie: `wms_notice=${SESSION_ENDED}` } }));
    changes.consumeNotice();
    const response = await changes.respond();
    expect(response.headers.get("x-middleware-request-x-wms-notice")).toBe(SESSION_ENDED);
    expect(response.headers.getSetCookie().find((c) => c.startsWith("wms_notice="))).toMatch(/Max-Age=0/);
  });

  it("put a renewed session into the request and the response, and onto a redirect", async () => {
    const changes = new MiddlewareCookies(new NextRequest("http://localhost:3000/"));
    changes.setSession(session);
    const response = await changes.respond(NextResponse.redirect("http://localhost:3000/clean", 303));
    expect(response.status).toBe(303);
    const jar = new CookieJar().apply(response);
    expect(await readSession(jar.request("http://localhost:3000/").cookies)).toEqual(session);
  });
});

describe("the notice header", () => {
  it("is never taken from the client: one it sent is removed", async () => {
    const changes = new MiddlewareCookies(new NextRequest("http://localhost:3000/", { headers: { "x-wms-notice": SESSION_ENDED } }));
    expect(changes.changed).toBe(true);
    const response = await changes.respond();
    expect(response.headers.get("x-middleware-override-headers")).toBe("");
    expect(response.headers.get("x-middleware-request-x-wms-notice")).toBeNull();
  });
});

describe("the remembered-device cookie", () => {
  async function remembered(jar: CookieJar, email: string, token: string) {
    const response = NextResponse.next();
    await rememberDevice(jar.request("http://localhost:3000/login/verify-code").cookies, response.cookies, email, token);
    jar.apply(response);
  }

  it("is sealed and HttpOnly for 30 days, and holds a token per member, the latest for each, five members at most", async () => {
    const jar = new CookieJar();
    await remembered(jar, "Dana@Ridgeline.example", "token-dana");
    const { header, value } = jar.cookies.get("wms_device")!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/Max-Age=2592000/);
    expect(value).not.toContain("token-dana");
    expect(value).not.toContain("dana");
    const read = (email: string) => rememberedDeviceToken(jar.request("http://localhost:3000/login").cookies, email);
    expect(await read("dana@ridgeline.example")).toBe("token-dana");
    expect(await read("eli@ridgeline.example")).toBeUndefined();
    await remembered(jar, "dana@ridgeline.example", "token-dana-2");
    for (const name of ["a", "b", "c", "d", "e"]) await remembered(jar, `${name}@ridgeline.example`, `token-${name}`);
    // The oldest member goes first.
    expect(await read("dana@ridgeline.example")).toBeUndefined();
    expect(await read("e@ridgeline.example")).toBe("token-e");
  });
});

describe("the “Ask first for” cookie", () => {
  async function chosen(jar: CookieJar, email: string, way: "EMAIL" | "TOTP" | undefined) {
    const response = NextResponse.next();
    await chooseAskFirst(jar.request("http://localhost:3000/account").cookies, response.cookies, email, way);
    jar.apply(response);
  }
  const read = (jar: CookieJar, email: string) => askFirstChoice(jar.request("http://localhost:3000/login/verify-code").cookies, email);

  it("is sealed, HttpOnly and long-lived, one choice per member; none forgets it", async () => {
    const jar = new CookieJar();
    await chosen(jar, "Dana@Ridgeline.example", "TOTP");
    await chosen(jar, "eli@ridgeline.example", "EMAIL");
    const { header, value } = jar.cookies.get("wms_ask_first")!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/Max-Age=31536000/);
    expect(value).not.toContain("TOTP");
    expect(await read(jar, "dana@ridgeline.example")).toBe("TOTP");
    expect(await read(jar, "eli@ridgeline.example")).toBe("EMAIL");
    await chosen(jar, "dana@ridgeline.example", undefined);
    expect(await read(jar, "dana@ridgeline.example")).toBeUndefined();
    expect(await read(jar, "eli@ridgeline.example")).toBe("EMAIL");
  });

  it("is ignored when the site did not seal it", async () => {
    const jar = new CookieJar();
    const request = new NextRequest("http://localhost:3000/login/verify-code", { headers: { cookie: "wms_ask_first=TOTP" } });
    expect(await askFirstChoice(request.cookies, "dana@ridgeline.example")).toBeUndefined();
    expect(jar.cookies.size).toBe(0);
  });
});

describe("the pending login's cookie", () => {
  it("keeps a passkey request small enough for a member with several passkeys, and reads it back", async () => {
    // Passkey ids as long as platform authenticators make them (64 bytes), ten of them.
    const credentialIds = Array.from({ length: 10 }, (_, index) => Buffer.alloc(64, index).toString("base64url"));
    const pending = {
      stateToken: `VST-${"s".repeat(43)}`,
      email: "dana@ridgeline.example",
      returnTo: "/account",
      secondFactor: {
        type: "WEBAUTHN" as const,
        hint: "your passkey",
        appToo: true,
        others: ["EMAIL" as const],
        passkey: { challengeId: "c".repeat(36), challenge: "x".repeat(43), credentialIds, userVerification: "preferred" as const },
      },
      step: "k".repeat(43),
    };
    const jar = new CookieJar();
    const response = NextResponse.next();
    await writePendingVerification(response.cookies, pending);
    jar.apply(response);
    const cookie = jar.cookies.get("wms_verify")!;
    // Well under the 4096 bytes a browser keeps of a cookie, with room for the other cookies in a request.
    expect(cookie.header.length).toBeLessThan(2500);
    expect(await readPendingVerification(jar.request("http://localhost:3000/login/verify-code").cookies)).toEqual(pending);
  });

  it("stays small whatever passkeys the member holds: 50 of the longest ids the platform takes, the list kept on the server", async () => {
    const credentialIds = Array.from({ length: 50 }, (_, index) => Buffer.alloc(768, index).toString("base64url"));
    expect(credentialIds[0]).toHaveLength(1024);
    const pending = {
      stateToken: `VST-${"s".repeat(43)}`,
      email: "dana@ridgeline.example",
      returnTo: "/account",
      secondFactor: {
        type: "WEBAUTHN" as const,
        hint: "your passkey",
        passkey: { challengeId: crypto.randomUUID(), challenge: "x".repeat(43), credentialIds },
      },
    };
    const jar = new CookieJar();
    const response = NextResponse.next();
    await writePendingVerification(response.cookies, pending);
    jar.apply(response);
    expect(jar.cookies.get("wms_verify")!.header.length).toBeLessThan(2500);
    expect(await readPendingVerification(jar.request("http://localhost:3000/login/verify-code").cookies)).toEqual(pending);
  });
});
