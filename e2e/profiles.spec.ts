import { expect, test } from "./test";
import type { Browser, Page } from "@playwright/test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { accountMenuSummary, openMenu } from "./header-menus";
import { platformRequests } from "./platform";
import { screenshot } from "./screenshots";

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Signs up on the site's own form, public unless told otherwise, and lands on the trail the report goes on. */
async function signUp(page: Page, nickname: string, options: { public: boolean }) {
  await page.goto(`${SITE_PAGES.register}?returnTo=%2Ftrails%2Fmirror-lakes`);
  await page.getByLabel("E-mail").fill(`profile-${stamp()}@ridgeline.example`);
  await page.getByLabel("Password", { exact: true }).fill("bright-tarn-morning-8");
  await page.getByLabel("Nickname").fill(nickname);
  // Public is the default, and the form says so before anything is ticked.
  await expect(page.getByLabel("Make my profile public")).toBeChecked();
  if (!options.public) await page.getByLabel("Make my profile public").uncheck();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails/mirror-lakes`);
  await expect(page.getByRole("status")).toHaveText("Welcome to the club: your account is ready and you are logged in.");
}

async function writeReport(page: Page, title: string) {
  const section = page.getByRole("region", { name: "Trail reports" });
  await section.getByLabel("Title").fill(title);
  await section.getByLabel("Your report").fill("Still water at dawn, boots dry by noon.");
  await section.getByRole("button", { name: "Publish report" }).click();
  await expect(section.getByRole("status")).toHaveText("Thank you: your report is published.");
  return section.getByRole("article", { name: title });
}

async function viewMyProfile(page: Page) {
  await (await openMenu(accountMenuSummary(page))).getByRole("link", { name: "View my profile" }).click();
  await expect(page).toHaveURL(/\/members\/[a-z0-9-]+$/);
  return new URL(page.url()).pathname;
}

/** What someone who is not signed in gets at a path. */
async function asVisitor(browser: Browser, path: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(path);
  return { page, status: response?.status(), close: () => context.close() };
}

test("a new member with a public profile: listed under Members, the profile at the address the menu gives, the nickname on their reports", async ({
  page,
  browser,
}) => {
  // Each run starts on a fresh database, so a plain name is unique and reads well in the screenshots.
  const nickname = "Fern Hollow";
  await page.goto(SITE_PAGES.register);
  await screenshot(page, "register-privacy-choice");
  await signUp(page, nickname, { public: true });
  const title = `Mirror calm ${stamp()}`;
  const mine = await writeReport(page, title);
  await expect(mine.getByRole("link", { name: nickname })).toBeVisible();

  const profilePath = await viewMyProfile(page);
  await expect(page.getByRole("heading", { level: 1, name: nickname })).toBeVisible();
  await expect(page.getByRole("article", { name: title })).toBeVisible();
  await screenshot(page, "public-profile");

  // The footer leads to the members list, which shows the new member.
  await page.getByRole("contentinfo").getByRole("link", { name: "Members", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/members`);
  await expect(page.getByRole("link", { name: new RegExp(nickname) })).toHaveAttribute("href", profilePath);

  // Anyone else sees the profile and the nickname on the report.
  const visitor = await asVisitor(browser, profilePath);
  expect(visitor.status).toBe(200);
  await expect(visitor.page.getByRole("heading", { level: 1, name: nickname })).toBeVisible();
  await visitor.page.goto("/trails/mirror-lakes");
  await expect(visitor.page.getByRole("article", { name: title }).getByRole("link", { name: nickname })).toHaveAttribute("href", profilePath);
  await visitor.close();
});

