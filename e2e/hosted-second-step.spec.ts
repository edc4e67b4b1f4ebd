import { expect, test } from "./test";
import { e2e } from "../playwright.config";
import { screenshot } from "./screenshots";
import { logOut } from "./header-menus";
import { appCode, awayFromStepEdge, hostedLoginAsksTheNewestWayThenTheLastUsed, logInOnHostedPage } from "./two-step";

test("the hosted code page asks first for the way set up last, then for the one last used on this browser, with one remember box", async ({ page }) => {
  await hostedLoginAsksTheNewestWayThenTheLastUsed(page, async (codePage) => {
    await screenshot(codePage, "hosted-login-code");
    // At a narrow phone's width the page stays short: the other ways are folded.
    await codePage.setViewportSize({ width: 320, height: 640 });
    const height = await codePage.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(1200);
    await codePage.setViewportSize({ width: 1280, height: 720 });
  });
});

test("on the hosted code page, the app's code under “Use another way” logs in and remembers the browser when the one box is ticked", async ({ page }) => {
  const { email, secret } = await hostedLoginAsksTheNewestWayThenTheLastUsed(page);
  await logOut(page);
  await logInOnHostedPage(page, email);
  await page.getByText("Use another way", { exact: true }).click();
  await awayFromStepEdge();
  await page.getByLabel("Code from your app").fill(appCode(secret, 1));
  await page.getByLabel("Remember this device for 30 days").check();
  await page.getByRole("button", { name: "Use the app's code" }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2e.siteUrl}/`));
  await logOut(page);
  // Remembered: no second step.
  await logInOnHostedPage(page, email);
  await expect(page).toHaveURL(new RegExp(`^${e2e.siteUrl}/`));
  await expect(page.getByTestId("member-name")).toHaveText("Robin Two");
});
