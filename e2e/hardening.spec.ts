import net from "node:net";
import { expect, test } from "./test";
import fc from "fast-check";
import { sealData } from "iron-session";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { rawRequest } from "./http";
import { logInWithForm } from "./site-pages";

/**
 * The production build's answers to what browsers and hostile clients send: unreadable
 * cookies, frames, forged hosts, methods and headers Next.js cannot handle, random queries.
 */
const site = (path: string) => `${e2e.siteUrl}${path}`;

test("a tampered, truncated, 10 KB or old-secret session cookie gives a visitor's page and is cleared, never an error page", async ({ page, context }) => {
  await logInWithForm(page);
  const sealed = (await context.cookies()).find((cookie) => cookie.name === "wms_session")!.value;
  const unreadable = {
    tampered: `${sealed.slice(0, 30)}${sealed[30] === "x" ? "y" : "x"}${sealed.slice(31)}`,
    truncated: sealed.slice(0, sealed.length - 20),
    "old secret": await sealData(
      { accessToken: "a", refreshToken: "r", role: "member", expiresAt: 2e9, renewAt: 2e9 },
      { password: { 1: "the-secret-before-the-last-rotation-0123456789" }, ttl: 3600 },
    ),
  };
  // A browser stores no cookie over 4 KB, but any client can send one: 10 KB, under Node's 16 KB header limit.
  for (const path of ["/", "/account"]) {
    const oversized = await rawRequest(site(path), { headers: { cookie: `wms_session=Fe26.2**${"A".repeat(10 * 1024)}` } });
    expect(oversized.status, path).toBe(path === "/" ? 200 : 307);
    expect(
      oversized.headers["set-cookie"]?.find((cookie) => cookie.startsWith("wms_session=")),
      path,
    ).toMatch(/^wms_session=;.*Max-Age=0/i);
    if (path === "/account") expect(oversized.headers.location).toBe("/login?returnTo=%2Faccount");
  }
  for (const [kind, value] of Object.entries(unreadable)) {
    await context.clearCookies();
    await context.addCookies([{ name: "wms_session", value, url: e2e.siteUrl }]);
    const response = await page.goto("/account");
    expect(response?.status(), kind).toBe(200);
    // /account sent the visitor to log in: the cookie was read as no session at all.
    await expect(page, kind).toHaveURL(new RegExp(`${SITE_PAGES.login}\\?returnTo=%2Faccount$`));
    await expect(page.getByRole("heading", { name: "Log in" }), kind).toBeVisible();
    expect(
      (await context.cookies()).find((cookie) => cookie.name === "wms_session"),
      kind,
    ).toBeUndefined();
  }
});

test("responses that set or clear auth cookies or show member data are private and never stored", async ({ page }) => {
  const noStore = (value: string | undefined) => expect(value?.split(",").map((part) => part.trim())).toEqual(expect.arrayContaining(["private", "no-store"]));
  const seen: Array<{ url: string; method: string; cacheControl?: string; setsCookie: boolean }> = [];
  const reading: Promise<void>[] = [];
  page.on("response", (response) => {
    const record = (headers: Record<string, string>) =>
      void seen.push({ url: response.url(), method: response.request().method(), cacheControl: headers["cache-control"], setsCookie: "set-cookie" in headers });
    // A late response (a prefetch, the background pre-warm) may come as the page closes: its headers
    // can no longer be read, and it is none of those checked below, which must all be there.
    reading.push(response.allHeaders().then(record, () => undefined));
  });
  await logInWithForm(page);
  await page.goto("/account");
  await logOut(page);
  await Promise.all(reading);

  const ours = seen.filter((entry) => entry.url.startsWith(e2e.siteUrl));
  const loginAction = ours.find((entry) => entry.method === "POST" && new URL(entry.url).pathname === SITE_PAGES.login);
  expect(loginAction?.setsCookie).toBe(true);
  noStore(loginAction?.cacheControl);
  for (const entry of ours.filter((candidate) => new URL(candidate.url).pathname.startsWith("/api/auth/"))) noStore(entry.cacheControl);
  expect(ours.filter((entry) => new URL(entry.url).pathname.startsWith("/api/auth/")).map((entry) => new URL(entry.url).pathname)).toEqual(
    expect.arrayContaining(["/api/auth/callback", "/api/auth/logout"]),
  );
  for (const entry of ours.filter((candidate) => candidate.setsCookie)) noStore(entry.cacheControl);
  for (const entry of ours.filter((candidate) => new URL(candidate.url).pathname === "/account" && candidate.method === "GET")) noStore(entry.cacheControl);
});

