import { expect, test, type Page } from "@playwright/test";
import { logInWithForm, publicPages, signedInPages } from "./site-pages";

/**
 * The security policy refuses nothing the site itself needs: on a full load of every page, for a
 * visitor (pages from the page cache, with script hashes) and for a member (pages rendered for
 * them, with a nonce), no `securitypolicyviolation` event fires and Chromium logs no refusal.
 * Each page is left to finish loading, lazily loaded chunks included.
 */
async function watchPolicy(page: Page): Promise<() => Promise<string[]>> {
  const logged: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) logged.push(`${new URL(page.url()).pathname}: ${message.text()}`);
  });
  await page.addInitScript(() => {
    const refusals: string[] = [];
    Object.assign(window, { __policyRefusals: refusals });
    document.addEventListener("securitypolicyviolation", (event) => refusals.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return async () => {
    const events = await page.evaluate(() => (window as unknown as { __policyRefusals: string[] }).__policyRefusals);
    return [...events.map((refusal) => `${new URL(page.url()).pathname}: ${refusal}`), ...logged.splice(0)];
  };
}

async function expectNothingRefused(page: Page, paths: string[]) {
  const refusals = await watchPolicy(page);
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(await refusals(), path).toEqual([]);
  }
}

test("a visitor's pages load with nothing refused by the security policy", async ({ page }) => {
  test.slow();
  await expectNothingRefused(page, publicPages);
});

test("a member's pages load with nothing refused by the security policy", async ({ page }) => {
  test.slow();
  await logInWithForm(page);
  await expectNothingRefused(page, signedInPages);
});
