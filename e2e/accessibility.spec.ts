import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { demoMember } from "./platform";

/**
 * Home, every list, items that between them show every field type the demo content has
 * (gallery, video, objects and arrays on trails; an address on regions; a time on outings;
 * rich content, a document, audio and multi-references on the journal), and the sign-in pages.
 */
const publicPages = [
  "/",
  "/trails",
  "/regions",
  "/outings",
  "/journal",
  "/trails/summit-loop",
  "/trails/arch-spur",
  "/regions/north-ridge",
  "/regions/high-desert",
  "/outings/family-creek-walk",
  "/journal/ten-essentials-revisited",
  "/journal/why-we-start-early",
  "/journal/leave-no-trace-in-the-desert",
  "/member-outings",
  "/members/rowan",
  "/login",
  "/register",
  "/forgot-password",
];
/** What a signed-in member sees: the account, the report forms on a trail, members' outings. */
const memberPages = ["/account", "/trails/mirror-lakes", "/member-outings", "/member-outings/sunrise-on-the-summit"];

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
  });

  test(`axe finds no violation on a member's pages at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(demoMember.email);
    await page.getByLabel("Password", { exact: true }).fill(demoMember.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
    await expectNoViolations(page, memberPages);
  });
}
