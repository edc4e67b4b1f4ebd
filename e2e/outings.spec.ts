import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { e2e } from "../playwright.config";
import { adminItems, demoMember, revalidateSite, secondDemoMember } from "./platform";
import { screenshot } from "./screenshots";
import { fillLoginForm, memberPage } from "./site-pages";

/** Members join outings, see them on their account and cancel them; times are in each outing's own zone. */

const rsvp = (page: Page) => page.getByRole("region", { name: /Join this outing|You're going/ });
const placesLeft = (page: Page) => rsvp(page).getByTestId("places-left");

test("a member joins an outing, finds it on their account, cancels it, and the place comes back for everyone", async ({ page, browser }) => {
  const path = "/outings/tide-pool-discovery";
  // A visitor: the time on the clocks of the coast where it happens, and a login that comes back here.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(path);
  await expect(visitor.getByRole("complementary", { name: "Details" })).toContainText("Sun, 13 December 2026, 09:00 PST");
  await expect(visitor.getByRole("complementary", { name: "Details" })).toContainText("Meeting time08:45 PST");
  await expect(placesLeft(visitor)).toHaveText("15 of 15 places left");
  await expect(rsvp(visitor).getByRole("button")).toHaveCount(0);

  await page.goto(path);
  await rsvp(page).getByRole("link", { name: "Log in to join" }).click();
  await expect(page).toHaveURL(/\/login\?returnTo=%2Foutings%2Ftide-pool-discovery$/);
  await fillLoginForm(page, demoMember);
  await expect(page).toHaveURL(new RegExp(`${path}$`));

  await rsvp(page).getByRole("button", { name: "Join this outing" }).click();
  await expect(rsvp(page).getByRole("status")).toHaveText("You're going. See you there!");
  // The pressed button is gone (now "Cancel my place"): the focus is on what the press did.
  await expect(rsvp(page).getByRole("status")).toBeFocused();
  await expect(rsvp(page)).toHaveAccessibleName("You're going");
  await screenshot(page, "outing-member-joined", rsvp(page));
  await expect(placesLeft(page)).toHaveText("14 of 15 places left");

  // The visitor's page (served from the page cache) shows the place taken, and nothing of Dana's.
  await visitor.reload();
  await expect(placesLeft(visitor)).toHaveText("14 of 15 places left");
  await expect(rsvp(visitor).getByRole("link", { name: "Log in to join" })).toBeVisible();

  await page.goto("/account");
  const yours = page.getByRole("region", { name: "Your outings" });
  await expect(yours.getByRole("link", { name: "Tide Pool Discovery" })).toHaveAttribute("href", path);
  await expect(yours).toContainText("13 December 2026, 09:00 PST");
  await yours.getByRole("button", { name: "Cancel my place" }).click();
  await expect(yours).toContainText("You have not joined any outings yet.");
  // The outing's row, and its button, are gone from the list; the message above it has the focus.
  await expect(yours.getByRole("status")).toHaveText("Your place is cancelled.");
  await expect(yours.getByRole("status")).toBeFocused();
  await screenshot(page, "account-outing-cancelled", yours);

  await visitor.reload();
  await expect(placesLeft(visitor)).toHaveText("15 of 15 places left");
  await page.goto(path);
  await expect(placesLeft(page)).toHaveText("15 of 15 places left");
  await expect(rsvp(page).getByRole("button", { name: "Join this outing" })).toBeVisible();
});

test("joining twice keeps one place; a full outing says so and refuses the next member", async ({ browser }) => {
  const path = "/outings/birding-by-the-lake";
  const dana = await memberPage(browser, demoMember, path);
  const rowan = await memberPage(browser, secondDemoMember, path);
  await expect(placesLeft(dana)).toHaveText("18 of 18 places left");

  // Dana's second tab presses "Join" again after the first joined: one place, not two.
  const danaAgain = await dana.context().newPage();
  await danaAgain.goto(path);
  await rsvp(dana).getByRole("button", { name: "Join this outing" }).click();
  await expect(placesLeft(dana)).toHaveText("17 of 18 places left");
  await rsvp(danaAgain).getByRole("button", { name: "Join this outing" }).click();
  await expect(rsvp(danaAgain).getByRole("status")).toHaveText("You had already joined this outing.");
  await expect(placesLeft(danaAgain)).toHaveText("17 of 18 places left");

  // Other members fill the remaining places while Rowan's page still offers to join.
  const others = Array.from({ length: 17 }, (_, index) => ({
    _id: `e2e-birding-${index}`,
    collection: "Events",
    outing: "event-4",
    _owner: `e2e-member-${index}`,
  }));
  await adminItems().bulkInsert("OutingSignups", others);
  await revalidateSite({ collections: ["OutingSignups"] });
  await rsvp(rowan).getByRole("button", { name: "Join this outing" }).click();
  await expect(rsvp(rowan).getByRole("alert")).toHaveText("Sorry, this outing is full: there are no places left.");
  await expect(placesLeft(rowan)).toHaveText("Full: all 18 places are taken");
  await expect(rsvp(rowan).getByRole("button")).toHaveCount(0);

  await adminItems().bulkRemove(
    "OutingSignups",
    others.map((other) => other._id),
  );
  await rsvp(dana).getByRole("button", { name: "Cancel my place" }).click();
  await expect(placesLeft(dana)).toHaveText("18 of 18 places left");
});

test("one member's made-up sign-ups take one place: the outing is not full and others still join", async ({ browser }) => {
  const path = "/outings/tide-pool-discovery";
  // Fifteen sign-ups for 15 places, all by one member: as the data API lets any member write them
  // (the admin key stamps them with that member as their author).
  const madeUp = Array.from({ length: 15 }, (_, index) => ({ _id: `e2e-made-up-${index}`, collection: "Events", outing: "event-2", _owner: "e2e-one-member" }));
  await adminItems().bulkInsert("OutingSignups", madeUp);
  await revalidateSite({ collections: ["OutingSignups"] });
  try {
    const dana = await memberPage(browser, demoMember, path);
    await expect(placesLeft(dana)).toHaveText("14 of 15 places left");
    await rsvp(dana).getByRole("button", { name: "Join this outing" }).click();
    await expect(rsvp(dana).getByRole("status")).toHaveText("You're going. See you there!");
    await expect(placesLeft(dana)).toHaveText("13 of 15 places left");
    await rsvp(dana).getByRole("button", { name: "Cancel my place" }).click();
    await expect(placesLeft(dana)).toHaveText("14 of 15 places left");
  } finally {
    await adminItems().bulkRemove(
      "OutingSignups",
      madeUp.map((signup) => signup._id),
    );
    await revalidateSite({ collections: ["OutingSignups"] });
  }
});

test("members' outing cards link to their page, which shows Denver's time and gives a calendar file", async ({ page, request }) => {
  const path = "/member-outings/sunrise-on-the-summit";
  // Visitors get neither the page nor its calendar file: both send them to log in.
  const refused = await request.get(`${path}/calendar.ics`, { maxRedirects: 0 });
  expect(refused.status()).toBe(307);
  expect(refused.headers().location).toContain(`/login?returnTo=${encodeURIComponent(path)}`);

  await page.goto("/login?returnTo=%2Fmember-outings");
  await fillLoginForm(page, demoMember);
  await page.getByRole("link", { name: "Sunrise on the Summit" }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Sunrise on the Summit" })).toBeVisible();
  await expect(page.getByRole("article")).toContainText("Sat, 5 December 2026, 06:30 MST");
  await expect(page.getByRole("article")).toContainText("Meeting time:06:15 MST");
  await expect(placesLeft(page)).toHaveText("12 of 12 places left");

  const download = page.waitForEvent("download");
  await rsvp(page).getByRole("link", { name: "Add to calendar (.ics)" }).click();
  expect((await download).suggestedFilename()).toBe("sunrise-on-the-summit.ics");
  const file = await page.request.get(`${path}/calendar.ics`);
  expect(file.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  expect(file.headers()["cache-control"]).toBe("private, no-store");
  const text = await file.text();
  expect(text).toContain("\r\nDTSTART;TZID=America/Denver:20261205T063000\r\n");
  // Four hours long, from the trail's trailhead; the zone with its rules for summer time.
  expect(text).toContain("\r\nDTEND;TZID=America/Denver:20261205T103000\r\n");
  expect(text).toContain("\r\nLOCATION:Lookout Road trailhead\\, Alder Springs\\, CO\r\n");
  expect(text).toContain("\r\nTZID:America/Denver\r\n");
  expect(text).toContain("\r\nBEGIN:DAYLIGHT\r\n");
  expect(text).toContain("\r\nRRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\n");
  expect(text).toContain(`\r\nUID:MembersOutings-outing-1@${new URL(e2e.siteUrl).host}\r\n`);
  expect(text).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
});

test("a public outing's calendar file is the same for everyone, in the outing's zone", async ({ request }) => {
  const file = await request.get("/outings/winter-solstice-lantern-walk/calendar.ics");
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  const text = await file.text();
  expect(text).toContain("\r\nDTSTART;TZID=Europe/London:20261221T160000\r\n");
  expect(text).toContain("\r\nDTEND;TZID=Europe/London:20261221T173000\r\n");
  // Its trail has no trailhead on the map: no location rather than the trail's name.
  expect(text).not.toMatch(/\r\nLOCATION:/);
  expect(text).toContain("\r\nSUMMARY:Winter Solstice Lantern Walk\r\n");
  expect(text.split("\r\n").every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
  expect((await request.get("/trails/summit-loop/calendar.ics")).status()).toBe(404);
});

test("a visitor's outing page stays in the page cache: it does not depend on who asks", async ({ request }) => {
  await request.get("/outings/family-creek-walk");
  const again = await request.get("/outings/family-creek-walk");
  expect(again.headers()["x-cache"]).toBe("HIT");
  expect(await again.text()).toContain("Log in to join");
});

test("the outings list shows places left on each card, and a new sign-up shows there too", async ({ page }) => {
  const card = (title: string) => page.getByTestId("item-card").filter({ has: page.getByRole("heading", { name: title }) });
  await page.goto("/outings");
  await expect(page.getByRole("heading", { name: "Outings", exact: true })).toHaveCount(1);
  await expect(page.getByTestId("item-card").getByTestId("places-left")).toHaveText([
    "30 of 30 places left",
    "15 of 15 places left",
    "40 of 40 places left",
    "18 of 18 places left",
  ]);
  await screenshot(page, "outings-list", page.getByRole("heading", { level: 2, name: "All outings" }));

  const others = Array.from({ length: 3 }, (_, index) => ({
    _id: `e2e-lantern-${index}`,
    collection: "Events",
    outing: "event-3",
    _owner: `e2e-member-${index}`,
  }));
  await adminItems().bulkInsert("OutingSignups", others);
  await revalidateSite({ collections: ["OutingSignups"] });
  await page.reload();
  await expect(card("Winter Solstice Lantern Walk").getByTestId("places-left")).toHaveText("37 of 40 places left");
  await expect(card("Family Creek Walk").getByTestId("places-left")).toHaveText("30 of 30 places left");
  await adminItems().bulkRemove(
    "OutingSignups",
    others.map((other) => other._id),
  );
  await revalidateSite({ collections: ["OutingSignups"] });
});

test("at 1280 px an outing's sign-up stands in the details column beside the long read, leaving no empty block", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/outings/tide-pool-discovery");
  const signUp = (await rsvp(page).boundingBox())!;
  const details = (await page.getByRole("complementary", { name: "Details" }).boundingBox())!;
  const main = (await page.getByRole("region", { name: "What to expect" }).boundingBox())!;
  // Beside the long read and level with its top, the details right under it in the same column.
  expect(signUp.x).toBeGreaterThan(main.x + main.width);
  expect(Math.abs(signUp.y - main.y)).toBeLessThan(40);
  expect(details.x).toBe(signUp.x);
  expect(details.y).toBeGreaterThan(signUp.y + signUp.height);
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the sign-up comes first.
  expect((await rsvp(page).boundingBox())!.y).toBeLessThan((await page.getByRole("complementary", { name: "Details" }).boundingBox())!.y);
});
