import { expect, test } from "./test";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { PREWARM_STORAGE_KEY } from "../lib/auth/prewarm-schedule";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { blockMember, demoMember, plainSignUpInEachTest, revalidateSite, setPlatformSettings } from "./platform";
import { screenshot } from "./screenshots";
import { accountMenuSummary, openMenu } from "./header-menus";
import { STRONG_PASSWORD, newEmail, prewarmDone, submitLogin } from "./site-pages";
import { expectAccessible, openStudio } from "./studio";

// Who the directory shows, what a sign-up makes public, the mail an approval sends, a session
// ended elsewhere, and leaving with one's reports (issue 28).

plainSignUpInEachTest();

async function fillSignUp(page: Page, email: string, nickname?: string) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(STRONG_PASSWORD);
  if (nickname) await page.getByLabel("Nickname").fill(nickname);
}

/** The site owner's "Sign out everywhere" for one member, in the Studio: the platform ends their sessions, and sends no event. */
async function signOutEverywhereInStudio(context: BrowserContext, email: string, name: string) {
  const studio = await context.newPage();
  await openStudio(studio, `/members?search=${encodeURIComponent(email)}`, "Members");
  await studio.getByRole("row").filter({ hasText: email }).getByRole("link", { name }).click();
  await studio.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(studio.getByText("0 live login sessions.")).toBeVisible();
  await studio.close();
}

/** A new member who writes a report on a trail: its title. */
async function signUpAndReport(page: Page, nickname: string): Promise<string> {
  await page.goto(`${SITE_PAGES.register}?returnTo=%2Ftrails%2Fcedar-creek`);
  await fillSignUp(page, newEmail("reporter"), nickname);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails/cedar-creek`);
  const title = `${nickname}'s note ${Date.now().toString(36)}`;
  const section = page.getByRole("region", { name: "Trail reports" });
  await section.getByLabel("Title").fill(title);
  await section.getByLabel("Your report").fill("Dry boots all day.");
  await section.getByRole("button", { name: "Publish report" }).click();
  await expect(section.getByRole("status")).toHaveText("Thank you: your report is published.");
  return title;
}

