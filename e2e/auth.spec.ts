import { expect, test, type Page } from "@playwright/test";
import { e2e } from "../playwright.config";
import { demoMember, platformRequests, revokeMemberSessions } from "./platform";

/** Signs in on the platform's hosted page, which the site has just redirected to. */
async function signInOnHostedPage(page: Page) {
  await expect(page).toHaveURL(new RegExp(`^${e2e.platformUrl.replace("127.0.0.1", "(127\\.0\\.0\\.1|localhost)")}`));
  await page.getByLabel("Email").fill(demoMember.email);
  await page.getByLabel("Password").fill(demoMember.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function sessionCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === "wms_session")?.value;
}

/** Waits until the access token issued at login is due for renewal (renewAt = lifetime - lifetime/4). */
const waitPastRenewal = (page: Page) => page.waitForTimeout((e2e.tokenTtlSeconds - e2e.tokenTtlSeconds / 4 + 1.5) * 1000);

test("a visitor is sent to log in from /account, comes back as a member, reloads, logs out", async ({ page }) => {
  await page.goto("/");
  const visitorCookie = await sessionCookie(page);
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();

  await page.goto("/account");
  await signInOnHostedPage(page);
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expect(page.getByText(demoMember.email)).toBeVisible();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  // Logging in replaces the visitor's session entirely.
  expect(await sessionCookie(page)).not.toBe(visitorCookie);
  expect((await page.context().cookies()).filter((c) => c.name.startsWith("wms_txn_"))).toHaveLength(0);

  await page.reload();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);

  await page.getByTestId("member-name").click();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/`);
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
  await expect(page.getByTestId("member-name")).toHaveCount(0);

  // The platform session ended too: /account asks for the password again.
  await page.goto("/account");
  await expect(page.getByLabel("Password")).toBeVisible();
});

test("logging in from the header returns to the page the visitor was on", async ({ page }) => {
  await page.goto("/trails?page=2");
  await page.getByRole("link", { name: "Log in" }).click();
  await signInOnHostedPage(page);
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails?page=2`);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});

test("a member's session survives the access token's expiry", async ({ page }) => {
  await page.goto("/account");
  await signInOnHostedPage(page);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  const before = (await platformRequests())["POST /oauth2/token"] ?? 0;

  await waitPastRenewal(page);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  expect((await platformRequests())["POST /oauth2/token"]).toBe(before + 1);
});

test("a revoked refresh token turns the member into a visitor, with a notice", async ({ page }) => {
  await page.goto("/account");
  await signInOnHostedPage(page);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);

  expect(await revokeMemberSessions(demoMember.email)).toBeGreaterThan(0);
  await waitPastRenewal(page);
  await page.goto("/trails");
  await expect(page.getByRole("status")).toContainText("Your session has ended");
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();

  // The notice is shown once.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Trails", level: 1 })).toBeVisible();
  await expect(page.getByRole("status")).toHaveCount(0);
});

test("a forged or replayed callback shows a friendly page with a way to try again", async ({ page }) => {
  await page.goto("/api/auth/callback?code=forged&state=never-issued-state");
  await expect(page.getByRole("heading", { name: "We couldn't sign you in" })).toBeVisible();
  await expect(page.getByText("expired or was already used")).toBeVisible();
  await expect(page.getByRole("link", { name: "Try again" })).toHaveAttribute("href", "/api/auth/login?returnTo=%2F");

  await page.goto("/api/auth/callback?error=access_denied&error_description=nope");
  await expect(page.getByText("cancelled or refused")).toBeVisible();
  await page.goto("/api/auth/callback");
  await expect(page.getByText("response was incomplete")).toBeVisible();
});

test("an unsafe returnTo falls back to the home page", async ({ page }) => {
  await page.goto("/api/auth/login?returnTo=//evil.example/steal");
  await signInOnHostedPage(page);
  await expect(page).toHaveURL(`${e2e.siteUrl}/`);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});
