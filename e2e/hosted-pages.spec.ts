import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./test";
import type { Page, Response } from "@playwright/test";
import { e2e } from "../playwright.config";
import { LOCAL_CLIENT_ID } from "../platform/config";
import { demoMember, latestMail, setPlatformSettings } from "./platform";
import { screenshot } from "./screenshots";
import { STRONG_PASSWORD, newEmail } from "./site-pages";

/** The platform's hosted pages, on 127.0.0.1 or localhost (the address the site used). */
const platformPage = new RegExp(`^${e2e.platformUrl.replace("127.0.0.1", "(127\\.0\\.0\\.1|localhost)")}/hosted/`);

/** From a page of the site, the header's Log in, then on to the platform's hosted login page. */
async function startHostedLogin(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole("banner").getByRole("link", { name: "Log in", exact: true }).click();
  await page.getByRole("link", { name: "Continue with the hosted login page" }).click();
  await expect(page).toHaveURL(platformPage);
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
}

async function submitHostedLogin(page: Page, password: string) {
  await page.getByLabel("E-mail").fill(demoMember.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** Every document the browser loaded in the main frame, with the method that asked for it. */
function documentLoads(page: Page) {
  const loads: Array<{ method: string; status: number; url: string }> = [];
  page.on("response", (response: Response) => {
    if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) {
      loads.push({ method: response.request().method(), status: response.status(), url: response.url() });
    }
  });
  return loads;
}

async function expectNoAxeViolations(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  expect(violations.map((violation) => `${what}: ${violation.id} (${violation.nodes.length}) ${violation.help}`)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${what} scrolls sideways`).toBe(true);
}

test("a failed login, then a right one, then Back: every history entry is a GET page, never a form resubmission", async ({ page }) => {
  const loads = documentLoads(page);
  await startHostedLogin(page, "/trails/summit-loop");

  await submitHostedLogin(page, "not-the-password");
  await expect(page.getByRole("alert")).toHaveText("That e-mail address and password do not match. Check both, or reset the password.");
  // The typed e-mail comes back, the password never does, and the field to retype has the focus.
  await expect(page.getByLabel("E-mail")).toHaveValue(demoMember.email);
  await expect(page.getByLabel("Password")).toHaveValue("");
  await expect(page.getByLabel("Password")).toBeFocused();
  await expect(page).toHaveURL(platformPage);

  await submitHostedLogin(page, demoMember.password);
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails/summit-loop`);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);

  // Both POSTs were answered with a 303, so history holds only the GET pages they led to.
  const posts = loads.filter((load) => load.method === "POST");
  expect(posts.map((post) => post.status)).toEqual([303, 303]);

  // Back: the hosted pages' entries are GET pages (never a POST to send again), which the finished
  // login steps over, to the page the login started from, still logged in.
  await page.goBack();
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails/summit-loop`);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  expect(loads.filter((load) => load.method === "POST")).toHaveLength(2);
});

test("Back from the page a hosted login returned to reaches the page before the login, and Back again the one before that", async ({ page }) => {
  await page.goto("/trails");
  await startHostedLogin(page, "/trails/summit-loop");
  await submitHostedLogin(page, "not-the-password");
  await expect(page.getByRole("alert")).toBeVisible();
  await submitHostedLogin(page, demoMember.password);
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails/summit-loop`);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);

  // The site's login page and both hosted pages were steps on the way: Back passes them all.
  await page.goBack();
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails/summit-loop`);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  await screenshot(page, "back-after-hosted-login");
  await page.goBack();
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails`);
  await expect(page.getByRole("heading", { level: 1, name: "Trails" })).toBeVisible();
});

