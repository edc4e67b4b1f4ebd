import { expect, test } from "./test";
import { openMenu, sectionsMenuSummary } from "./header-menus";
import { hydrated } from "./hydration";
import { demoMember, platformRequests } from "./platform";
import { logInWithForm } from "./site-pages";
import { watchPolicy } from "./policy-watch";
import { navigationRequest } from "./rsc";

/**
 * The page cache in the production server (docs/performance.md, "Page cache"), as browsers and
 * clients meet it: visitors get cached pages under a hash-based policy that lets them hydrate
 * and nothing else run; members never get a cached page; RSC and HTML answers never cross.
 */

test("a visitor's page is rendered once, then served from the cache with an ETag; HEAD and 304 too", async ({ request }) => {
  const first = await request.get("/regions/high-desert");
  expect(first.status()).toBe(200);
  const second = await request.get("/regions/high-desert");
  expect(second.headers()["x-cache"]).toBe("HIT");
  expect(second.headers()["set-cookie"]).toBeUndefined();
  expect(await second.text()).toBe(await first.text());
  expect(second.headers()["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
  expect(second.headers()["content-security-policy"]).not.toMatch(/nonce-|unsafe-inline'[^;]*;.*script/);
  expect((await second.text()).includes('nonce="')).toBe(false);
  const etag = second.headers().etag;
  expect((await request.get("/regions/high-desert", { headers: { "if-none-match": etag } })).status()).toBe(304);
  const head = await request.head("/regions/high-desert");
  expect(head.status()).toBe(200);
  expect(head.headers()["x-cache"]).toBe("HIT");
});

test("no member gets a visitor's cached page (members' own are in member-template.spec.ts), and cached pages never carry a cookie", async ({
  page,
  request,
}) => {
  for (let i = 0; i < 2; i++) expect((await request.get("/trails/summit-loop")).headers()["x-cache"]).toMatch(/HIT|MISS/);
  await logInWithForm(page);
  for (const path of ["/trails/summit-loop", "/", "/trails", "/account"]) {
    const response = await page.goto(path);
    // The account page is the member's own: kept for their cookies at most, never a shared page.
    if (path === "/account") expect(response?.headers()["cache-control"], path).toBe("private, no-store");
    await expect(page.getByTestId("member-name"), path).toHaveText(demoMember.name);
  }
  // A visitor still gets the cached page, without the member's menu.
  const visitor = await request.get("/trails/summit-loop", { headers: { cookie: "" } });
  expect(visitor.headers()["x-cache"]).toBe("HIT");
  expect(await visitor.text()).not.toContain(demoMember.name);
  expect((await request.get("/account", { headers: { cookie: "" }, maxRedirects: 0 })).headers()["x-cache"]).toBe("BYPASS");
});

test("RSC and HTML answers are never crossed, whichever was cached first", async ({ request }) => {
  const rsc = await navigationRequest("/trails/mirror-lakes");
  const first = await request.get(rsc.url, { headers: rsc.headers });
  expect(first.headers()["content-type"]).toContain("text/x-component");
  const document = await request.get("/trails/mirror-lakes");
  expect(document.headers()["content-type"]).toContain("text/html");
  expect(await document.text()).toMatch(/^<!DOCTYPE html>/);
  for (let i = 0; i < 2; i++) {
    const again = await request.get(rsc.url, { headers: rsc.headers });
    expect(again.headers()["x-cache"]).toBe("HIT");
    expect(again.headers()["content-type"]).toContain("text/x-component");
    const page = await request.get("/trails/mirror-lakes");
    expect(page.headers()["x-cache"]).toBe("HIT");
    expect(page.headers()["content-type"]).toContain("text/html");
  }
  // A prefetch is an answer of its own.
  const prefetch = await navigationRequest("/trails/mirror-lakes", { prefetch: "1" });
  expect((await request.get(prefetch.url, { headers: prefetch.headers })).headers()["x-cache"]).toBe("MISS");
  // The same URL with the RSC header and a wrong hash is refused by Next.js, not served the document.
  const forged = await request.get("/trails/mirror-lakes", { headers: { rsc: "1" }, maxRedirects: 0 });
  expect(forged.status()).toBe(307);
});

test("unknown or invalid parameters redirect to the canonical URL: random query strings cannot fill the cache", async ({ request }) => {
  const before = await platformRequests();
  for (let i = 0; i < 20; i++) {
    const response = await request.get(`/trails?q=lake&utm_source=n${i}&sort=nonsense`, { maxRedirects: 0 });
    expect(response.status()).toBe(307);
    expect(response.headers().location).toBe("/trails?q=lake");
  }
  const navigation = await navigationRequest("/trails?q=lake&distanceKm.from=&dogFriendly=");
  const redirected = await request.get(navigation.url, { headers: navigation.headers, maxRedirects: 0 });
  expect(redirected.headers().location).toMatch(/^\/trails\?q=lake&_rsc=/);
  expect(await platformRequests()).toEqual(before);
  expect((await request.get("/trails?page=abc")).status()).toBe(404);
});

test("cached pages hydrate under their hash-based policy: menus, search and load more work, nothing is refused", async ({ page, request }) => {
  for (const path of ["/", "/trails", "/journal"]) {
    await request.get(path);
    expect((await request.get(path)).headers()["x-cache"], path).toBe("HIT");
  }
  const violations = await watchPolicy(page);
  await page.setViewportSize({ width: 390, height: 800 });
  const home = await page.goto("/");
  expect(home?.headers()["x-cache"]).toBe("HIT");
  await (await openMenu(await hydrated(sectionsMenuSummary(page)))).getByRole("link", { name: "Trails" }).click();
  await expect(page).toHaveURL(/\/trails$/);
  await page.setViewportSize({ width: 1280, height: 900 });
  const trails = await page.goto("/trails");
  expect(trails?.headers()["x-cache"]).toBe("HIT");
  await hydrated(page.getByRole("form", { name: "Search trails" }));
  await page.getByRole("searchbox", { name: "Search" }).fill("lake");
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(page).toHaveURL(/\/trails\?q=lake$/);
  await expect(page.getByTestId("item-card")).toHaveCount(4);
  await page.getByTestId("item-card").first().getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const journal = await page.goto("/journal");
  expect(journal?.headers()["x-cache"]).toBe("HIT");
  await (await hydrated(page.getByRole("link", { name: "Load more stories" }))).click();
  await expect(page.getByTestId("item-card")).toHaveCount(10);
  expect(violations()).toEqual([]);
});
