import { expect, test } from "./test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { demoMember, latestMail, secondDemoMember } from "./platform";
import { newEmail } from "./site-pages";
import { expectAccessible, noPolicyRefusals, openStudio, studioUrl } from "./studio";

test("a reset e-mail asked for on the site shows in the Studio's mailbox, filtered by address, with its link", async ({ page, context }) => {
  const checkPolicy = await noPolicyRefusals(page);
  await page.goto(`${e2e.siteUrl}${SITE_PAGES.forgotPassword}`);
  await page.getByLabel("E-mail").fill(demoMember.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  const sentLink = () =>
    latestMail(demoMember.email, "password-reset").then(
      (mail) => mail.link,
      () => undefined,
    );
  await expect.poll(sentLink).toBeTruthy();
  const link = (await sentLink())!;

  await openStudio(page, "/mailbox", "Mailbox");
  await expect(page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Mailbox" })).toHaveAttribute("aria-current", "page");
  // Keyboard: the skip link first, then into the filter.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.getByLabel("To").fill(demoMember.email);
  await expect(page).toHaveURL(studioUrl(`/mailbox?to=${encodeURIComponent(demoMember.email)}`));
  const message = page
    .getByRole("listitem")
    .filter({ hasText: `To ${demoMember.email}` })
    .first();
  await expect(message.getByRole("link", { name: "Open the link in this message" })).toHaveAttribute("href", link);

  await page.getByLabel("To").fill("nobody@example.com");
  await expect(page.getByText("No messages to nobody@example.com yet.")).toBeVisible();
  await expectAccessible(page, "the Studio's mailbox");

  // The mailbox's old address still leads here.
  const old = await context.newPage();
  await old.goto(`${e2e.platformUrl}/_local/mailbox`);
  await expect(old).toHaveURL(studioUrl("/mailbox"));
  checkPolicy();
});

test("the mailbox's To field is wide enough for the addresses it holds, on a phone and a laptop", async ({ page }) => {
  // The demo's longest address everywhere; on a laptop also one as long as a test sign-up's (46 characters).
  expect(secondDemoMember.email.length).toBeGreaterThanOrEqual(demoMember.email.length);
  for (const [width, addresses] of [
    [390, [secondDemoMember.email]],
    [1280, [secondDemoMember.email, newEmail("reporter")]],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await openStudio(page, "/mailbox", "Mailbox");
    for (const address of addresses) {
      await page.getByLabel("To").fill(address);
      const fits = await page.getByLabel("To").evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth);
      expect(fits, `${address} at ${width} px`).toBe(true);
    }
  }
});