test("every page carries the security headers, and a page framed by another site is refused", async ({ page, request }) => {
  const trail = await request.get("/trails");
  const slug = /href="\/trails\/([a-z0-9-]+)"/.exec(await trail.text())![1];
  for (const path of [
    "/",
    "/trails",
    `/trails/${slug}`,
    "/login",
    "/register",
    "/forgot-password",
    "/auth/error",
    "/account",
    "/no-such-page",
    "/api/health",
  ]) {
    const response = await request.get(path, { maxRedirects: 0 });
    const headers = response.headers();
    expect(response.status(), path).toBeLessThan(500);
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"], path).toContain("camera=()");
    expect(headers["x-frame-options"], path).toBe("DENY");
    // On http, no HSTS: it would pin a browser to https on a host that has none.
    expect(headers["strict-transport-security"], path).toBeUndefined();
    if (path !== "/api/health") expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
  }

  // Another origin frames /account: the browser is told not to show it, and does not.
  const account = await request.get("/account", { maxRedirects: 0 });
  expect(account.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(account.headers()["x-frame-options"]).toBe("DENY");
  const attacker = `${e2e.siteUrl.replace("localhost", "127.0.0.1")}/framing-test`;
  await page.route(attacker, (route) => route.fulfill({ contentType: "text/html", body: `<iframe id="victim" src="${site("/account")}"></iframe>` }));
  await page.goto(attacker);
  const frame = await (await page.locator("#victim").elementHandle())!.contentFrame();
  // Chromium replaces a refused frame with its own error page; the site's page never renders there.
  await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
  expect(await frame!.locator("text=Log in").count()).toBe(0);
});

test("a forged Host or X-Forwarded-Host never reaches a redirect, a link or the OAuth redirect URI", async () => {
  const forged = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
  const onSite = (location: string | undefined) => {
    expect(location).toBeDefined();
    const url = new URL(location!, "http://relative.invalid");
    expect(url.origin === "http://relative.invalid" || url.origin === e2e.siteUrl, location).toBe(true);
  };
  onSite((await rawRequest(site("/?wixMemberLoggedIn=true"), { headers: forged })).headers.location);
  onSite((await rawRequest(site("/account"), { headers: forged })).headers.location);
  onSite((await rawRequest(site("/trails/"), { headers: forged })).headers.location);

  const login = await rawRequest(site("/api/auth/login?returnTo=/trails"), { headers: forged });
  expect(login.status).toBe(303);
  const authorize = new URL(login.headers.location!);
  expect(authorize.origin).toBe(e2e.platformUrl);
  expect(JSON.stringify(Object.fromEntries(authorize.searchParams))).not.toContain("evil.example");

  for (const path of ["/", "/trails", "/sitemap.xml", "/robots.txt", "/login"]) {
    const response = await rawRequest(site(path), { headers: forged });
    expect(response.status, path).toBe(200);
    expect(response.body, path).not.toContain("evil.example");
  }
  expect((await rawRequest(site("/robots.txt"), { headers: forged })).body).toContain(`${e2e.siteUrl}/sitemap.xml`);
  expect((await rawRequest(site("/trails"), { headers: forged })).body).toContain(`rel="canonical" href="${e2e.siteUrl}/trails"`);
});

test("methods and headers Next.js cannot handle get a 4xx, never a 500", async () => {
  const trace = await rawRequest(site("/"), { method: "TRACE" });
  expect(trace.status).toBe(405);
  expect(trace.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
  for (const method of ["PUT", "DELETE", "PATCH", "PROPFIND"]) expect((await rawRequest(site("/"), { method })).status, method).toBe(405);

  for (const state of ["{not json", "%E0%A4%A", encodeURIComponent('{"a":1}'), "[".repeat(16_000)]) {
    const response = await rawRequest(site("/trails"), { headers: { rsc: "1", "next-router-state-tree": state } });
    expect(response.status, state.slice(0, 20)).toBe(400);
  }

  // Unknown and malformed server actions: e2e/server-actions.spec.ts.
  const oversized = await rawRequest(site("/"), { headers: { "x-padding": "a".repeat(20_000) } });
  expect(oversized.status).toBe(431);
});

test("a Range a file cannot satisfy is 416 with the file's size, never a 500; a good one is 206", async () => {
  const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec((await rawRequest(site("/trails"))).body)![1];
  for (const path of [script, "/media/demo/ridge.jpg"]) {
    const whole = await rawRequest(site(path));
    expect(whole.status, path).toBe(200);
    const size = Number(whole.headers["content-length"]);
    for (const range of [`bytes=${size}-`, `bytes=${size + 1000}-${size + 2000}`, "bytes=10-5", "bytes=abc"]) {
      const refused = await rawRequest(site(path), { headers: { range } });
      expect(refused.status, `${path} ${range}`).toBe(416);
      expect(refused.headers["content-range"], `${path} ${range}`).toBe(`bytes */${size}`);
    }
    const part = await rawRequest(site(path), { headers: { range: "bytes=0-9" } });
    expect(part.status, path).toBe(206);
    expect(part.headers["content-range"], path).toBe(`bytes 0-9/${size}`);
    // Conditions come first: with one, the Range may be ignored, and the whole file is the answer.
    const conditional = await rawRequest(site(path), { headers: { range: "bytes=10-5", "if-range": '"not-the-etag"' } });
    expect(conditional.status, path).toBe(200);
  }
});

test("random query strings on list pages never give a 5xx (bounded run)", async () => {
  const names = ["page", "q", "sort", "size", "difficulty", "region", "distanceKm.from", "distanceKm.to", "dogFriendly", "openedOn.from", "x"];
  const value = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: "binary", maxLength: 20 }),
    fc.constantFrom("%", "%E0%A4%A", "-0", "1e308", "2024-02-30", "9999999"),
  );
  const query = fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 6 });
  const paths = fc.constantFrom("/trails", "/regions", "/outings", "/journal");
  // Byte by byte, so lone surrogates go out as what a client would send (U+FFFD), not as an exception here.
  const encoded = (text: string) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
  for (const raw of ["q=%E0%A4%A&page=%", "page=%zz", "difficulty=%00", "q=%ff%fe"])
    expect((await rawRequest(site(`/trails?${raw}`))).status, raw).toBeLessThan(500);
  await fc.assert(
    fc.asyncProperty(paths, query, async (path, pairs) => {
      const search = pairs.map(([name, text]) => `${encoded(name)}=${encoded(text)}`).join("&");
      const response = await rawRequest(site(`${path}?${search}`));
      expect(response.status, `${path}?${search}`).toBeLessThan(500);
    }),
    { numRuns: 60 },
  );
});

