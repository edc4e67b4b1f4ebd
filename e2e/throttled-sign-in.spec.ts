import { expect as baseExpect, test } from "./test";
import type { Page } from "@playwright/test";
import { PREWARM_STORAGE_KEY } from "../lib/auth/prewarm-schedule";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { accountMenuSummary, logOut, openMenu } from "./header-menus";
import { holdPageScripts, hydrated } from "./hydration";
import { demoMember, revokeMemberSessions } from "./platform";
import { watchFetchesTo, watchPolicy } from "./policy-watch";
import { prewarmDone, submitLogin } from "./site-pages";

/*
 * Every way into and out of a session that crosses to the platform's origin, on a slow phone: the
 * CPU slowed 6×, so pages hydrate late and the App Router is mid-way through
 * its prefetches when the member acts. A cross-origin redirect must be navigated, never fetched:
 * the page's policy allows fetches to the site only (connect-src 'self'), so a fetch that a
 * redirect takes to the platform is refused (issue 28, item 13). Each journey ends with no policy
 * refusal, no fetch to the platform, and no fetch the router had to give up for a full navigation.
 */

/** Each page takes seconds on the slowed CPU. */
const expect = baseExpect.configure({ timeout: 20_000 });

const platformOrigin = new URL(e2e.platformUrl).origin;
const onPlatform = (url: URL) => url.origin === platformOrigin || url.origin === platformOrigin.replace("127.0.0.1", "localhost");

async function slowPhone(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
}

/** Watches the page from now on; the returned check says nothing was refused or fetched across. */
async function watchCrossings(page: Page): Promise<() => void> {
  const refusals = await watchPolicy(page);
  const fetches = watchFetchesTo(page, platformOrigin);
  return () => expect([...refusals(), ...fetches()]).toEqual([]);
}

/** On the platform's hosted login page, as a member signs in there. */
async function signInOnHostedPage(page: Page) {
  await page.waitForURL(onPlatform);
  await page.getByLabel("E-mail").fill(demoMember.email);
  await page.getByLabel("Password").fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
}

const memberName = (page: Page) => page.getByTestId("member-name");

/** The App Router Next.js puts on the page's window, the one its links and `useRouter()` use. */
type AppWindow = Window & { next?: { router: { push: (href: string) => void } } };

test("the site's login form sent before hydration, the hosted login from the header and its way back, logout, a members' page's login", async ({ page }) => {
  await slowPhone(page);
  const nothingCrossed = await watchCrossings(page);

  // Sent before the page's script has run: the form posts natively, and the page hydrates meanwhile.
  const release = await holdPageScripts(page);
  await page.goto(`${SITE_PAGES.login}?returnTo=%2Faccount`, { waitUntil: "domcontentloaded" });
  await submitLogin(page, demoMember.email, demoMember.password);
  release();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(memberName(page)).toHaveText(demoMember.name);
  await prewarmDone(page);
  await (await openMenu(accountMenuSummary(page))).getByRole("link", { name: "Members' outings" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/member-outings`);
  await logOut(page);

  // The header's Log in, on to the hosted page, back to the site from there, then in for real.
  await page.goto("/trails?page=2");
  await page.getByRole("banner").getByRole("link", { name: "Log in", exact: true }).click();
  await page.getByRole("link", { name: "Continue with the hosted login page" }).click();
  await page.waitForURL(onPlatform);
  await page.getByRole("banner").getByRole("link").first().click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails?page=2`);
  await page.getByRole("banner").getByRole("link", { name: "Log in", exact: true }).click();
  await page.getByRole("link", { name: "Continue with the hosted login page" }).click();
  await signInOnHostedPage(page);
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails?page=2`);
  await expect(memberName(page)).toHaveText(demoMember.name);
  await logOut(page);

  // A members' page sends a visitor to log in, and the login comes back to it.
  await page.goto("/member-outings/sunrise-on-the-summit");
  await expect(page).toHaveURL(new RegExp(`^${e2e.siteUrl}${SITE_PAGES.login}\\?returnTo=`));
  await submitLogin(page, demoMember.email, demoMember.password);
  await expect(page).toHaveURL(`${e2e.siteUrl}/member-outings/sunrise-on-the-summit`);
  await expect(memberName(page)).toHaveText(demoMember.name);
  nothingCrossed();
});

/** The site forgets the browser (its own cookies only): the platform's pages, on the same host name, still know it. */
const forgetSiteSession = (page: Page) => page.context().clearCookies({ name: /^wms_/ });

test("a session ended elsewhere, found by a client-side navigation and by the pre-warm; wixMemberLoggedIn=true, by the router and by a document", async ({
  page,
}) => {
  await slowPhone(page);
  const nothingCrossed = await watchCrossings(page);

  // Signed in on the hosted page, so the platform's own pages know the browser too.
  await page.goto(SITE_PAGES.login);
  await page.getByRole("link", { name: "Continue with the hosted login page" }).click();
  await signInOnHostedPage(page);
  await expect(memberName(page)).toHaveText(demoMember.name);
  await prewarmDone(page);

  // Ended elsewhere; the member then opens their account by the header's menu (the App Router's fetch).
  await revokeMemberSessions(demoMember.email);
  await (await openMenu(accountMenuSummary(page))).getByRole("link", { name: "Account" }).click();
  // The account's read with the dead token is refused, a renewal is refused too, and the session ends: the browser goes
  // on to log in (not keeping the header that names the member), with a page that says why.
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.login}?returnTo=%2Faccount`);
  await expect(page.getByTestId("site-notice")).toContainText("Your session has ended");
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in", exact: true })).toBeVisible();

  // Back from a hosted page that says the member logged in there (the platform still knows the
  // browser, the site does not): the site signs in silently. Reached by the App Router, as by a link in a page or a
  // script's router.push, its fetch is told to load the page as a document rather than following
  // the redirects to the platform.
  await forgetSiteSession(page);
  await hydrated(page.getByRole("banner").getByRole("link", { name: "Log in", exact: true }));
  await page.evaluate(() => (window as AppWindow).next!.router.push("/outings?wixMemberLoggedIn=true"));
  await expect(page).toHaveURL(`${e2e.siteUrl}/outings`);
  await expect(memberName(page)).toHaveText(demoMember.name);
  // And as the browser arrives from the hosted page: a document.
  await forgetSiteSession(page);
  await page.goto("/trails?wixMemberLoggedIn=true");
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails`);
  await expect(memberName(page)).toHaveText(demoMember.name);

  // "Sign out everywhere" in the Studio does what this does; the next pre-warm finds it out.
  await revokeMemberSessions(demoMember.email);
  await page.evaluate((key) => localStorage.removeItem(key), PREWARM_STORAGE_KEY);
  await page.goto("/regions");
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in", exact: true })).toBeVisible();
  nothingCrossed();
});
