import { expect, test } from "./test";
import type { APIRequestContext } from "@playwright/test";
import { adminItems, platformRequests, revalidateSite, secondDemoMember, setPlatformFaults } from "./platform";
import { fillLoginForm } from "./site-pages";

/**
 * What a page view costs the platform, counted by the platform itself (`/_local/stats`): a warm
 * cache answers public pages with no call at all, an edit shows at once through the platform's
 * revalidation call, and requests that miss together share one read.
 */

const PUBLIC_PAGES = ["/", "/trails", "/trails?page=2", "/trails/arch-spur", "/outings", "/journal", "/regions", "/regions/high-desert"];

/** Every platform call since `before`, by route; only the routes that were called. */
function callsSince(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).flatMap(([route, count]) => (count > (before[route] ?? 0) ? [[route, count - (before[route] ?? 0)]] : [])));
}

/** A page as a browser without cookies gets it: 200, and no cookie comes back. */
async function view(request: APIRequestContext, url: string): Promise<string> {
  const response = await request.get(url, { headers: { cookie: "" } });
  expect(response.status(), url).toBe(200);
  expect(response.headers()["set-cookie"], url).toBeUndefined();
  return response.text();
}

test("50 cookie-less views of warm public pages cost no token grant and no data query", async ({ request }) => {
  for (const url of PUBLIC_PAGES) await view(request, url);
  const before = await platformRequests();
  await Promise.all(Array.from({ length: 50 }, (_, i) => view(request, PUBLIC_PAGES[i % PUBLIC_PAGES.length])));
  expect(callsSince(before, await platformRequests())).toEqual({});
});

test("an edit made with @wix/data shows within a second on every cached page that shows it", async ({ request }) => {
  const items = adminItems();
  const [trail] = (await items.query("Trails").eq("slug", "hidden-cove").find()).items;
  const title = trail.title as string;
  // The item, the list, the home page and the region's page all show the trail's title.
  const pages = ["/trails/hidden-cove", "/trails", "/", "/regions/coastal-bluffs"];
  for (const url of pages) {
    await view(request, url);
    expect((await request.get(url, { headers: { cookie: "" } })).headers()["x-cache"], url).toBe("HIT");
  }
  const showingEdit = async () => (await Promise.all(pages.map((url) => view(request, url)))).filter((html) => html.includes("Freshly Edited")).length;
  try {
    await items.update("Trails", { ...trail, title: `${title} Freshly Edited` });
    // The platform announces the change within its 100 ms gathering window; the caches would otherwise keep the old title for 5 minutes.
    await expect.poll(showingEdit, { timeout: 1000, intervals: [50] }).toBe(pages.length);
  } finally {
    await items.update("Trails", { ...trail, title });
    await expect.poll(showingEdit, { timeout: 1000, intervals: [50] }).toBe(0);
  }
});

test("requests that miss the cache together share one platform read", async ({ request }) => {
  await view(request, "/journal");
  await revalidateSite({ collections: ["Journal"] });
  const before = await platformRequests();
  await Promise.all(Array.from({ length: 20 }, () => view(request, "/journal")));
  const calls = callsSince(before, await platformRequests());
  expect(Object.values(calls).reduce((total, count) => total + count, 0)).toBe(1);
});

test("/account waits on two rounds of platform calls, its independent calls made together", async ({ page, request }) => {
  // A member who has joined an outing: the outings are read in two steps, their sign-ups then the outings they name.
  const outing = "/outings/winter-solstice-lantern-walk";
  const rsvp = page.getByRole("region", { name: /Join this outing|You're going/ });
  await page.goto(`/login?returnTo=${encodeURIComponent(outing)}`);
  await fillLoginForm(page, secondDemoMember);
  await rsvp.getByRole("button", { name: "Join this outing" }).click();
  await expect(rsvp).toHaveAccessibleName("You're going");
  const session = (await page.context().cookies()).find((cookie) => cookie.name === "wms_session")!;
  // Nothing else asks the platform meanwhile (no prefetch of the page's links).
  await page.goto("about:blank");
  // Rendered at each view, as after a change of the member's: a pending verification cookie (which /account does not read)
  // sends the view to Next.js, not to the page kept for the member's cookies.
  const account = async () => {
    const started = Date.now();
    const response = await request.get("/account", { headers: { cookie: `wms_session=${session.value}; wms_verify=pending` }, maxRedirects: 0 });
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain("Winter Solstice Lantern Walk");
    return Date.now() - started;
  };
  // The member's reads, apart from token renewals (the e2e tokens last 20 s).
  const memberCalls = async () =>
    Object.entries(await platformRequests())
      .filter(([route]) => /^\S+ \/(members|_api\/iam|wix-data)\//.test(route))
      .reduce((total, [, count]) => total + count, 0);
  try {
    // Warm: the layout's shared reads are cached, so only the member's own reads remain.
    await account();
    // Each of the member's reads now takes 800 ms: the view takes that long for each round of calls it waits on.
    const latencyMs = 800;
    await setPlatformFaults(["/members/", "/_api/iam/", "/wix-data/"].map((pathPrefix) => ({ pathPrefix, latencyMs })));
    const before = await memberCalls();
    const elapsed = await account();
    // The profile, the factors, remembered devices and passkeys, the sign-ups of both outing collections; then the joined outing.
    expect(await memberCalls()).toBe(before + 7);
    expect(elapsed).toBeGreaterThanOrEqual(2 * latencyMs);
    expect(elapsed).toBeLessThan(3 * latencyMs);
  } finally {
    await setPlatformFaults([]);
    await page.goto(outing);
    await rsvp.getByRole("button", { name: "Cancel my place" }).click();
    await expect(rsvp.getByRole("button", { name: "Join this outing" })).toBeVisible();
  }
});
