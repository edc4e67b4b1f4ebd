import { expect, test } from "./test";
import { items } from "@wix/data";
import { createClient, OAuthStrategy } from "@wix/sdk";
import { LOCAL_CLIENT_ID, routeWixApis } from "@ridgeline/platform-contract";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { demoMember } from "./platform";
import { screenshot } from "./screenshots";
import { submitLogin } from "./site-pages";
import { expectAccessible, noPolicyRefusals, openStudio, studioUrl } from "./studio";

const WRONG_PASSWORD = "Not-Dana's-password-58";
const QUERY_PATH = "/wix-data/v2/items/query";
const LOGIN_PATH = "/_api/iam/authentication/v2/login";

/** A visitor's query with the real @wix/data client; its token calls use the global fetch, so that is routed for the call. */
async function queryMissingCollection(): Promise<unknown> {
  const original = globalThis.fetch;
  globalThis.fetch = routeWixApis(e2e.platformUrl, original);
  try {
    const visitor = createClient({ modules: { items }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    return await visitor.items
      .query("NoSuchCollection")
      .find()
      .catch((error: unknown) => error);
  } finally {
    globalThis.fetch = original;
  }
}

test("failing SDK calls show up live in the Studio's request log, with their error codes and redacted bodies", async ({ page, context }) => {
  const checkPolicy = await noPolicyRefusals(page);
  await openStudio(page, "/requests", "Requests");
  await expect(page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Requests" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("Live: new calls appear at the top.")).toBeVisible();

  // Two failures while the Studio is open: a data query from a script, and the site's own login form with a wrong password.
  expect(String(await queryMissingCollection())).toContain("WDE0025");
  const site = await context.newPage();
  await site.goto(`${e2e.siteUrl}${SITE_PAGES.login}`);
  await submitLogin(site, demoMember.email, WRONG_PASSWORD);

  const calls = page.getByRole("region", { name: "Calls" });
  const query = calls.getByRole("row").filter({ hasText: QUERY_PATH }).first();
  await expect(query.locator(".badge")).toHaveText("404");
  await expect(query).toContainText("WDE0025");
  await expect(query).toContainText("visitor");
  const login = calls.getByRole("row").filter({ hasText: LOGIN_PATH }).first();
  await expect(login.locator(".badge")).toHaveText(/^4\d\d$/);
  await site.close();

  // Filters: errors only, then one path; both kept in the address.
  await page.getByLabel("Status").selectOption("errors");
  await expect
    .poll(async () => {
      const statuses = (await calls.locator("tbody .badge").allTextContents()).map(Number);
      return statuses.length > 0 && statuses.every((status) => status >= 400);
    })
    .toBe(true);
  await page.getByLabel("Path contains").fill(LOGIN_PATH);
  await expect(page).toHaveURL(studioUrl(`/requests?path=${encodeURIComponent(LOGIN_PATH)}&status=errors`));
  await expect(calls.getByRole("row").filter({ hasText: QUERY_PATH })).toHaveCount(0);

  // Keyboard: from the path filter to the row's details button, opened with Enter.
  const details = login.getByRole("button", { name: `Show details of POST ${LOGIN_PATH}` });
  await page.getByLabel("Path contains").focus();
  for (let presses = 0; presses < 10 && !(await details.evaluate((button) => button === document.activeElement)); presses++) await page.keyboard.press("Tab");
  await expect(details).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(login.getByRole("button", { name: `Hide details of POST ${LOGIN_PATH}` })).toHaveAttribute("aria-expanded", "true");
  const body = page.locator(".request-details").first();
  await expect(body).toContainText(demoMember.email);
  await expect(body).toContainText('"password": "[redacted]"');
  await expect(page.locator("main")).not.toContainText(WRONG_PASSWORD);
  await expectAccessible(page, "the Studio's request log with a failed call open");
  // On a phone the table scrolls inside its region, never the page.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "the Studio's request log on a phone");
  await page.setViewportSize({ width: 1280, height: 720 });
  await screenshot(page, "studio-requests", page.getByRole("heading", { level: 1 }));

  // The query's own details: the request the SDK encoded in `.r`, decoded, and the platform's answer.
  await page.getByLabel("Path contains").fill(QUERY_PATH);
  await query.getByRole("button", { name: `Show details of GET ${QUERY_PATH}` }).click();
  const queryBody = page.locator(".request-details").first();
  await expect(queryBody).toContainText('"dataCollectionId": "NoSuchCollection"');
  await expect(queryBody).toContainText("The NoSuchCollection collection does not exist");
  checkPolicy();
});