/** The members list and a profile address as someone who is not signed in sees them. */
async function directoryForVisitor(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

test("a sign-up waiting for approval is not listed and has no profile; approved in the Studio, it is mailed and listed", async ({ page, context, browser }) => {
  await setPlatformSettings({ requireOwnerApproval: true });
  const email = newEmail("waiting");
  const nickname = `Heath Waiting ${Date.now().toString(36)}`;
  await page.goto(SITE_PAGES.register);
  await fillSignUp(page, email, nickname);
  await page.getByRole("button", { name: "Create account" }).click();

  // The message, focused, and a way on in place of the form: nothing invites a second sign-up.
  const status = page.getByRole("status").filter({ hasText: "waiting for a club organiser to approve it" });
  await expect(status).toContainText("We will e-mail you when you can log in.");
  await expect(page.locator(":focus")).toContainText("waiting for a club organiser");
  await expect(page.getByRole("button", { name: "Create account" })).toHaveCount(0);
  await expect(page.getByLabel("E-mail")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/");
  await expectAccessible(page, "the sign-up waiting for approval");
  await screenshot(page, "register-awaiting-approval");

  // Not on the directory, and its address is "not found", for anyone.
  const visitor = await directoryForVisitor(browser);
  // Searched by name: the directory pages its members, and other tests add many.
  await visitor.page.goto(`/members?q=${encodeURIComponent(nickname)}`);
  await expect(visitor.page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
  await expect(visitor.page.getByRole("link", { name: new RegExp(nickname) })).toHaveCount(0);
  await visitor.page.goto("/members?q=Dana");
  await expect(visitor.page.getByRole("link", { name: /Dana/ })).toBeVisible();
  await screenshot(visitor.page, "members-directory-without-pending");
  const slug = nickname.toLowerCase().replaceAll(" ", "-");
  expect((await visitor.page.goto(`/members/${slug}`))?.status()).toBe(404);

  // The owner sees them in the Studio and approves them: the promised mail is in the mailbox.
  const studio = await context.newPage();
  await openStudio(studio, `/members?search=${encodeURIComponent(email)}`, "Members");
  const row = studio.getByRole("row").filter({ hasText: email });
  await expect(row.getByText("Pending")).toBeVisible();
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(studio.getByRole("status").filter({ hasText: "approved." })).toBeVisible();
  await openStudio(studio, `/mailbox?to=${encodeURIComponent(email)}`, "Mailbox");
  const mail = studio.getByRole("listitem").filter({ hasText: `You can now log in to Ridgeline Hiking Club` });
  await expect(mail).toContainText(`A club organiser has approved your account, so you can log in now: ${e2e.siteUrl}/login`);

  // Now they can log in, so the directory lists them (the platform told the site the members changed).
  await expect(async () => {
    await visitor.page.goto(`/members?q=${encodeURIComponent(nickname)}`);
    await expect(visitor.page.getByRole("link", { name: new RegExp(nickname) })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  expect((await visitor.page.goto(`/members/${slug}`))?.status()).toBe(200);
  await visitor.close();
});

test("a registration that never confirmed its e-mail is not listed", async ({ page, browser }) => {
  await setPlatformSettings({ requireEmailVerification: true });
  const nickname = `Unconfirmed ${Date.now().toString(36)}`;
  await page.goto(SITE_PAGES.register);
  await fillSignUp(page, newEmail("unconfirmed"), nickname);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.verify}`);
  // Whatever the site had cached, it reads the directory again.
  await revalidateSite({ collections: [], members: true });
  const visitor = await directoryForVisitor(browser);
  await visitor.page.goto("/members?q=Dana");
  await expect(visitor.page.getByRole("link", { name: /Dana/ })).toBeVisible();
  await visitor.page.goto(`/members?q=${encodeURIComponent(nickname)}`);
  await expect(visitor.page.getByRole("link", { name: new RegExp(nickname) })).toHaveCount(0);
  await visitor.close();
});

test("a sign-up without a nickname shows a neutral name, never a part of the e-mail address, and the form says what is public", async ({ page, browser }) => {
  const local = `hidden.person.${Date.now()}`;
  await page.goto(SITE_PAGES.register);
  await expect(page.getByText("Left empty, we show your first and last name, or “Member” if you give neither.")).toBeVisible();
  await expect(page.getByText("Your e-mail address is never shown to anyone.")).toBeVisible();
  await expectAccessible(page, "the sign-up form");
  // From the names down: what shows, and the public choice with what it shows.
  await screenshot(page, "register-what-is-public", page.getByLabel("First name"));
  await fillSignUp(page, `${local}@ridgeline.example`);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("member-name")).toHaveText("Member");

  const visitor = await directoryForVisitor(browser);
  await expect(async () => {
    await visitor.page.goto("/members");
    // The neutral name, with the day the member joined (e2e/directory.spec.ts).
    await expect(visitor.page.getByRole("link", { name: /^Member Joined / }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(visitor.page.getByRole("main")).not.toContainText(local);
  await screenshot(visitor.page, "members-directory-neutral-name");
  await visitor.close();
});

test("registering with an address that has an account mails its owner what to do, and the Studio's mailbox shows it", async ({ page, context }) => {
  await page.goto(SITE_PAGES.register);
  await fillSignUp(page, demoMember.email, "Someone Else");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.verify}`);

  const studio = await context.newPage();
  await openStudio(studio, `/mailbox?to=${encodeURIComponent(demoMember.email)}`, "Mailbox");
  const notice = studio.getByRole("listitem").filter({ hasText: "Someone tried to create a Ridgeline Hiking Club account with your address" }).first();
  await expect(notice).toContainText(`log in with your password at ${e2e.siteUrl}/login`);
  await expect(notice).toContainText(`${e2e.siteUrl}/forgot-password`);
  await expectAccessible(studio, "the Studio's mailbox with message texts");
});

test("after Sign out everywhere, /login asks the platform: the session ends here too, with the notice, and the member logs in again", async ({
  page,
  context,
}) => {
  const email = newEmail("elsewhere");
  await page.goto(SITE_PAGES.register);
  await fillSignUp(page, email, "Wren Elsewhere");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("member-name")).toHaveText("Wren Elsewhere");
  // /login is to find the session ended, not the browser's pre-warm.
  await prewarmDone(page);

  await signOutEverywhereInStudio(context, email, "Wren Elsewhere");

  // /login no longer bounces to the home page: the site learns the session is over and ends it.
  await page.goto(SITE_PAGES.login);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.login}`);
  await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
  await expect(page.getByTestId("site-notice")).toContainText("Your session has ended");
  await expect(page.getByTestId("member-name")).toHaveCount(0);
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in", exact: true })).toBeVisible();
  await expectAccessible(page, "/login after a session ended elsewhere");
  await screenshot(page, "login-after-signed-out-elsewhere");

  // The header of every page says so from here on, and logging in again works.
  await page.goto("/trails");
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in", exact: true })).toBeVisible();
  await page.goto(SITE_PAGES.login);
  await submitLogin(page, email, STRONG_PASSWORD);
  await expect(page.getByTestId("member-name")).toHaveText("Wren Elsewhere");
  // A member whose session stands is still sent on from /login.
  await page.goto(`${SITE_PAGES.login}?returnTo=%2Ftrails`);
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails`);
});

test("after Sign out everywhere, a public page's header stops naming the member once the site learns of it (the pre-warm's refused token)", async ({
  page,
  context,
}) => {
  const email = newEmail("elsewhere-header");
  await page.goto(SITE_PAGES.register);
  await fillSignUp(page, email, "Tern Elsewhere");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("member-name")).toHaveText("Tern Elsewhere");
  // The browser pre-warmed the platform's pages after the login; it will again once due.
  await prewarmDone(page);

  await signOutEverywhereInStudio(context, email, "Tern Elsewhere");

  await page.evaluate((key) => localStorage.removeItem(key), PREWARM_STORAGE_KEY);
  await page.goto("/trails");
  // The pre-warm's token is refused, the platform refuses the renewal too: the site ends the
  // session and the page shows a visitor's header without a reload.
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in", exact: true })).toBeVisible();
  await expect(page.getByTestId("member-name")).toHaveCount(0);
  // The ended session's notice is shown once, by whichever render comes first (the pre-warm's
  // refresh may render twice), so it is checked where one render is sure: /login, above.
});

