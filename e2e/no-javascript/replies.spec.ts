import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "../test";
import { e2e } from "../../playwright.config";
import { screenshot } from "../screenshots";
import { newEmail, password, registerAndLand, setUpApp, submitWithPassword } from "../two-step";

// Without JavaScript a form's answer is a whole new page: it must open where the answer is, not
// at the top several screens away (components/forms/form-reply.ts), and recovery codes, shown
// once, have a page of their own.

/**
 * axe on the page as this browser without script shows it: axe needs script, so its HTML (scripts taken out, so nothing
 * hydrates) is served at the same address to a page that runs it, with the site's styles.
 */
async function expectNoViolationsWithoutScript(page: Page, browser: Browser, what: string) {
  const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
  const context = await browser.newContext({ javaScriptEnabled: true });
  const copy = await context.newPage();
  await copy.route(page.url().split("#")[0], (route) => route.fulfill({ body: html, contentType: "text/html" }));
  await copy.goto(page.url());
  const { violations } = await new AxeBuilder({ page: copy }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  await context.close();
  expect(violations.map((violation) => `${what}: ${violation.id} (${violation.nodes.length}) ${violation.help}`)).toEqual([]);
}

test("a form low on /account comes back scrolled to its answer, at the answer's fragment", async ({ page, browser }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await registerAndLand(page, newEmail());
  const passwordSection = page.getByRole("region", { name: "Password" });
  await passwordSection.getByLabel("Current password").fill("not-the-password");
  await passwordSection.getByLabel("New password", { exact: true }).fill("another-granite-path-9");
  await passwordSection.getByLabel("New password again").fill("another-granite-path-9");
  await passwordSection.getByRole("button", { name: "Change password" }).click();
  // A refusal: the page opens at the form, its error in sight.
  await expect(page).toHaveURL(`${e2e.siteUrl}/account#password-reply`);
  await expect(passwordSection.getByText("That is not your current password.")).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);

  // Two-step sign-in, further down: the confirmation above its ways is in sight.
  await submitWithPassword(page, "Turn on codes by e-mail");
  await expect(page).toHaveURL(`${e2e.siteUrl}/account#two-step-reply`);
  const confirmation = page.locator("#two-step-reply");
  await expect(confirmation).toHaveText("Two-step sign-in is on for codes by e-mail. Your logins ask first for a code we e-mail you.");
  await expect(confirmation).toBeInViewport();
  await screenshot(page, "account-reply-in-view-no-script", confirmation);
  await expectNoViolationsWithoutScript(page, browser, "/account at two-step sign-in's answer");

  // The password form again, right this time: its confirmation is in sight.
  await passwordSection.getByLabel("Current password").fill(password);
  await passwordSection.getByLabel("New password", { exact: true }).fill("another-granite-path-9");
  await passwordSection.getByLabel("New password again").fill("another-granite-path-9");
  await passwordSection.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account#password-reply`);
  await expect(passwordSection.getByRole("status")).toHaveText("Your password is changed. Use the new one next time you log in.");
  await expect(passwordSection.getByRole("status")).toBeInViewport();
});

test("a refused account deletion comes back at its form; done, the home page opens at its top with the notice", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await registerAndLand(page, newEmail());
  await page.locator("summary", { hasText: "Delete my account…" }).click();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account#delete-account-reply`);
  const confirm = page.getByLabel("I understand that this cannot be undone.");
  await expect(confirm).toHaveAttribute("aria-invalid", "true");
  await expect(confirm).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);

  await confirm.check();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  // Its own fragment, the top of the page: not the form's, which the browser would carry over to the home page.
  await expect(page).toHaveURL(`${e2e.siteUrl}/#top`);
  await expect(page.getByTestId("site-notice")).toContainText("Your account has been deleted");
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test("recovery codes open on a page of their own that says they are shown once, and download as a file without script", async ({ page, browser }) => {
  await registerAndLand(page, newEmail());
  const { codes } = await setUpApp(page, password, async (codesPage) => {
    await expect(codesPage.getByText("only on this page, and only now")).toBeVisible();
    await expectNoViolationsWithoutScript(codesPage, browser, "/account/recovery-codes");
    // Copy and print need script: not offered without it; the download is a form.
    await expect(codesPage.getByRole("button", { name: "Copy the codes" })).toHaveCount(0);
    const [download] = await Promise.all([codesPage.waitForEvent("download"), codesPage.getByRole("button", { name: "Download as a text file" }).click()]);
    expect(download.suggestedFilename()).toBe("recovery-codes.txt");
    // Posted: the address names no code.
    expect(download.url()).toBe(`${e2e.siteUrl}/account/recovery-codes/download`);
    const text = await readFile(await download.path(), "utf8");
    for (const code of await codesPage.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allInnerTexts()) expect(text).toContain(code);
  });
  expect(codes).toHaveLength(10);
  // Saved, they are gone from their page, and the download gives nothing.
  await page.goto("/account/recovery-codes");
  await expect(page.getByText("There are no new recovery codes to show")).toBeVisible();
  const answer = await page.request.post("/account/recovery-codes/download", { headers: { origin: e2e.siteUrl }, maxRedirects: 0 });
  expect(answer.status()).toBe(303);
});
