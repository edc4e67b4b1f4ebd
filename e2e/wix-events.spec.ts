import { expect, test } from "./test";
import { generateKeyPairSync } from "node:crypto";
import { LOCAL_SITE_APP_ID, WIX_WEBHOOK_PATH, localWebhookKey, signWixEvent } from "@ridgeline/platform-contract";
import { e2e } from "../playwright.config";
import { adminItems, dataItemUpdated, sendWixEvent } from "./platform";

/**
 * The site keeps its cached pages fresh from Wix's own webhook events (issue 37): the local platform
 * registers the site as its app and sends them as Wix does, so a real site and local mode take one
 * path. Forged, expired, wrongly-audienced and replayed events change nothing; a burst is absorbed.
 */

const JOURNAL_PAGE = "/journal";

test("an edit through the data API reaches a visitor's cached page within a second", async ({ request }) => {
  const items = adminItems();
  const [story] = (await items.query("Journal").limit(1).find()).items;
  const edited = `${story.title} (edited through the API)`;
  await request.get(JOURNAL_PAGE);
  const warm = await request.get(JOURNAL_PAGE);
  expect(warm.headers()["x-cache"]).toBe("HIT");
  // A site that has taken an event before: the first one after a start also loads the key and the JWT library.
  await sendWixEvent({ eventType: "wix.members.v3.follow_member_followed", instanceId: "local-instance", payload: { id: "warm-up" } });
  try {
    await items.update("Journal", { ...story, title: edited });
    const saved = Date.now();
    await expect.poll(async () => (await request.get(JOURNAL_PAGE)).text(), { timeout: 1_000, intervals: [50] }).toContain(edited);
    test.info().annotations.push({ type: "edit to page", description: `${Date.now() - saved} ms` });
  } finally {
    await items.update("Journal", { ...story, title: story.title });
    // The restoring event lands too before the next test looks at the cached page.
    await expect.poll(async () => (await request.get(JOURNAL_PAGE)).text(), { timeout: 10_000 }).not.toContain(edited);
  }
});

test("a forged, expired, wrongly-audienced or replayed event is refused and the cached page stays", async ({ request }) => {
  await request.get(JOURNAL_PAGE);
  expect((await request.get(JOURNAL_PAGE)).headers()["x-cache"]).toBe("HIT");
  const post = async (body: string) => (await request.post(WIX_WEBHOOK_PATH, { data: body, headers: { "content-type": "text/plain" } })).status();
  const event = dataItemUpdated("Journal");
  const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  expect(await post(signWixEvent(stranger, LOCAL_SITE_APP_ID, event))).toBe(401);
  const ownKey = localWebhookKey(e2e.dataDir);
  expect(await post(signWixEvent(ownKey, "someone-elses-app", event))).toBe(401);
  expect(await post(signWixEvent(ownKey, LOCAL_SITE_APP_ID, event, Date.now() - 3600_000))).toBe(401);
  expect(await post("not a jwt")).toBe(401);
  expect((await request.get(JOURNAL_PAGE)).headers()["x-cache"]).toBe("HIT");

  const genuine = signWixEvent(ownKey, LOCAL_SITE_APP_ID, event);
  expect(await post(genuine)).toBe(200);
  await request.get(JOURNAL_PAGE);
  expect((await request.get(JOURNAL_PAGE)).headers()["x-cache"]).toBe("HIT");
  // The same body again: refused, and the page is not dropped.
  expect(await post(genuine)).toBe(409);
  expect((await request.get(JOURNAL_PAGE)).headers()["x-cache"]).toBe("HIT");
});

test("a burst of 500 events is absorbed without a 5xx, and pages still answer", async ({ request }) => {
  const collections = ["Trails", "Journal", "Regions", "Events", "TrailReports"];
  const statuses: number[] = [];
  for (let batch = 0; batch < 10; batch++) {
    statuses.push(
      ...(await Promise.all(
        Array.from({ length: 50 }, (_, index) => sendWixEvent(dataItemUpdated(collections[index % collections.length]), { expectOk: false })),
      )),
    );
  }
  expect(statuses).toHaveLength(500);
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  expect((await request.get("/trails")).status()).toBe(200);
});
