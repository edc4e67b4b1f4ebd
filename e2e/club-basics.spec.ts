import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./test";
import type { Browser, Page } from "@playwright/test";
import { MUTED_WORDS } from "../lib/reports/forms";
import { adminItems, blockMember, demoMember, makeProfilePrivate, revalidateSite, secondDemoMember, setMemberMuted } from "./platform";
import { screenshot } from "./screenshots";
import { STRONG_PASSWORD, memberPage, newEmail, submitLogin, type Member } from "./site-pages";

/** Moderation that holds (a muted or blocked member), who is going on an outing, and where it meets (issue 38). */

const OUTING = "/outings/family-creek-walk";
const REPORT_PREFIX = "Club basics";

/** A new member, signed up through the site's form and landed on `path`. */
async function newMember(browser: Browser, label: string, nickname: string, path: string): Promise<{ page: Page; member: Member }> {
  const member = { email: newEmail(label), password: STRONG_PASSWORD, name: nickname };
  const page = await (await browser.newContext()).newPage();
  await page.goto(`/register?returnTo=${encodeURIComponent(path)}`);
  await page.getByLabel("E-mail").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(member.password);
  await page.getByLabel("Nickname").fill(nickname);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  return { page, member };
}

const rsvp = (page: Page) => page.getByRole("region", { name: /Join this outing|You're going/ });
const going = (page: Page) => rsvp(page).getByRole("group", { name: "Who is going" });

test.afterAll(async () => {
  for (const [outings, slug, signups] of [
    ["Events", "family-creek-walk", "OutingSignups"],
    ["MembersOutings", "desert-sunset-hike", "MembersOutingSignups"],
  ]) {
    const outing = (await adminItems().query(outings).eq("slug", slug).find()).items[0];
    for (const collection of [signups, "OutingRosters"]) {
      const entries = await adminItems().query(collection).eq("outing", outing._id!).find();
      for (const item of entries.items) await adminItems().remove(collection, item._id!);
    }
  }
  const reports = await adminItems().query("TrailReports").startsWith("title", REPORT_PREFIX).find();
  for (const item of reports.items) await adminItems().remove("TrailReports", item._id!);
  await revalidateSite({ collections: ["OutingSignups", "TrailReports"] });
});

test("who is going: members see the public profiles who joined and a count of the private ones; visitors see the count alone", async ({ browser, request }) => {
  for (const member of [demoMember, secondDemoMember]) {
    const page = await memberPage(browser, member, OUTING);
    await rsvp(page).getByRole("button", { name: "Join this outing" }).click();
    await expect(rsvp(page).getByRole("status")).toHaveText("You're going. See you there!");
    await page.context().close();
  }
  const quiet = await newMember(browser, "quiet-goer", "Quiet Goer", OUTING);
  await makeProfilePrivate(quiet.member.email);
  await rsvp(quiet.page).getByRole("button", { name: "Join this outing" }).click();
  await expect(rsvp(quiet.page).getByRole("status")).toHaveText("You're going. See you there!");

  const rowan = await memberPage(browser, secondDemoMember, OUTING);
  await expect(going(rowan).getByTestId("going-count")).toHaveText("3 members going.");
  // In the order they joined, each linked to their profile; the initial beside the name is decoration.
  const names = going(rowan).getByRole("list", { name: "Members going" }).getByRole("link");
  await expect(names).toHaveCount(2);
  await expect(names.nth(0)).toHaveAccessibleName("Dana");
  await expect(names.nth(0)).toHaveAttribute("href", "/members/dana");
  await expect(names.nth(1)).toHaveAccessibleName("Rowan");
  await expect(going(rowan).getByTestId("going-private")).toHaveText("And 1 member with a private profile.");
  await expect(going(rowan)).not.toContainText("Quiet Goer");
  await screenshot(rowan, "outing-who-is-going", rsvp(rowan));

  // A visitor's page (the page cache's, the same for every visitor) holds the count and no name.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(OUTING);
  await expect(going(visitor).getByTestId("going-count")).toHaveText("3 members going. Log in to see who.");
  await expect(going(visitor).getByRole("link")).toHaveCount(0);
  const html = await (await request.get(OUTING)).text();
  for (const leak of ["/members/dana", "/members/rowan", "Quiet Goer"]) expect(html).not.toContain(leak);
  await screenshot(visitor, "outing-visitor-count", rsvp(visitor));
});

/** The members' outing the demo member organises (platform/seed/seed.ts). */
const ORGANISED = "/member-outings/desert-sunset-hike";

/** The same member's page without script: a context of its own with their session cookie. */
async function withoutScript(browser: Browser, page: Page, path: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const plain = await context.newPage();
  await plain.goto(path);
  return plain;
}

test("the organiser sees a member with a private profile by name, marked private, whom another member only counts; with and without script", async ({
  browser,
}) => {
  const quiet = await newMember(browser, "organiser-private", "Hidden Hiker", ORGANISED);
  await makeProfilePrivate(quiet.member.email);
  // Joining says who will see the name, and works without script.
  const plainQuiet = await withoutScript(browser, quiet.page, ORGANISED);
  await expect(rsvp(plainQuiet)).toContainText("The organiser sees the name of everyone going, private profiles included.");
  await rsvp(plainQuiet).getByRole("button", { name: "Join this outing" }).click();
  await expect(rsvp(plainQuiet).getByRole("status")).toHaveText("You're going. See you there!");
  await quiet.page.context().close();
  await plainQuiet.context().close();

  const dana = await memberPage(browser, demoMember, ORGANISED);
  const rowan = await memberPage(browser, secondDemoMember, ORGANISED);
  for (const page of [dana, await withoutScript(browser, dana, ORGANISED)]) {
    await expect(going(page).getByTestId("going-count")).toHaveText("1 member going.");
    const hidden = going(page).getByRole("list", { name: "Members going with private profiles" }).getByRole("listitem");
    // The initial beside the name is decoration (hidden from assistive technology).
    await expect(hidden).toHaveText([/^H?Hidden Hiker \(private profile\)$/]);
    // Their profile is not shown to the organiser either, so the name links nowhere.
    await expect(going(page).getByRole("link")).toHaveCount(0);
    await expect(going(page).getByTestId("going-private")).toHaveCount(0);
    // The note before joining is for the others.
    await expect(rsvp(page)).not.toContainText("The organiser sees the name");
  }
  const { violations } = await new AxeBuilder({ page: dana }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await screenshot(dana, "outing-organiser", rsvp(dana));
  for (const page of [rowan, await withoutScript(browser, rowan, ORGANISED)]) {
    await expect(going(page).getByTestId("going-count")).toHaveText("1 member going.");
    await expect(going(page).getByTestId("going-private")).toHaveText("1 member with a private profile.");
    await expect(going(page)).not.toContainText("Hidden Hiker");
  }
});

test("where to meet: the trailhead's address with plain map links, and a plain line for a trail not on the map", async ({ page }) => {
  await page.goto(OUTING);
  const meet = page.getByRole("region", { name: "Where to meet" });
  await expect(meet.getByTestId("meeting-address")).toHaveText("Picnic meadow car park, Millrace Lane, Cedar Falls, OR");
  await expect(meet.getByRole("link", { name: "See it on OpenStreetMap" })).toHaveAttribute(
    "href",
    "https://www.openstreetmap.org/?mlat=43.2168&mlon=-123.3652#map=16/43.2168/-123.3652",
  );
  await expect(meet.getByRole("link", { name: "Open in your phone's maps app" })).toHaveAttribute(
    "href",
    "geo:43.2168,-123.3652?q=43.2168,-123.3652(Picnic%20meadow%20car%20park%2C%20Millrace%20Lane%2C%20Cedar%20Falls%2C%20OR)",
  );
  // Nothing embedded: no frame and no map picture.
  await expect(meet.locator("iframe, img")).toHaveCount(0);
  await screenshot(page, "outing-where-to-meet", meet);

  await page.goto("/outings/winter-solstice-lantern-walk");
  await expect(page.getByRole("region", { name: "Where to meet" })).toContainText("has not put the meeting place on the map yet");
});

test("a muted member is told why their report is refused, nothing is published, and the account page says so; unmuted, they publish", async ({ browser }) => {
  const path = "/trails/old-growth";
  const { page, member } = await newMember(browser, "muted", "Muted Walker", path);
  await setMemberMuted(member.email, true);
  try {
    // The form is still on the page the member had open: the refusal is the server's, not the page's.
    const reports = page.getByRole("region", { name: "Trail reports" });
    const title = `${REPORT_PREFIX} muted ${Date.now()}`;
    await reports.getByLabel("Title").fill(title);
    await reports.getByLabel("Your report").fill("Said while muted.");
    await reports.getByRole("button", { name: "Publish report" }).click();
    await expect(reports.getByText(MUTED_WORDS)).toBeVisible();
    // What they typed is still there to keep.
    await expect(reports.getByLabel("Title")).toHaveValue(title);
    await screenshot(page, "report-muted", reports.getByText(MUTED_WORDS));
    expect((await adminItems().query("TrailReports").eq("title", title).find()).items).toEqual([]);

    await page.goto("/account");
    await expect(page.getByTestId("muted-notice")).toHaveText(MUTED_WORDS);
    await screenshot(page, "account-muted");
  } finally {
    await setMemberMuted(member.email, false);
  }
  // The account page kept for the member goes when the platform's event of the change reaches the site.
  await expect(async () => {
    await page.goto("/account");
    await expect(page.getByTestId("muted-notice")).toHaveCount(0, { timeout: 500 });
  }).toPass({ timeout: 10_000 });
  await page.goto(path);
  const reports = page.getByRole("region", { name: "Trail reports" });
  await reports.getByLabel("Title").fill(`${REPORT_PREFIX} unmuted ${Date.now()}`);
  await reports.getByLabel("Your report").fill("Back on the trail.");
  await reports.getByRole("button", { name: "Publish report" }).click();
  await expect(reports.getByRole("status").first()).toHaveText("Thank you: your report is published.");
});

test("a member the owner blocks is a visitor once the platform's event reaches the site, and the login says the account is blocked", async ({ browser }) => {
  const path = "/trails/old-growth";
  const { page, member } = await newMember(browser, "blocked", "Blocked Walker", path);
  await expect(page.getByRole("region", { name: "Trail reports" }).getByRole("button", { name: "Publish report" })).toBeVisible();
  await blockMember(member.email);
  // The block ended the member's tokens; once the platform's member event has reached the site (its webhooks go out
  // every 50 ms), the next page view ends the site's session, and the page is a visitor's.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("region", { name: "Trail reports" }).getByRole("link", { name: "Log in to write a report" })).toBeVisible({
      timeout: 1_000,
    });
  }).toPass({ timeout: 10_000 });
  await expect(page.getByRole("button", { name: "Publish report" })).toHaveCount(0);
  await page.goto(`/login?returnTo=${encodeURIComponent(path)}`);
  await submitLogin(page, member.email, member.password);
  await expect(page.getByText("This account is blocked, so it cannot log in.")).toBeVisible();
});