/**
 * Slow clients hold no render slot (docs/security.md, "Slow clients"). Each of 150 connections
 * sends a webhook call whose 1,000-byte body comes one byte every 100 ms: the server cuts each at
 * 5 s with a 408, and before that cut took every place in the render queue until its body ended.
 * A member's pages and the login page must be answered while every one of them is still held.
 */
test("150 slow request bodies leave a member's pages and the login page answering while they are held", async ({ page }) => {
  await logInWithForm(page);
  const { port } = new URL(e2e.siteUrl);
  const slow = Array.from({ length: 150 }, () => {
    const socket = net.connect(Number(port), "127.0.0.1");
    socket.on("error", () => undefined);
    socket.write(`POST /api/webhooks/wix HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
    const timer = setInterval(() => socket.write("x"), 100);
    socket.on("close", () => clearInterval(timer));
    return socket;
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answers = await Promise.all(
      ["/account", "/trails/mirror-lakes", "/login"].map(async (path) => {
        const started = Date.now();
        const response = await page.request.get(site(path), { maxRedirects: 0, timeout: 30_000 });
        return { path, status: response.status(), ms: Date.now() - started };
      }),
    );
    // The whole answer is the site's (a member on /login is sent on), and came before any slow body was cut.
    expect(answers.map(({ path, status }) => `${path} ${status}`)).toEqual(["/account 200", "/trails/mirror-lakes 200", "/login 307"]);
    expect(slow.filter((socket) => socket.destroyed || socket.bytesRead > 0)).toHaveLength(0);
  } finally {
    slow.forEach((socket) => socket.destroy());
  }
});
