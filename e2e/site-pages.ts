import { expect, type Browser, type Page } from "@playwright/test";
import { PREWARM_STORAGE_KEY } from "../lib/auth/prewarm-schedule";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { demoMember, latestMail } from "./platform";

/**
 * Home, every list, items that between them show every field type the demo content has
 * (gallery, video, objects and arrays on trails; an address on regions; a time on outings;
 * rich content, a document, audio and multi-references on the journal), and the sign-in pages.
 */
export const publicPages = [
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
  "/members",
  "/members/rowan",
  "/login",
  "/register",
  "/forgot-password",
];

/**
 * Every kind of address with nothing behind it: an unknown section, item and profile, a list or
 * report page (an item's, a profile's) that is malformed or past the last, and a path no route matches.
 */
export const notFoundPages = [
  "/no-such-section",
  "/trails/no-such-trail",
  "/trails?page=abc",
  "/trails/summit-loop?reports=9",
  "/members/nobody-here",
  "/members/dana?reports=99",
  "/members?page=99",
  "/no/such/page/at-all",
];

/** What a signed-in member sees: the account, the report forms on a trail, members' outings. */
export const memberPages = ["/account", "/trails/mirror-lakes", "/member-outings", "/member-outings/sunrise-on-the-summit"];

/** Every page a signed-in member can open: theirs and the public ones (the sign-in pages send a member on). */
export const signedInPages = [...memberPages, ...publicPages.filter((path) => !["/login", "/register", "/forgot-password"].includes(path))];

export type Member = { email: string; password: string; name: string };

/** Signs in with the site's own form (at `loginUrl`) and waits until the header shows the member. */
export async function logInWithForm(page: Page, loginUrl: string = SITE_PAGES.login, member: Member = demoMember): Promise<void> {
  await page.goto(loginUrl);
  await fillLoginForm(page, member);
}

/** Signs in with the login form the page shows, and waits until the header shows the member. */
export async function fillLoginForm(page: Page, member: Member): Promise<void> {
  await submitLogin(page, member.email, member.password);
  await expect(page.getByTestId("member-name")).toHaveText(member.name);
}

/** Fills and sends the login form the page shows, whatever the answer. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** An address no test has used, for a new account. */
export const newEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@ridgeline.example`;
/** A password the platform accepts for a new account. */
export const STRONG_PASSWORD = "granite-switchback-42";

/**
 * Asks for a reset link on the forgot-password page the browser shows, follows the mailed link to
 * the platform's hosted page and sets `password` there; ends on the login page that says so.
 */
export async function resetPasswordByMail(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account exists for that address");
  await page.goto((await latestMail(email, "password-reset")).link!);
  await page.getByLabel("New password").fill(password);
  await page.getByRole("button", { name: /set|save|change/i }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2e.siteUrl}${SITE_PAGES.login}`));
  await expect(page.getByRole("status")).toContainText("Your new password is set");
}

/**
 * Waits for the member's browser to have pre-warmed the platform's pages after a login: a test
 * that then ends the session on the platform knows the pre-warm will not be the one to find out.
 */
export async function prewarmDone(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), PREWARM_STORAGE_KEY)).not.toBeNull();
}

/** A page in a context of its own, logged in as `member` on `path`. */
export async function memberPage(browser: Browser, member: Member, path: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`/login?returnTo=${encodeURIComponent(path)}`);
  await fillLoginForm(page, member);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  return page;
}
