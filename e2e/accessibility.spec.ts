import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { accountMenuSummary, openMenu, sectionsMenuSummary } from "./header-menus";
import { MUTED_WORDS } from "../lib/reports/forms";
import { setMemberMuted } from "./platform";
import { logInWithForm, memberPages, notFoundPages, publicPages } from "./site-pages";
import { addPasskey, logInOnHostedPage, logInWithPassword, newEmail, registerAndLand, setUpApp, submitWithPassword, virtualAuthenticator } from "./two-step";

async function expectNoViolationsHere(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  expect(violations.map((violation) => `${what}: ${violation.id} (${violation.nodes.length}) ${violation.help}`)).toEqual([]);
  // No sideways scroll at any width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${what} scrolls sideways`).toBe(true);
}

async function expectNoViolations(page: Page, paths: string[]) {
  for (const path of paths) {
    await page.goto(path);
    await expectNoViolationsHere(page, path);
  }
}

for (const width of [390, 1280]) {
  test(`axe finds no violation on the public pages at ${width} px`, async ({ page }) => {
    // Twenty pages, each analysed in full: more than the default minute on a busy machine.
    test.slow();
    await page.setViewportSize({ width, height: 900 });
    await expectNoViolations(page, publicPages);
    // The journal after "Load more", with the added stories and the status line.
    await page.goto("/journal");
    await page.getByRole("link", { name: "Load more stories" }).click();
    await expect(page.getByRole("status")).toContainText("Showing 10 stories");
    await expectNoViolationsHere(page, "/journal after Load more");
    // A list with its filters open.
    await page.goto("/trails?difficulty=Easy");
    await expectNoViolationsHere(page, "/trails with a filter in use");
    // Every kind of 404 (e2e/no-javascript/not-found.spec.ts checks them without script).
    await expectNoViolations(page, notFoundPages);
  });

  test(`axe finds no violation on a member's pages at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await logInWithForm(page);
    await expect(page.getByTestId("site-notice")).toBeFocused();
    await expectNoViolationsHere(page, "the page after login, with its notice");
    await expectNoViolations(page, memberPages);
    await openMenu(accountMenuSummary(page));
    await expectNoViolationsHere(page, `${memberPages.at(-1)} with the account menu open`);
    // The sections menu is on narrow screens only.
    if (width === 390) {
      await openMenu(sectionsMenuSummary(page));
      await expectNoViolationsHere(page, `${memberPages.at(-1)} with the sections menu open`);
    }
    // The profile form with an address refused for want of its country: the list, its message, the focus on it.
    await page.goto("/account");
    await page.getByRole("button", { name: "Add an address" }).click();
    const address = page.getByRole("group", { name: /^Address \d+$/ }).last();
    await address.getByLabel("Town or city").fill("Keswick");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(address.getByLabel("Country", { exact: true })).toBeFocused();
    await expectNoViolationsHere(page, "/account with an address refused");
  });

  test(`axe finds no violation on a private profile as its owner sees it, and after a report's deletion, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/register?returnTo=%2Ftrails%2Fhidden-cove");
    await page.getByLabel("E-mail").fill(`axe-${width}-${Date.now()}@ridgeline.example`);
    await page.getByLabel("Password", { exact: true }).fill("quiet-larch-valley-3");
    await page.getByLabel("Nickname").fill("Larch");
    await page.getByLabel("Make my profile public").uncheck();
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByTestId("member-name")).toHaveText("Larch");
    const section = page.getByRole("region", { name: "Trail reports" });
    await section.getByLabel("Title").fill("Fog at the cove");
    await section.getByLabel("Your report").fill("Could not see the water until ten.");
    await section.getByRole("button", { name: "Publish report" }).click();
    await section
      .getByRole("article", { name: "Fog at the cove" })
      .locator("summary", { hasText: /^Delete/ })
      .click();
    await section.getByRole("button", { name: "Yes, delete it" }).click();
    await expect(section.getByRole("status")).toHaveText("Your report is deleted.");
    await expectNoViolationsHere(page, "a trail after a report's deletion");
    await (await openMenu(accountMenuSummary(page))).getByRole("link", { name: "View my profile" }).click();
    await expect(page.getByText("Your profile is private")).toBeVisible();
    await expectNoViolationsHere(page, "the owner's private profile");
  });

  test(`axe finds no violation on an outing's who is going and where to meet, and on a muted member's refusal, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const email = `axe-muted-${width}-${Date.now()}@ridgeline.example`;
    await page.goto("/register?returnTo=%2Foutings%2Ftide-pool-discovery");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("quiet-larch-valley-3");
    await page.getByLabel("Nickname").fill("Sorrel");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByTestId("member-name")).toHaveText("Sorrel");
    await expectNoViolationsHere(page, "an outing's page for a member, nobody going");
    await page.getByRole("button", { name: "Join this outing" }).click();
    await expect(page.getByRole("group", { name: "Who is going" }).getByRole("link", { name: "Sorrel" })).toBeVisible();
    await expectNoViolationsHere(page, "an outing's page with who is going and where to meet");
    await page.getByRole("button", { name: "Cancel my place" }).click();
    await expect(page.getByRole("button", { name: "Join this outing" })).toBeVisible();
    await page.goto("/outings/winter-solstice-lantern-walk");
    await expectNoViolationsHere(page, "an outing whose meeting place is not on the map");

    await setMemberMuted(email, true);
    try {
      await page.goto("/trails/hidden-cove");
      const section = page.getByRole("region", { name: "Trail reports" });
      await section.getByLabel("Title").fill("Muted words");
      await section.getByLabel("Your report").fill("Not to be published.");
      await section.getByRole("button", { name: "Publish report" }).click();
      await expect(section.getByText(MUTED_WORDS)).toBeVisible();
      await expectNoViolationsHere(page, "a muted member's refused report");
      await page.goto("/account");
      await expect(page.getByTestId("muted-notice")).toBeVisible();
      await expectNoViolationsHere(page, "a muted member's account page");
    } finally {
      await setMemberMuted(email, false);
    }
  });
}

test("axe finds no violation on two-step sign-in's forms: an app being set up, and its recovery codes, at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await registerAndLand(page, newEmail());
  await submitWithPassword(page, "Set up an authenticator app");
  await expect(page.getByRole("img", { name: "QR code for adding this site to an authenticator app" })).toBeVisible();
  await expectNoViolationsHere(page, "/account with an app being set up");
  await page.getByRole("button", { name: "Cancel setting up the app" }).click();
  await expect(page.getByText("Cancelled: nothing was turned on.")).toBeVisible();
  await setUpApp(page, undefined, (codesPage) => expectNoViolationsHere(codesPage, "/account/recovery-codes with the codes"));
  await expectNoViolationsHere(page, "/account with the app on");
  // A way unfolded and refused: the compact section's disclosure open, its error shown.
  await submitWithPassword(page, "Make new recovery codes", "not-the-password");
  await expect(page.getByText("That is not your password.")).toBeVisible();
  await expectNoViolationsHere(page, "/account with a two-step form unfolded and refused");
  await page.goto("/account/recovery-codes");
  await expectNoViolationsHere(page, "/account/recovery-codes with none to show");
});

test("axe finds no violation on passkeys: the account page's list with its recovery codes, and the login step they lead, at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  const email = newEmail();
  await registerAndLand(page, email);
  await virtualAuthenticator(page);
  await addPasskey(page, "Phone");
  await expectNoViolationsHere(page, "/account with a passkey added");
  await page.context().clearCookies();
  await logInWithPassword(page, email);
  await expect(page.getByRole("button", { name: "Use a passkey" })).toBeVisible();
  await expectNoViolationsHere(page, "/login/verify-code led by a passkey");
  // The other ways opened, and a wrong recovery code refused there.
  await page.getByText("Use another way").click();
  await page.getByLabel("Recovery code").fill("AAAAA-AAAAA");
  await page.getByRole("button", { name: "Use the recovery code" }).click();
  await expect(page.getByText("That recovery code is not right")).toBeVisible();
  await expectNoViolationsHere(page, "/login/verify-code with 'Use another way' open and a refused recovery code");
});

test("axe finds no violation on “Ask first for”, saved, and on the login step it leads with the app, at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  const email = newEmail();
  await registerAndLand(page, email);
  await submitWithPassword(page, "Turn on codes by e-mail");
  await setUpApp(page);
  await page.getByLabel("Ask first for").selectOption("TOTP");
  await page.getByRole("button", { name: "Save for this browser" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved for this browser." })).toBeVisible();
  await expectNoViolationsHere(page, "/account with “Ask first for” saved");
  await page.context().clearCookies({ name: "wms_session" });
  await logInWithPassword(page, email);
  await expect(page.getByLabel("Code from your app")).toBeVisible();
  await expectNoViolationsHere(page, "/login/verify-code led by the app's code");
  await page.getByText("Use another way", { exact: true }).click();
  await expect(page.getByLabel("Login code")).toBeVisible();
  await expectNoViolationsHere(page, "/login/verify-code led by the app, 'Use another way' open");
});

test("axe finds no violation on the login's second step after a new code was sent, on the site and the hosted page, at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  const email = newEmail();
  await registerAndLand(page, email);
  await submitWithPassword(page, "Turn on codes by e-mail");
  await page.context().clearCookies();
  await logInWithPassword(page, email);
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expect(page.getByRole("status").filter({ hasText: "We sent a new code" })).toBeVisible();
  await expectNoViolationsHere(page, "/login/verify-code after a new code");
  await page.context().clearCookies();
  await logInOnHostedPage(page, email);
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expect(page.getByRole("status")).toContainText("We sent a new code");
  await expectNoViolationsHere(page, "the hosted code page after a new code");
});

test("axe finds no violation on the hosted code page, folded and with “Use another way” open after a refused recovery code, at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  const email = newEmail();
  await registerAndLand(page, email);
  await submitWithPassword(page, "Turn on codes by e-mail");
  await setUpApp(page);
  await page.context().clearCookies();
  await logInOnHostedPage(page, email);
  await expect(page.getByText("Open your authenticator app")).toBeVisible();
  await expectNoViolationsHere(page, "the hosted code page");
  await page.getByText("Use another way", { exact: true }).click();
  await page.getByLabel("Recovery code").fill("not-a-code");
  await page.getByRole("button", { name: "Use the recovery code" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page.getByLabel("Recovery code")).toBeFocused();
  await expectNoViolationsHere(page, "the hosted code page with a refused recovery code");
});
