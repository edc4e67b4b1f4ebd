import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { e2e } from "../playwright.config";
import { AUTH_ROUTES, SITE_PAGES, loginHref } from "../lib/auth/routes";
import { logOut } from "./header-menus";
import { demoMember, platformRequests, revokeMemberSessions } from "./platform";
import { prewarmDone } from "./site-pages";

/** Signs in on the platform's hosted page: the site has just sent the browser there, or to its own login page, which links to it. */
const platformPage = new RegExp(`^${e2e.platformUrl.replace("127.0.0.1", "(127\\.0\\.0\\.1|localhost)")}`);

/** From the site's login page (where "log in" leads), on to the hosted page, and signs in there. */
async function signInOnHostedPage(page: Page) {
  await page.waitForURL((url) => url.pathname === SITE_PAGES.login || platformPage.test(url.href));
  if (new URL(page.url()).pathname === SITE_PAGES.login) await page.getByRole("link", { name: "Continue with the hosted login page" }).click();
  await expect(page).toHaveURL(platformPage);
  await page.getByLabel("E-mail").fill(demoMember.email);
  await page.getByLabel("Password").fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
}

async function sessionCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === "wms_session")?.value;
}

/** Waits until the access token issued at login is due for renewal (renewAt = lifetime - lifetime/4). */
const waitPastRenewal = (page: Page) => page.waitForTimeout((e2e.tokenTtlSeconds - e2e.tokenTtlSeconds / 4 + 1.5) * 1000);

test("a visitor is sent to log in from /account, comes back as a member, reloads, logs out", async ({ page }) => {
  await page.goto("/");
  expect(await sessionCookie(page)).toBeUndefined();
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();

  await page.goto("/account");
  await signInOnHostedPage(page);
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expect(page.getByText(demoMember.email).first()).toBeVisible();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  const cookies = await page.context().cookies();
  // Only the finished login's transaction is left, for the browser's Back button: sent only to the
  // auth handlers, never to a page.
  expect(cookies.filter((c) => c.name.startsWith("wms_txn_")).map((c) => c.path)).toEqual(["/api/auth"]);
  // Sealed, HttpOnly, SameSite=Lax, and out of the page's reach.
  const session = cookies.find((c) => c.name === "wms_session")!;
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
  expect(session.value.startsWith("Fe26.2*")).toBe(true);
  expect(session.value).not.toMatch(/OAT\.|ORT\./);
  expect(await page.evaluate(() => document.cookie)).not.toContain("wms_session");

  await page.reload();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);

  await logOut(page);
  await expect(page).toHaveURL(`${e2e.siteUrl}/`);
  await expect(page.getByTestId("member-name")).toHaveCount(0);

  // The platform session ended too: the hosted page asks for the password again.
  await page.goto("/account");
  await page.getByRole("link", { name: "Continue with the hosted login page" }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2e.platformUrl.replace("127.0.0.1", "(127\\.0\\.0\\.1|localhost)")}`));
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
  // Middleware's renewal is to find the session ended, not the browser's pre-warm.
  await prewarmDone(page);

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
  await page.goto(`${AUTH_ROUTES.callback}?code=forged&state=never-issued-state`);
  await expect(page.getByRole("heading", { name: "We couldn't sign you in" })).toBeVisible();
  await expect(page.getByText("expired or was already used")).toBeVisible();
  await expect(page.getByRole("link", { name: "Try again" })).toHaveAttribute("href", loginHref("/"));

  await page.goto(`${AUTH_ROUTES.callback}?error=server_error&error_description=nope`);
  await expect(page.getByText("cancelled or refused")).toBeVisible();
  // access_denied is the hosted page's "Back to the site": no error page, just the site.
  await page.goto(`${AUTH_ROUTES.callback}?error=access_denied&error_description=nope`);
  await expect(page).toHaveURL(`${e2e.siteUrl}/`);
  await page.goto(AUTH_ROUTES.callback);
  await expect(page.getByText("response was incomplete")).toBeVisible();
});

test("an unsafe returnTo falls back to the home page", async ({ page }) => {
  await page.goto(loginHref("//evil.example/steal"));
  await signInOnHostedPage(page);
  await expect(page).toHaveURL(`${e2e.siteUrl}/`);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});

test("a revoked access token never gives an error page: public pages answer 200, and the first read with it ends the session, with the notice", async ({
  page,
}) => {
  await page.goto("/account");
  await signInOnHostedPage(page);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  // The next page view is to find the session ended, not the browser's pre-warm.
  await prewarmDone(page);
  // Ends every platform session of the member, as opening a platform logout link would.
  expect(await revokeMemberSessions(demoMember.email)).toBeGreaterThan(0);

  // No event comes of this revocation: a public page within the session check's interval (SESSION_CHECK_INTERVAL) is served
  // on the last confirmation, and answers 200.
  expect((await page.goto("/trails"))?.status()).toBe(200);
  // A page that reads with the member's token finds it dead, renews in vain and ends the session: the login page says so.
  expect((await page.goto("/account"))?.status()).toBe(200);
  await expect(page).toHaveURL(/\/login\?returnTo=%2Faccount$/);
  await expect(page.getByRole("status")).toContainText("Your session has ended");
  await expect(page.getByTestId("member-name")).toHaveCount(0);
  expect((await page.goto("/"))?.status()).toBe(200);
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();

  // Logging in again works.
  await page.getByRole("link", { name: "Log in" }).click();
  await signInOnHostedPage(page);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});

test("another site cannot sign a member out: not by a cross-site form POST, not by linking to ?wixMemberLoggedIn=false", async ({ page }) => {
  await page.goto("/account");
  await signInOnHostedPage(page);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  const before = await sessionCookie(page);

  // A page with an opaque origin posts a form to the site: the browser sends no SameSite=Lax cookie.
  await page.goto("about:blank");
  await page.setContent(`<form method="post" action="${e2e.siteUrl}/trails"><input name="x" value="1"><button>Go</button></form>`);
  await page.getByRole("button", { name: "Go" }).click();
  await page.waitForURL(`${e2e.siteUrl}/trails`);
  expect(await sessionCookie(page)).toBe(before);

  await page.setContent(`<a href="${e2e.siteUrl}/account?wixMemberLoggedIn=false">Prize</a>`);
  await page.getByRole("link", { name: "Prize" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});

test("five abandoned logins with the longest returnTo never push the auth routes into 431", async ({ page }) => {
  const longest = `/trails?q=${"x".repeat(2000)}`;
  for (let i = 0; i < 5; i++) {
    const response = await page.goto(loginHref(longest));
    expect(response?.status()).toBe(200);
  }
  const sentToAuth = (await page.context().cookies(`${e2e.siteUrl}${AUTH_ROUTES.callback}`)).map((c) => `${c.name}=${c.value}`).join("; ");
  expect(sentToAuth.length).toBeLessThan(8 * 1024);

  const response = await page.goto(loginHref("/account"));
  expect(response?.status()).toBe(200);
  await signInOnHostedPage(page);
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});
