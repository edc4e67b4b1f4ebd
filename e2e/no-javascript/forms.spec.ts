import { expect, test } from "../test";
import type { Page } from "@playwright/test";
import { SITE_PAGES } from "../../lib/auth/routes";
import { e2e } from "../../playwright.config";
import { logOut } from "../header-menus";
import { adminItems, demoMember, latestMail, revalidateSite, setPlatformSettings } from "../platform";
import { STRONG_PASSWORD, newEmail, resetPasswordByMail, type Member } from "../site-pages";
import { submitWithPassword } from "../two-step";

// Every form of the site with JavaScript off, as before hydration: each posts natively to its
// server action, and the server answers with the same field errors, confirmations and redirects
// as it gives a script. (This project's pages run no script; Playwright still drives them.)

const REPORT_PREFIX = "Without script";

test.afterAll(async () => {
  await setPlatformSettings({ requireEmailVerification: false });
  const left = await adminItems().query("TrailReports").startsWith("title", REPORT_PREFIX).find();
  for (const item of left.items) await adminItems().remove("TrailReports", item._id!);
  if (left.items.length) await revalidateSite({ collections: ["TrailReports"] });
});

const section = (page: Page, name: string) => page.getByRole("region", { name });

async function logIn(page: Page, member: Member, returnTo = "/account") {
  await page.goto(`${SITE_PAGES.login}?returnTo=${encodeURIComponent(returnTo)}`);
  await page.getByLabel("E-mail").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(member.password);
  await page.getByRole("button", { name: "Log in" }).click();
}

