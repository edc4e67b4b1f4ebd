import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./test";
import { e2e } from "../playwright.config";
import { setPlatformFaults } from "./platform";
import { expectAccessible, noPolicyRefusals, openStudio } from "./studio";

const CLIENTS_FILE = path.join(e2e.dataDir, "oauth-clients.json");
let clientsBefore: string | null;

// Other specs share the platform: no fault stays on, and the clients file goes back to what it was.
test.beforeEach(() => {
  clientsBefore = fs.existsSync(CLIENTS_FILE) ? fs.readFileSync(CLIENTS_FILE, "utf8") : null;
});
test.afterEach(async () => {
  await setPlatformFaults([]);
  if (clientsBefore === null) fs.rmSync(CLIENTS_FILE, { force: true });
  else fs.writeFileSync(CLIENTS_FILE, clientsBefore);
});

test("adds a redirect URI, shows the webhook key, turns a latency fault on and off with the header's warning, takes a backup and downloads it", async ({
  page,
}) => {
  const checkPolicy = await noPolicyRefusals(page);
  await openStudio(page, "/settings", "Settings");
  await expect(page.getByText(`${e2e.siteUrl}/api/auth/callback`)).toBeVisible();

  const redirectUri = `http://localhost:5173/studio-test-${Date.now()}/callback`;
  await page.getByLabel("Redirect URI").fill(redirectUri);
  await page.getByRole("button", { name: "Add the redirect URI" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${redirectUri} is a redirect URI of local-site-client now.` })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: redirectUri })).toContainText("from oauth-clients.json");
  expect(JSON.parse(fs.readFileSync(CLIENTS_FILE, "utf8"))).toContainEqual({ id: "local-site-client", redirectUris: expect.arrayContaining([redirectUri]) });

  // The key apps check webhooks with, on one line: base64 of its PEM.
  await expect(page.getByLabel("WIX_CLIENT_PUBLIC_KEY")).toHaveValue(/^LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0/);

  // A latency fault: the header warns on every Studio page until it is off again.
  const warning = page.getByRole("banner").getByText("Faults are on");
  await expect(warning).toHaveCount(0);
  await page.getByLabel("Paths starting with").fill("/wix-data/");
  await page.getByLabel("Latency (ms)").fill("400");
  await page.getByRole("button", { name: "Turn the fault on" }).click();
  await expect(page.getByRole("row").filter({ hasText: "/wix-data/" })).toContainText("400 ms slower");
  await expect(warning).toBeVisible();
  const started = Date.now();
  await fetch(`${e2e.platformUrl}/wix-data/v2/items/query`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  await expectAccessible(page, "the Studio's settings with a fault on");
  await page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Members" }).click();
  await expect(warning).toBeVisible();
  await page.getByRole("banner").getByRole("link", { name: "Fault mode" }).click();
  await page.getByRole("button", { name: "Turn off the faults on /wix-data/" }).click();
  await expect(page.getByText("No faults: the platform answers normally.")).toBeVisible();
  await expect(warning).toHaveCount(0);

  // A backup: taken, READY, downloaded as a SQLite file.
  await page.getByRole("button", { name: "Take a backup" }).click();
  // The status follows the backup this click started, until the list shows it ready.
  await expect(page.getByRole("status").filter({ hasText: "The backup is ready." })).toBeVisible();
  const backup = page.getByRole("row").filter({ hasText: "ready" }).first();
  await expect(backup).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), backup.getByRole("link", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^backup-[0-9a-f-]+\.sqlite$/);
  const file = await download.path();
  expect(fs.readFileSync(file).subarray(0, 15).toString()).toBe("SQLite format 3");
  await expectAccessible(page, "the Studio's settings");
  if (process.env.E2E_SCREENSHOTS) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: "docs/screenshots/studio-settings.png", fullPage: true });
  }
  checkPolicy();
});
