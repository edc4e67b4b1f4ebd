import { expect, test } from "../test";
import { SITE_PAGES } from "../../lib/auth/routes";
import { e2e } from "../../playwright.config";
import { logOut } from "../header-menus";
import { logInWithPassword, newEmail, registerAndLand, setUpApp, submitWithPassword } from "../two-step";

test("without script: one 'Remember this device' box; a wrong recovery code comes back with 'Use another way' open, and the box counts for it", async ({
  page,
}) => {
  const email = newEmail();
  await registerAndLand(page, email);
  await submitWithPassword(page, "Turn on codes by e-mail");
  const { codes } = await setUpApp(page);
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await expect(page.getByLabel("Remember this device for 30 days")).toHaveCount(1);
  await expect(page.getByLabel("Recovery code")).toBeHidden();
  await page.getByText("Use another way").click();
  await page.getByLabel("Recovery code").fill("AAAAA-AAAAA");
  await page.getByRole("button", { name: "Use the recovery code" }).click();
  // The page comes back with the refused field in view, under the open "Use another way".
  await expect(page.getByText("That recovery code is not right")).toBeVisible();
  await expect(page.getByLabel("Recovery code")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Remember this device for 30 days").check();
  await page.getByLabel("Recovery code").fill(codes[0]);
  await page.getByRole("button", { name: "Use the recovery code" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await logOut(page);
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});
