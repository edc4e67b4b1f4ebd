import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { e2e } from "../playwright.config";
import { demoMember, setPlatformFaults } from "./platform";
import { logInWithForm } from "./site-pages";

/**
 * The site when the platform fails (docs/architecture.md, "When the platform fails"), with the
 * local platform's fault mode switched on over its admin endpoint: public pages say the data is
 * unavailable (or show what was cached) within a few seconds, never a stack trace; a member's
 * session survives an outage of the token endpoint.
 */

test.afterEach(async () => {
  await setPlatformFaults([]);
});

const unavailable = (page: Page) => page.getByRole("alert").filter({ hasText: "We can't reach the club's data right now" });
/** A search not made before, so no cached answer can stand in for the platform. */
const uncachedList = () => `/trails?q=${Math.random().toString(36).slice(2, 10)}`;

async function expectNoInternals(page: Page) {
  const html = await page.content();
  expect(html).not.toMatch(/PlatformUnavailableError|FAULT_INJECTED|\n\s+at \S+ \(/);
}

test("a data service that fails, drops connections or answers garbage: the list says so, the cached list still shows", async ({ page }) => {
  // Read while the platform works, so it is cached.
  await page.goto("/trails");
  await expect(page.getByTestId("item-card").first()).toBeVisible();

  for (const fault of [{ errorRate: 1 }, { dropRate: 1 }, { garbageRate: 1 }]) {
    await setPlatformFaults([{ pathPrefix: "/wix-data/", ...fault }]);
    const response = await page.goto(uncachedList());
    expect([200, 503], JSON.stringify(fault)).toContain(response!.status());
    await expect(unavailable(page)).toBeVisible();
    await expect(unavailable(page).getByRole("link", { name: "Try again" })).toBeVisible();
    await expectNoInternals(page);
  }

  await page.goto("/trails");
  await expect(page.getByTestId("item-card").first()).toBeVisible();
  await expect(unavailable(page)).toHaveCount(0);
});

test("a data service slower than the site's timeout: the message comes within a few seconds", async ({ page }) => {
  await setPlatformFaults([{ pathPrefix: "/wix-data/", latencyMs: 15_000 }]);
  const started = Date.now();
  await page.goto(uncachedList());
  await expect(unavailable(page)).toBeVisible();
  const waited = Date.now() - started;
  // The site's timeout is 5 s; the platform would have taken 15.
  expect(waited).toBeLessThan(9_000);
  await expectNoInternals(page);

  await setPlatformFaults([]);
  await unavailable(page).getByRole("link", { name: "Try again" }).click();
  await expect(unavailable(page)).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Trails" })).toBeVisible();
});

test("a token endpoint that fails: the member stays signed in, and is still once it is back", async ({ page, context }) => {
  test.setTimeout(120_000);
  const sessionCookie = async () => (await context.cookies()).find((cookie) => cookie.name === "wms_session")?.value;

  await logInWithForm(page, "/login?returnTo=%2Fmember-outings");
  await expect(page.getByTestId("member-outing").first()).toBeVisible();

  await setPlatformFaults([{ pathPrefix: "/oauth2/token", errorRate: 1 }]);
  // Past the renewal time: middleware's renewal fails, and the session stays as it was.
  await page.waitForTimeout((e2e.tokenTtlSeconds * 0.75 + 1.5) * 1000);
  await page.goto("/member-outings");
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  await expect(page.getByTestId("member-outing").first()).toBeVisible();

  // Past the access token's expiry too: the page cannot read as the member, but the cookie stays.
  await page.waitForTimeout((e2e.tokenTtlSeconds * 0.25 + 1) * 1000);
  await page.goto("/member-outings");
  expect(await sessionCookie()).toBeTruthy();
  await expectNoInternals(page);

  await setPlatformFaults([]);
  // Renewals pause for 10 s after a failure (RETRY_AFTER_FAILURE_MS in lib/auth/refresh.ts), so
  // the member is back within that pause, not necessarily on the first request.
  await expect(async () => {
    await page.goto("/member-outings");
    await expect(page.getByTestId("member-outing").first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 25_000 });
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});