test("Back to the site from a hosted login started on a trail page returns to that trail page, quietly", async ({ page }) => {
  await startHostedLogin(page, "/trails/arch-spur");
  // A failed attempt first: the way back still leads to where the login started.
  await submitHostedLogin(page, "not-the-password");
  await expect(page.getByRole("alert")).toBeVisible();
  await page.getByRole("link", { name: "Back to Ridgeline Hiking Club" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails/arch-spur`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // Still a visitor, and no problem page or banner: going back is not an error.
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in", exact: true })).toBeVisible();
  await expect(page.getByTestId("site-notice")).toHaveCount(0);
});

for (const width of [390, 1280]) {
  test(`the hosted pages have no axe violation at ${width} px and look like the site`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await startHostedLogin(page, "/trails");
    // The site's type: the heading in its serif stack, the page in its sans-serif one.
    expect(await page.getByRole("heading", { name: "Log in" }).evaluate((element) => getComputedStyle(element).fontFamily)).toMatch(/^ui-serif, Georgia/);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^ui-sans-serif, system-ui/);
    await expectNoAxeViolations(page, "hosted login");
    await screenshot(page, "hosted-login");

    await submitHostedLogin(page, "not-the-password");
    await expect(page.getByRole("alert")).toBeVisible();
    await expectNoAxeViolations(page, "hosted login with an error");
    await screenshot(page, "hosted-login-error");

    await page.getByRole("link", { name: "Create an account" }).click();
    await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
    await expectNoAxeViolations(page, "hosted sign-up");
    await screenshot(page, "hosted-signup");

    // The signed-out page shows when the return address is not the site's.
    const created = await fetch(`${e2e.platformUrl}/_api/redirects-api/v1/redirect-session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ logout: { clientId: LOCAL_CLIENT_ID }, callbacks: { postFlowUrl: "https://elsewhere.example/" } }),
    });
    const { redirectSession } = (await created.json()) as { redirectSession: { fullUrl: string } };
    await page.goto(redirectSession.fullUrl);
    await expect(page.getByRole("heading", { name: "You are logged out" })).toBeVisible();
    await expectNoAxeViolations(page, "hosted logout");
    await screenshot(page, "hosted-logout");
  });
}

// The hosted pages carry no script, but the way to them and back (the site's links, its callback) must work without it too.
for (const javaScriptEnabled of [true, false]) {
  test(`with e-mail verification required, a hosted sign-up asks for the mailed code first (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
  }) => {
    await setPlatformSettings({ requireEmailVerification: true });
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    try {
      const email = newEmail("hosted-verify");
      await startHostedLogin(page, "/trails");
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password").fill(STRONG_PASSWORD);
      await page.getByLabel("Nickname").fill("Sky Walker");
      await page.getByRole("button", { name: "Create account" }).click();

      await expect(page.getByRole("heading", { name: "Confirm your e-mail" })).toBeVisible();
      await expect(page).toHaveURL(platformPage);
      await expect(page.getByText(`We sent a code to ${email}.`)).toBeVisible();
      const first = await latestMail(email, "verification");
      await page.getByLabel("Code from the e-mail").fill(first.code === "000000" ? "111111" : "000000");
      await page.getByRole("button", { name: "Confirm" }).click();
      await expect(page.getByRole("alert")).toHaveText("That code is not right, or it has expired. Check the latest e-mail and try again.");
      await expect(page.getByLabel("Code from the e-mail")).toBeFocused();
      // axe runs as a script in the page, so only where scripts run.
      if (javaScriptEnabled) await expectNoAxeViolations(page, "hosted code step with an error");

      await page.getByRole("button", { name: "Resend code" }).click();
      await expect(page.getByRole("status")).toHaveText(`We sent a new code to ${email}. It replaces the previous one and works for 15 minutes.`);
      if (javaScriptEnabled) await screenshot(page, "hosted-verify");
      const second = await latestMail(email, "verification");
      expect(second.id).not.toBe(first.id);
      await page.getByLabel("Code from the e-mail").fill(second.code!);
      await page.getByRole("button", { name: "Confirm" }).click();

      await expect(page).toHaveURL(`${e2e.siteUrl}/trails`);
      await expect(page.getByTestId("member-name")).toHaveText("Sky Walker");
    } finally {
      await context.close();
      await setPlatformSettings({ requireEmailVerification: false });
    }
  });
}