async function register(page: Page, email: string, password = STRONG_PASSWORD) {
  await page.goto(`${SITE_PAGES.register}?returnTo=%2Faccount`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Nickname").fill("Quiet Walker");
  await page.getByRole("button", { name: "Create account" }).click();
}

test("log in: a refusal is shown at the form, the right password signs in and returns", async ({ page }) => {
  await logIn(page, { ...demoMember, password: "not-the-password" }, "/member-outings");
  await expect(page.getByText("That e-mail address and password do not match")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue(demoMember.email);
  await page.getByLabel("Password", { exact: true }).fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/member-outings`);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  await logOut(page);
});

test("register: field errors come back from the server; then the account is made and signed in", async ({ page }) => {
  await page.goto(SITE_PAGES.register);
  await page.getByLabel("E-mail").fill("not-an-address");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("E-mail")).toHaveValue("not-an-address");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await register(page, newEmail("nojs-register"));
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(page.getByRole("status").first()).toHaveText("Welcome to the club: your account is ready and you are logged in.");
});

test("verify the e-mail address with a mailed code, after asking for a new one", async ({ page }) => {
  await setPlatformSettings({ requireEmailVerification: true });
  const email = newEmail("nojs-verify");
  await register(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.verify}`);
  const first = await latestMail(email, "verification");
  await page.getByRole("button", { name: "Resend code" }).click();
  await expect.poll(async () => (await latestMail(email, "verification")).id).not.toBe(first.id);
  const mail = await latestMail(email, "verification");
  await page.getByLabel("Code from the e-mail").fill(mail.code!);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(page.getByTestId("member-name")).toHaveText("Quiet Walker");
  await setPlatformSettings({ requireEmailVerification: false });
});

test("forgot password: the form sends a reset mail, and the new password signs in", async ({ page }) => {
  const email = newEmail("nojs-forgot");
  await register(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await logOut(page);
  await page.goto(SITE_PAGES.forgotPassword);
  // The reset itself is the platform's hosted page, a plain form too.
  await resetPasswordByMail(page, email, "a-fresh-ridge-path-77");
  await logIn(page, { email, password: "a-fresh-ridge-path-77", name: "Quiet Walker" });
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});

test("the account's forms: profile, profile address, password, two-step sign-in on and off, and the code step at login", async ({ page }) => {
  const email = newEmail("nojs-account");
  await register(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);

  const profile = section(page, "Profile");
  await profile.getByLabel("Title").fill("Walks without script");
  await profile.getByRole("button", { name: /Save/ }).click();
  await expect(section(page, "Profile").getByRole("status")).toBeVisible();
  await expect(section(page, "Profile").getByLabel("Title")).toHaveValue("Walks without script");

  const slug = `quiet-${Date.now()}`;
  await section(page, "Profile address").getByLabel("Profile address").fill("Not A Slug!");
  await section(page, "Profile address").getByRole("button", { name: "Change address" }).click();
  await expect(section(page, "Profile address").getByLabel("Profile address")).toHaveAttribute("aria-invalid", "true");
  await section(page, "Profile address").getByLabel("Profile address").fill(slug);
  await section(page, "Profile address").getByRole("button", { name: "Change address" }).click();
  await expect(section(page, "Profile address").getByRole("link", { name: `/members/${slug}` })).toBeVisible();

  const password = section(page, "Password");
  await password.getByLabel("Current password").fill(STRONG_PASSWORD);
  await password.getByLabel("New password", { exact: true }).fill("another-granite-path-9");
  await password.getByLabel("New password again").fill("another-granite-path-9");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(section(page, "Password").getByRole("status")).toBeVisible();

  // A password set in this session proves nothing here (docs/security.md): a new login with it does.
  await submitWithPassword(page, "Turn on codes by e-mail", "another-granite-path-9");
  await expect(section(page, "Two-step sign-in")).toContainText("You changed your password since you logged in.");
  await logOut(page);
  await logIn(page, { email, password: "another-granite-path-9", name: "Quiet Walker" });
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await submitWithPassword(page, "Turn on codes by e-mail", "another-granite-path-9");
  await expect(section(page, "Two-step sign-in")).toContainText(`Codes by e-mail to ${email}`);
  await logOut(page);

  await logIn(page, { email, password: "another-granite-path-9", name: "Quiet Walker" });
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  const first = await latestMail(email, "login-code");
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expect.poll(async () => (await latestMail(email, "login-code")).id).not.toBe(first.id);
  await page.getByLabel("Login code").fill(first.code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByLabel("Login code")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);

  await submitWithPassword(page, "Turn off e-mail codes", "another-granite-path-9");
  await expect(section(page, "Two-step sign-in")).toContainText("Two-step sign-in is off");

  // Deleting the account: the confirmation opens, a missing tick is refused, then it goes.
  await page.locator("summary", { hasText: "Delete my account…" }).click();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page.getByLabel("I understand that this cannot be undone.")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("I understand that this cannot be undone.").check();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/#top`);
  await expect(page.getByRole("status").first()).toContainText("Your account has been deleted");
});

test("trail reports are in the page; a member writes, edits and deletes one", async ({ page }) => {
  await page.goto("/trails/summit-loop");
  await expect(page.getByRole("region", { name: "Trail reports" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Log in to write a report" })).toBeVisible();

  await logIn(page, demoMember, "/trails/summit-loop");
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails/summit-loop`);
  const reports = page.getByRole("region", { name: "Trail reports" });
  const title = `${REPORT_PREFIX} ${Date.now()}`;
  await reports.getByLabel("Title").fill(title);
  await reports.getByLabel("Your report").fill("Dry all the way up; the last stretch is loose.");
  await reports.getByRole("button", { name: "Publish report" }).click();
  await expect(page.getByRole("region", { name: "Trail reports" }).getByRole("status").first()).toHaveText("Thank you: your report is published.");
  const mine = page.getByRole("article", { name: title });
  await expect(mine).toBeVisible();

  await mine.locator("summary", { hasText: /^Edit/ }).click();
  await mine.getByLabel("Title").fill("");
  await mine.getByRole("button", { name: "Save changes" }).click();
  // Refused: the editor is open again with the error at the field.
  await expect(page.getByRole("article", { name: title }).getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
  await page.getByRole("article", { name: title }).getByLabel("Title").fill(`${title} (edited)`);
  await page.getByRole("article", { name: title }).getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("region", { name: "Trail reports" }).getByRole("status").first()).toHaveText("Your report is updated.");
  const edited = page.getByRole("article", { name: `${title} (edited)` });
  await expect(edited).toBeVisible();

  await edited.locator("summary", { hasText: /^Delete/ }).click();
  await edited.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(page.getByRole("region", { name: "Trail reports" }).getByRole("status").first()).toHaveText("Your report is deleted.");
  await expect(page.getByRole("article", { name: `${title} (edited)` })).toHaveCount(0);
});

test("deleting the account with its trail reports: the option posts with the form", async ({ page }) => {
  await register(page, newEmail("nojs-leaving"));
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await page.goto("/trails/summit-loop");
  const title = `${REPORT_PREFIX} leaving ${Date.now()}`;
  const reports = page.getByRole("region", { name: "Trail reports" });
  await reports.getByLabel("Title").fill(title);
  await reports.getByLabel("Your report").fill("Gone with my account.");
  await reports.getByRole("button", { name: "Publish report" }).click();
  await expect(page.getByRole("article", { name: title })).toBeVisible();

  await page.goto("/account");
  await page.locator("summary", { hasText: "Delete my account…" }).click();
  await page.getByLabel("Also remove my trail reports.").check();
  await page.getByLabel("I understand that this cannot be undone.").check();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page.getByRole("status").first()).toContainText("Your account has been deleted");
  await page.goto("/trails/summit-loop");
  await expect(page.getByRole("region", { name: "Trail reports" })).toBeVisible();
  await expect(page.getByRole("article", { name: title })).toHaveCount(0);
});

test("an outing: a member joins and cancels", async ({ page }) => {
  const path = "/outings/tide-pool-discovery";
  await logIn(page, demoMember, path);
  await expect(page).toHaveURL(`${e2e.siteUrl}${path}`);
  const rsvp = () => page.getByRole("region", { name: /Join this outing|You're going/ });
  await rsvp().getByRole("button", { name: "Join this outing" }).click();
  await expect(rsvp().getByRole("status")).toHaveText("You're going. See you there!");
  await rsvp().getByRole("button", { name: "Cancel my place" }).click();
  await expect(rsvp().getByRole("button", { name: "Join this outing" })).toBeVisible();
});

test("the journal's next stories come with a link", async ({ page }) => {
  await page.goto("/journal");
  const cards = page.locator("[data-item-id]");
  const first = await cards.count();
  await page.getByRole("link", { name: /^Load more/ }).click();
  await expect(page).toHaveURL(/\/journal\?page=2$/);
  expect(await cards.count()).toBeGreaterThan(first);
});
