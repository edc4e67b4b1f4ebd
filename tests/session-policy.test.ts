import { NextRequest } from "next/server";
import { ResponseCookies } from "next/dist/compiled/@edge-runtime/cookies";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Session } from "@/lib/auth/session";

/** The session store as a site with this environment has it (its configuration is read once per module instance). */
async function storeWith(env: Record<string, string>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return import("@/lib/auth/session-store");
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const now = Math.floor(Date.now() / 1000);
const member = (overrides: Partial<Session> = {}): Session => ({
  accessToken: "at",
  refreshToken: "rt",
  role: "member",
  expiresAt: now + 3600,
  renewAt: now + 3540,
  issuedAt: now - 60,
  startedAt: now - 600,
  seenAt: now - 60,
  member: { id: "m-1", name: "Dana" },
  ...overrides,
});

async function sealedBy(store: Awaited<ReturnType<typeof storeWith>>, session: Session) {
  const headers = new Headers();
  await store.writeSession(new ResponseCookies(headers), session);
  const [cookie] = headers.getSetCookie();
  return { header: cookie, name: cookie.slice(0, cookie.indexOf("=")), value: cookie.slice(cookie.indexOf("=") + 1, cookie.indexOf(";")) };
}

const request = (url: string, cookie: string) => new NextRequest(url, { headers: { cookie } });
const [OLD, NEW, NEWER] = ["old-secret-".padEnd(40, "o"), "new-secret-".padEnd(40, "n"), "newer-secret-".padEnd(40, "w")];

describe("secret rotation", () => {
  it("opens cookies sealed with an older secret while it is listed, and seals with the newest", async () => {
    const before = await sealedBy(await storeWith({ SESSION_SECRET: OLD }), member());
    const rotated = await storeWith({ SESSION_SECRET: `${NEW},${OLD}` });
    expect(await rotated.readSession(request("http://localhost:3000/", `${before.name}=${before.value}`).cookies)).toMatchObject({ accessToken: "at" });

    const after = await sealedBy(rotated, member({ accessToken: "at-2" }));
    const newOnly = await storeWith({ SESSION_SECRET: `${NEWER},${NEW}` });
    expect(await newOnly.readSession(request("http://localhost:3000/", `${after.name}=${after.value}`).cookies)).toMatchObject({ accessToken: "at-2" });
    // Once the old secret is dropped, its cookies read as no session: a fresh visitor, not an error.
    expect(await newOnly.readSession(request("http://localhost:3000/", `${before.name}=${before.value}`).cookies)).toBeNull();
  });
});

describe("cookie names and attributes on https", () => {
  it("uses the __Host- prefix with Secure and path / for the session", async () => {
    const store = await storeWith({ SESSION_SECRET: NEW, SITE_URL: "https://club.example" });
    const { header, name, value } = await sealedBy(store, member());
    expect(name).toBe("__Host-wms_session");
    expect(header).toMatch(/; Secure/i);
    expect(header).toMatch(/Path=\//);
    expect(header).not.toMatch(/Domain=/i);
    expect(await store.readSession(request("https://club.example/", `${name}=${value}`).cookies)).toMatchObject({ role: "member" });
    // The unprefixed name, which a subdomain could plant, is not read.
    expect(await store.readSession(request("https://club.example/", `wms_session=${value}`).cookies)).toBeNull();
  });
});

describe("member session limits", () => {
  it("reads a member session past its idle limit as lapsed, and one in use as it is", async () => {
    const store = await storeWith({ SESSION_SECRET: NEW, SESSION_IDLE_TIMEOUT: "3600", SESSION_ABSOLUTE_TIMEOUT: "86400" });
    const idle = await sealedBy(store, member({ seenAt: now - 3700 }));
    expect(await store.loadSession(request("http://localhost:3000/", `${idle.name}=${idle.value}`).cookies)).toEqual({ session: null, lapsed: true });
    const old = await sealedBy(store, member({ startedAt: now - 90_000, seenAt: now - 10 }));
    expect((await store.loadSession(request("http://localhost:3000/", `${old.name}=${old.value}`).cookies)).lapsed).toBe(true);
    const active = await sealedBy(store, member());
    expect((await store.loadSession(request("http://localhost:3000/", `${active.name}=${active.value}`).cookies)).session).toMatchObject({ role: "member" });
  });
});
