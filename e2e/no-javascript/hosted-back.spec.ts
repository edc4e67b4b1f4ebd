import { expect, test } from "../test";
import type { Page } from "@playwright/test";
import { e2e } from "../../playwright.config";
import { logOut } from "../header-menus";
import { demoMember, latestMail } from "../platform";
import { newEmail, password, registerWithEmailCodes, wrongCodeFor } from "../two-step";

/** Back, and wait for where it settles: a finished login's step goes on to the page the login returned to (a redirect, then a refresh). */
async function back(page: Page): Promise<string> {
  // The refresh replaces the page Back opened while Playwright still waits for it.
  await page.goBack().catch(() => undefined);
  await expect(page).not.toHaveURL(/\/api\/auth\/callback|\/hosted\//);
  await page.waitForLoadState();
  return new URL(page.url()).pathname;
}

// Without script nothing can move a browser through its history for it (docs/auth-pitfalls.md, P5): each step a login
// left is one Back, which goes on to the page the login returned to, still logged in, never to a hosted page or a form to send again.
test("without script, Back after a hosted login passes one step per page the login showed, each landing on the page it returned to", async ({ page }) => {
  const documents: string[] = [];
  page.on("response", (response) => {
    if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) documents.push(response.request().method());
  });
  await page.goto("/trails");
  await page.goto("/trails/summit-loop");
  await page.getByRole("banner").getByRole("link", { name: "Log in", exact: true }).click();
  await page.getByRole("link", { name: "Continue with the hosted login page" }).click();
  await page.getByLabel("E-mail").fill(demoMember.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await page.getByLabel("Password").fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails/summit-loop`);
  documents.length = 0;

  // The login's steps: the site's login page, the hosted page, and the hosted page again after the wrong password.
  for (const step of ["hosted page after the wrong password", "hosted page", "site's login page"]) {
    expect(await back(page), step).toBe("/trails/summit-loop");
    await expect(page.getByTestId("member-name"), step).toHaveText(demoMember.name);
  }
  // Then the page before the login, and the one before it.
  expect(await back(page)).toBe("/trails/summit-loop");
  expect(await back(page)).toBe("/trails");
  expect(documents.filter((method) => method !== "GET")).toEqual([]);
});

test("without script, a hosted login's second step adds its code page and each wrong code to the steps Back passes", async ({ page }) => {
  const email = newEmail();
  await registerWithEmailCodes(page, email);
  await logOut(page);
  await page.goto("/trails");
  await page.goto("/trails/summit-loop");
  await page.getByRole("banner").getByRole("link", { name: "Log in", exact: true }).click();
  await page.getByRole("link", { name: "Continue with the hosted login page" }).click();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  const code = (await latestMail(email, "login-code")).code!;
  await page.getByLabel("Login code").fill(wrongCodeFor(code));
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await page.getByLabel("Login code").fill(code);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails/summit-loop`);

  for (const step of ["code page after the wrong code", "code page", "hosted login page", "site's login page"]) {
    expect(await back(page), step).toBe("/trails/summit-loop");
    await expect(page.getByTestId("member-name"), step).toHaveText("Robin Two");
  }
  expect(await back(page)).toBe("/trails/summit-loop");
  expect(await back(page)).toBe("/trails");
});
