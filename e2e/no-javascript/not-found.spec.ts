import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "../test";
import type { Browser, Page } from "@playwright/test";
import { navigationRequest } from "../rsc";
import { screenshot } from "../screenshots";
import { logInWithForm, notFoundPages } from "../site-pages";

/** A whole page in the HTML: 404, the site's header and lang, a main landmark with the heading, and ways on. */
async function expectNotFoundPage(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(404);
  // Named for what it is, not for the page that would have been there.
  await expect(page, path).toHaveTitle(/^Page not found · /);
  await expect(page.locator("html"), path).toHaveAttribute("lang", "en");
  await expect(page.getByRole("banner").getByRole("link", { name: "Ridgeline", exact: true }), path).toBeVisible();
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: "Page not found" }), path).toBeVisible();
  await expect(main.getByRole("link", { name: "Home" }), path).toBeVisible();
}

/**
 * axe on the pages as they come, with none of their script run. axe needs script itself, which a
 * page with JavaScript off cannot run, so the page's own is refused by a policy instead.
 */
async function expectNoViolationsWithoutScript(browser: Browser, paths: string[], before?: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ javaScriptEnabled: true, baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await before?.(page);
  await page.route("**/*", async (route) => {
    if (route.request().resourceType() !== "document") return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), "content-security-policy": "script-src 'none'" } });
  });
  for (const path of paths) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText("Page not found");
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
    expect(violations.map((violation) => `${path}: ${violation.id} (${violation.nodes.length}) ${violation.help}`)).toEqual([]);
  }
  await context.close();
}

test("every kind of 404 is a whole page without JavaScript: 404, the header, lang, main, a heading and ways on", async ({ page }) => {
  for (const path of notFoundPages) {
    await expectNotFoundPage(page, path);
  }
  await screenshot(page, "not-found");
  // Its way on works without script too.
  await page.getByRole("main").getByRole("link", { name: "Trails" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Trails" })).toBeVisible();
});

test("axe finds no violation on the 404 pages without their script", async ({ browser }) => {
  await expectNoViolationsWithoutScript(browser, notFoundPages);
});

test("a members' outing that does not exist is a whole 404 page for a signed-in member", async ({ page }) => {
  await logInWithForm(page);
  await expectNotFoundPage(page, "/member-outings/no-such-outing");
  await expect(page.getByTestId("member-name")).toBeVisible();
});

test("axe finds no violation on a members' outing's 404 without its script", async ({ browser }) => {
  await expectNoViolationsWithoutScript(browser, ["/member-outings/no-such-outing"], (page) => logInWithForm(page));
});

test("a 404 stays a 404 through the page cache, a client navigation's payload too, and is never kept", async ({ request }) => {
  const rsc = await navigationRequest("/trails/no-such-trail");
  for (let i = 0; i < 2; i++) {
    const response = await request.get("/trails/no-such-trail");
    expect(response.status()).toBe(404);
    expect(response.headers()["x-cache"]).not.toBe("HIT");
    expect(await response.text()).toContain("Page not found</h1>");
    // Its status went out before the page decided, so the cache, which holds the render whole, gives it.
    const payload = await request.get(rsc.url, { headers: rsc.headers, maxRedirects: 0 });
    expect(payload.status()).toBe(404);
    expect(payload.headers()["x-cache"]).not.toBe("HIT");
  }
});
