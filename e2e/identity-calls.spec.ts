import { execFileSync } from "node:child_process";
import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { PREWARM_STORAGE_KEY } from "../lib/auth/prewarm-schedule";
import { AUTH_ROUTES, SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { demoMember, latestMail, setPlatformFaults, setPlatformSettings } from "./platform";
import { STRONG_PASSWORD, newEmail, submitLogin } from "./site-pages";

// Issue 20's identity calls in a real browser: "Resend code", a member who must set a new
// password, and the session pre-warm (docs/auth-pitfalls.md).

async function register(page: Page, email: string, nickname: string) {
  await page.goto(SITE_PAGES.register);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel("Nickname").fill(nickname);
  await page.getByRole("button", { name: "Create account" }).click();
}

test.afterEach(async () => {
  await setPlatformSettings({ requireEmailVerification: false, requireOwnerApproval: false, requireCaptcha: false });
  await setPlatformFaults([]);
});

test("the verify page resends the code, and the new one works", async ({ page }) => {
  await setPlatformSettings({ requireEmailVerification: true });
  const email = newEmail("resend");
  await register(page, email, "Robin S");
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.verify}`);
  const first = await latestMail(email, "verification");

  await page.getByRole("button", { name: "Resend code" }).click();
  await expect(page.getByRole("status")).toContainText(`We sent a new code to ${email}`);
  const second = await latestMail(email, "verification");
  expect(second.id).not.toBe(first.id);

  await page.getByLabel("Code from the e-mail").fill((await latestMail(email, "verification")).code!);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("member-name")).toHaveText("Robin S");
});

/**
 * What a person reads on the verify page through five "Resend code" presses, then five codes
 * (the address itself written as EMAIL, as it differs between the two accounts). Few enough that
 * the whole run stays within the site's limits per client address (all tests share one).
 */
async function verifyPageAnswers(page: Page, email: string, codeToType: () => Promise<string>): Promise<string[]> {
  const answers: string[] = [];
  const read = async (form: ReturnType<Page["locator"]>, button: string) => {
    const answered = page.waitForResponse((response) => response.request().method() === "POST" && response.url().endsWith(SITE_PAGES.verify));
    await form.getByRole("button", { name: button }).click();
    await answered;
    await expect(page.locator('form[aria-busy="true"]')).toHaveCount(0);
    answers.push((await form.innerText()).replaceAll(email, "EMAIL").trim());
  };
  const [codeForm, resendForm] = [
    page.locator("form").filter({ has: page.getByRole("button", { name: "Confirm" }) }),
    page.locator("form").filter({ has: page.getByRole("button", { name: "Resend code" }) }),
  ];
  for (let press = 0; press < 5; press++) await read(resendForm, "Resend code");
  for (let tried = 0; tried < 5; tried++) {
    await page.getByLabel("Code from the e-mail").fill(await codeToType());
    await read(codeForm, "Confirm");
  }
  return answers;
}

test("the page a taken address leads to answers as a new account's does: resend for resend, code for code", async ({ page, browser }) => {
  await setPlatformSettings({ requireEmailVerification: true });
  const email = newEmail("decoy-twin");
  await register(page, email, "Robin T");
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.verify}`);
  // Always a wrong code for the new account, whichever its latest is.
  const real = await verifyPageAnswers(page, email, async () => ((await latestMail(email, "verification")).code === "000000" ? "111111" : "000000"));

  // An address with an account (here one waiting for its own code), signed up for again by someone else.
  const taken = newEmail("decoy-taken");
  const owner = await browser.newPage({ baseURL: e2e.siteUrl });
  await register(owner, taken, "Robin Owner");
  await expect(owner).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.verify}`);
  await owner.close();
  const stranger = await browser.newPage({ baseURL: e2e.siteUrl });
  await register(stranger, taken, "Someone Else");
  await expect(stranger).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.verify}`);
  const decoy = await verifyPageAnswers(stranger, taken, async () => "000000");
  await stranger.close();

  expect(decoy).toEqual(real);
  // What they both said: four new codes, then none for an hour; four wrong codes, then the code is used up.
  expect(real[0]).toContain("We sent a new code to EMAIL");
  expect(real[4]).toContain("We have sent as many codes as we can for now. Use the latest one, or ask again in 60 minutes.");
  expect(real[5]).toContain("That code is not right");
  expect(real[9]).toContain("Too many wrong codes");
});