test("a private profile is explained to its owner and is 'not found' for anyone else, until the owner makes it public", async ({ page, browser }) => {
  const nickname = "Sorrel Brook";
  await signUp(page, nickname, { public: false });
  const title = `Quiet shore ${stamp()}`;
  const mine = await writeReport(page, title);
  await expect(mine).toContainText("by a member");
  await expect(mine.getByRole("link", { name: nickname })).toHaveCount(0);

  const profilePath = await viewMyProfile(page);
  await expect(page.getByRole("heading", { level: 1, name: nickname })).toBeVisible();
  await expect(page.getByText("Your profile is private, so only you can see it.")).toBeVisible();
  await screenshot(page, "private-profile-owner");

  const hidden = await asVisitor(browser, profilePath);
  expect(hidden.status).toBe(404);
  await hidden.page.goto(`/members?q=${encodeURIComponent(nickname)}`);
  await expect(hidden.page.getByRole("link", { name: new RegExp(nickname) })).toHaveCount(0);
  await hidden.close();

  // The account page names the address and says who sees it; the owner makes it public there.
  await page.getByRole("link", { name: "Make your profile public on your account page" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account#profile`);
  await expect(page.getByRole("region", { name: "Profile address" })).toContainText(`${profilePath}. It is private: only you can see it.`);
  await expect(page.getByLabel("Make my profile public")).not.toBeChecked();
  await page.getByLabel("Make my profile public").check();
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status")).toHaveText("Your profile is saved.");
  // The form's message area holds the focus, so the confirmation is read out.
  await expect(page.locator(":focus")).toContainText("Your profile is saved.");
  await expect(page.getByRole("region", { name: "Profile address" })).toContainText("It is public: anyone can see it.");
  await screenshot(page, "account-profile-public", page.getByRole("region", { name: "Profile", exact: true }));

  const shown = await asVisitor(browser, profilePath);
  expect(shown.status).toBe(200);
  await expect(shown.page.getByRole("article", { name: title })).toBeVisible();
  await shown.page.goto("/trails/mirror-lakes");
  await expect(shown.page.getByRole("article", { name: title }).getByRole("link", { name: nickname })).toBeVisible();
  await shown.close();
});

test("joining and leaving the community: visitors' cached directory and profile page follow once the platform tells the site", async ({ page, request }) => {
  // Early in the alphabet: the directory is sorted by name, and a whole run's sign-ups fill its first pages.
  const nickname = "Aster Ridge";
  await signUp(page, nickname, { public: true });
  const profilePath = await viewMyProfile(page);
  const visitorGets = (path: string) => request.get(path, { headers: { cookie: "" } });
  const listed = async () => (await (await visitorGets("/members")).text()).includes(`href="${profilePath}"`);
  // The visitor's pages are cached: the second answer is the cache's.
  for (const path of [profilePath, "/members"]) {
    expect((await visitorGets(path)).status()).toBe(200);
    expect((await visitorGets(path)).headers()["x-cache"], path).toBe("HIT");
  }
  expect(await listed()).toBe(true);

  const calls = async (route: string) => (await platformRequests())[`POST /members/v1/members/${route}`] ?? 0;
  const [leftBefore, joinedBefore] = [await calls("leave-community"), await calls("join-community")];
  const savePublic = async (on: boolean) => {
    await page.goto("/account#profile");
    await page.getByLabel("Make my profile public").setChecked(on);
    await page.getByRole("button", { name: "Save profile" }).click();
    // What the saved profile says, not only the confirmation, which the second save finds already shown.
    await expect(page.getByRole("region", { name: "Profile address" })).toContainText(
      on ? "It is public: anyone can see it." : "It is private: only you can see it.",
    );
  };

  // Leaving: the cached profile and the directory drop the member once the revalidation arrives.
  await savePublic(false);
  expect(await calls("leave-community")).toBe(leftBefore + 1);
  await expect.poll(async () => (await visitorGets(profilePath)).status()).toBe(404);
  await expect.poll(listed).toBe(false);

  // Joining again brings them back.
  await savePublic(true);
  expect(await calls("join-community")).toBe(joinedBefore + 1);
  await expect.poll(async () => (await visitorGets(profilePath)).status()).toBe(200);
  await expect.poll(listed).toBe(true);
});