test("after Sign out everywhere, Account in the menu the page still shows leads to the login page that says the session ended", async ({ page, context }) => {
  const email = newEmail("elsewhere-account");
  await page.goto(SITE_PAGES.register);
  await fillSignUp(page, email, "Ivy Elsewhere");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("member-name")).toHaveText("Ivy Elsewhere");
  await prewarmDone(page);
  await page.goto("/trails");

  await signOutEverywhereInStudio(context, email, "Ivy Elsewhere");
  const menu = await openMenu(accountMenuSummary(page));
  await menu.getByRole("link", { name: "Account", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.login}?returnTo=%2Faccount`);
  await expect(page.getByTestId("site-notice")).toContainText("Your session has ended");
  await expect(page.getByTestId("member-name")).toHaveCount(0);
  await screenshot(page, "account-after-signed-out-everywhere");
});

test("after Sign out everywhere, with no event from the platform, public pages stop naming the member within the 30 s check interval", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const email = newEmail("elsewhere-bound");
  await page.goto(SITE_PAGES.register);
  await fillSignUp(page, email, "Jay Elsewhere");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("member-name")).toHaveText("Jay Elsewhere");
  await prewarmDone(page);

  await signOutEverywhereInStudio(context, email, "Jay Elsewhere");
  const ended = Date.now();
  // Reloads and client-side navigations alike, served from the members' template or by Next.js.
  let views = 0;
  await expect
    .poll(
      async () => {
        if (views++ % 2) await page.goto("/journal");
        // The site's name in the header: a client-side navigation home.
        else await page.getByRole("banner").getByRole("link").first().click();
        return page.getByTestId("member-name").count();
      },
      { timeout: 40_000, intervals: [1_000] },
    )
    .toBe(0);
  const seconds = (Date.now() - ended) / 1000;
  test.info().annotations.push({ type: "name shown after Sign out everywhere", description: `${seconds.toFixed(1)} s` });
  // The interval (SESSION_CHECK_INTERVAL) from the last confirmation, which came before the Studio's action, plus one view.
  expect(seconds).toBeLessThan(33);
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in", exact: true })).toBeVisible();
});

test("a member the site owner blocks sees a visitor's page once the platform's event reaches the site, with the notice, and cannot log in again", async ({
  page,
}) => {
  const email = newEmail("blocked-while-in");
  await page.goto(SITE_PAGES.register);
  await fillSignUp(page, email, "Moss Blocked");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("member-name")).toHaveText("Moss Blocked");
  // The next page view is to find the block, not the browser's pre-warm or a renewal (the tokens are seconds old).
  await prewarmDone(page);

  await blockMember(email);
  // The platform's member event reaches the site a moment after the block (its webhooks go out in batches of 50 ms): the
  // first page view after that asks the platform, which refuses the session.
  await expect
    .poll(
      async () => {
        await page.goto("/trails");
        return page.getByTestId("member-name").count();
      },
      { timeout: 5_000, intervals: [100] },
    )
    .toBe(0);
  await expect(page.getByTestId("site-notice")).toContainText("Your session has ended");
  await expect(page.getByTestId("member-name")).toHaveCount(0);
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in", exact: true })).toBeVisible();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?returnTo=%2Faccount$/);
  await submitLogin(page, email, STRONG_PASSWORD);
  await expect(page.getByRole("alert").filter({ hasText: "blocked" })).toBeVisible();
});

test("deleting the account says the reports stay, and removes them when asked", async ({ page, browser }) => {
  const title = await signUpAndReport(page, "Alder Leaving");

  await page.goto("/account");
  await page.locator("summary", { hasText: "Delete my account…" }).click();
  const panel = page.getByRole("region", { name: "Delete account" });
  await expect(panel).toContainText("Your trail reports stay published, signed “by a member”, unless you choose to remove them too.");
  await expect(page.getByLabel("Also remove my trail reports.")).toBeFocused();
  await expect(page.getByLabel("Also remove my trail reports.")).not.toBeChecked();
  await expectAccessible(page, "/account with the deletion open");
  await screenshot(page, "delete-account-with-reports", panel);
  await page.getByLabel("Also remove my trail reports.").check();
  await page.getByLabel("I understand that this cannot be undone.").check();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page.getByTestId("site-notice")).toContainText("Your account has been deleted");

  const visitor = await directoryForVisitor(browser);
  await visitor.page.goto("/trails/cedar-creek");
  await expect(visitor.page.getByRole("region", { name: "Trail reports" })).toBeVisible();
  await expect(visitor.page.getByRole("article", { name: title })).toHaveCount(0);
  await visitor.close();
});

test("without ticking the box, the reports stay, signed by a member", async ({ page, browser }) => {
  const title = await signUpAndReport(page, "Birch Staying");

  await page.goto("/account");
  await page.locator("summary", { hasText: "Delete my account…" }).click();
  await page.getByLabel("I understand that this cannot be undone.").check();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page.getByTestId("site-notice")).toContainText("Your account has been deleted");

  const visitor = await directoryForVisitor(browser);
  await visitor.page.goto("/trails/cedar-creek");
  await expect(visitor.page.getByRole("article", { name: title })).toContainText("by a member");
  await visitor.close();
});