test("a member whose owner required a new password is sent to reset it, and the mailed link lets them in again", async ({ page }) => {
  const email = newEmail("must-reset");
  await register(page, email, "Robin N");
  await expect(page.getByTestId("member-name")).toHaveText("Robin N");

  execFileSync("npx", ["tsx", "platform/cli.ts", "require-reset", email], { env: { ...process.env, LOCAL_PLATFORM_DATA_DIR: e2e.dataDir }, stdio: "pipe" });
  await page.context().clearCookies();
  await page.goto(SITE_PAGES.login);
  await submitLogin(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(new RegExp(`${SITE_PAGES.forgotPassword}\\?reason=new-password$`));
  await expect(page.getByRole("status")).toContainText("This account needs a new password before you can log in");

  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status").last()).toContainText("If an account exists for that address");
  await page.goto((await latestMail(email, "password-reset")).link!);
  await page.getByLabel("New password").fill("alpine-meadow-77");
  await page.getByRole("button", { name: /set|save|change/i }).click();
  await expect(page.getByRole("status")).toContainText("Your new password is set");
  await submitLogin(page, email, "alpine-meadow-77");
  await expect(page.getByTestId("member-name")).toHaveText("Robin N");
});

test.describe("session pre-warm", () => {
  async function logInAsDemo(page: Page) {
    await page.goto(SITE_PAGES.login);
    await submitLogin(page, demoMember.email, demoMember.password);
    await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
  }

  test("runs once for a signed-in member, loading the platform's page in a hidden frame, and not again within 7 days", async ({ page }) => {
    const asked: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === AUTH_ROUTES.prewarm) asked.push(request.method());
    });
    // The log-in itself passes through the platform too, in the page; the pre-warm is the platform page loaded in a frame.
    const framed = page.waitForResponse(
      (response) => response.url().startsWith(`${e2e.platformUrl}/hosted/login?rs=`) && response.request().frame().parentFrame() !== null,
    );
    await logInAsDemo(page);
    expect((await framed).status()).toBe(200);
    await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), PREWARM_STORAGE_KEY)).toMatch(/^\d{13}$/);
    expect(asked).toEqual(["POST"]);
    // The frame is gone once loaded.
    await expect(page.locator("iframe[title='Session pre-warm']")).toHaveCount(0);

    await page.goto("/trails");
    await expect(page.getByTestId("member-name")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("member-name")).toBeVisible();
    expect(asked).toEqual(["POST"]);

    // Eight days later it is due again.
    await page.evaluate((key) => localStorage.setItem(key, String(Date.now() - 8 * 24 * 60 * 60 * 1000)), PREWARM_STORAGE_KEY);
    await page.goto("/");
    await expect.poll(() => asked.length).toBe(2);
  });

  test("a failure is only logged ('No redirect URL found'); the page works and it is tried again later", async ({ page }) => {
    await logInAsDemo(page);
    await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), PREWARM_STORAGE_KEY)).not.toBeNull();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.evaluate((key) => localStorage.removeItem(key), PREWARM_STORAGE_KEY);
    await setPlatformFaults([{ pathPrefix: "/_api/redirects-api/", errorRate: 1, errorStatus: 500 }]);
    await page.goto("/trails");
    await expect.poll(() => errors.find((text) => text.includes("Error during redirect session pre-warm"))).toContain("No redirect URL found");
    await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
    expect(await page.evaluate((key) => localStorage.getItem(key), PREWARM_STORAGE_KEY)).toBeNull();
  });
});
