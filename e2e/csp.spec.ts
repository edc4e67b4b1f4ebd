import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { watchPolicy } from "./policy-watch";
import { logInWithForm, publicPages, signedInPages } from "./site-pages";

/**
 * The security policy refuses nothing the site itself needs: on a full load of every page, for a
 * visitor (pages from the page cache, with script hashes) and for a member (pages rendered for
 * them, with a nonce), no `securitypolicyviolation` event fires and Chromium logs no refusal.
 * Each page is left to finish loading, lazily loaded chunks included.
 */
async function expectNothingRefused(page: Page, paths: string[]) {
  const refusals = await watchPolicy(page);
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(refusals(), path).toEqual([]);
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
