import { expect, test } from "../test";
import { MUTED_WORDS } from "../../lib/reports/forms";
import { adminItems, demoMember, revalidateSite, setMemberMuted } from "../platform";
import { STRONG_PASSWORD, newEmail } from "../site-pages";

// Issue 38 without script: a muted member's native post of the report form is refused with the
// reason, and an outing's page says who is going and where to meet in its HTML.

const REPORT_PREFIX = "No script muted";

test.afterAll(async () => {
  const outing = (await adminItems().query("Events").eq("slug", "birding-by-the-lake").find()).items[0];
  const signups = await adminItems().query("OutingSignups").eq("outing", outing._id!).find();
  for (const item of signups.items) await adminItems().remove("OutingSignups", item._id!);
  // None should be there; a run that found the refusal broken leaves no report behind.
  const reports = await adminItems().query("TrailReports").startsWith("title", REPORT_PREFIX).find();
  for (const item of reports.items) await adminItems().remove("TrailReports", item._id!);
  await revalidateSite({ collections: ["OutingSignups", "TrailReports"] });
});

test("a muted member's report, posted without script, is refused with the reason and publishes nothing", async ({ page }) => {
  const path = "/trails/cedar-creek";
  const email = newEmail("nojs-muted");
  await page.goto(`/register?returnTo=${encodeURIComponent(path)}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel("Nickname").fill("Muted Without Script");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await setMemberMuted(email, true);
  try {
    const reports = page.getByRole("region", { name: "Trail reports" });
    const title = `${REPORT_PREFIX} ${Date.now()}`;
    await reports.getByLabel("Title").fill(title);
    await reports.getByLabel("Your report").fill("Posted natively while muted.");
    await reports.getByRole("button", { name: "Publish report" }).click();
    await expect(page.getByRole("region", { name: "Trail reports" }).getByText(MUTED_WORDS)).toBeVisible();
    expect((await adminItems().query("TrailReports").eq("title", title).find()).items).toEqual([]);
    await page.goto("/account");
    await expect(page.getByTestId("muted-notice")).toHaveText(MUTED_WORDS);
  } finally {
    await setMemberMuted(email, false);
  }
});

test("an outing's page says who is going and where to meet without script", async ({ page }) => {
  const path = "/outings/birding-by-the-lake";
  await page.goto(`/login?returnTo=${encodeURIComponent(path)}`);
  await page.getByLabel("E-mail").fill(demoMember.email);
  await page.getByLabel("Password", { exact: true }).fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  const rsvp = page.getByRole("region", { name: /Join this outing|You're going/ });
  await expect(rsvp.getByTestId("going-count")).toHaveText("Nobody has joined yet.");
  await rsvp.getByRole("button", { name: "Join this outing" }).click();
  const going = page.getByRole("group", { name: "Who is going" });
  await expect(going.getByTestId("going-count")).toHaveText("1 member going.");
  await expect(going.getByRole("link", { name: "Dana", exact: true })).toHaveAttribute("href", "/members/dana");
  // The Shoreline Loop's start is not on the map: the page says so rather than guessing.
  await expect(page.getByRole("region", { name: "Where to meet" })).toContainText("has not put the meeting place on the map yet");
  await page.goto("/outings/tide-pool-discovery");
  await expect(page.getByRole("region", { name: "Where to meet" }).getByRole("link", { name: "See it on OpenStreetMap" })).toBeVisible();
});
