import type { CDPSession, Page } from "@playwright/test";
import { OAuthStrategy } from "@wix/sdk";
import { LOCAL_CLIENT_ID, routeWixApis } from "@ridgeline/platform-contract";
import { expect, test } from "./test";
import { SoftAuthenticator } from "../platform/identity/test-authenticator";
import { SITE_CALLBACK_PATH } from "../platform/oauth/clients";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { latestMail } from "./platform";
import { screenshot } from "./screenshots";
import {
  addPasskey,
  logInOnHostedPage,
  logInWithPassword,
  newEmail,
  password,
  platformPage,
  registerAndLand,
  submitWithPassword,
  unfold,
  virtualAuthenticator,
} from "./two-step";

// Passkeys on the site's own forms, with Chromium's virtual authenticator (the CDP WebAuthn
// domain) standing in for the member's device: it answers the browser's prompts by itself.

/** Puts the authenticator's only passkey back with another signature counter, as a copied or restored key would answer. */
async function setSignCount({ cdp, authenticatorId }: { cdp: CDPSession; authenticatorId: string }, signCount: number) {
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  const [credential] = credentials;
  await cdp.send("WebAuthn.removeCredential", { authenticatorId, credentialId: credential.credentialId });
  await cdp.send("WebAuthn.addCredential", { authenticatorId, credential: { ...credential, signCount } });
}

async function atPasskeyStep(page: Page, email: string) {
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await expect(page.getByRole("heading", { name: "Use your passkey" })).toBeVisible();
}

test("a member adds a passkey on the account page, logs in with it, is refused a replayed one, and removes it", async ({ page, browser }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  const authenticator = await virtualAuthenticator(page);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  const passkeys = twoStep.getByRole("region", { name: "Passkeys" });
  await expect(passkeys).toContainText("You have no passkey yet.");

  // The password first, as for every change to two-step sign-in.
  await unfold(passkeys.getByLabel("Ask for my device's PIN, fingerprint or face every time"));
  await passkeys.getByLabel("Ask for my device's PIN, fingerprint or face every time").check();
  await submitWithPassword(page, "Add a passkey", "not-my-password");
  await expect(passkeys.getByText("That is not your password.")).toBeVisible();
  // The first passkey brings recovery codes, shown this once on their own page, which says the passkey is added.
  expect(await addPasskey(page, "Test laptop")).toHaveLength(10);
  await unfold(passkeys.getByLabel("Name of the passkey"));
  // The form starts afresh: the default name, and no password left in it.
  const addForm = passkeys.locator("form").filter({ has: page.getByRole("button", { name: "Add a passkey" }) });
  await expect(addForm.getByLabel("Name of the passkey")).toHaveValue("My passkey");
  await expect(addForm.getByLabel("Your password")).toHaveValue("");
  // The member's choice holds for all their passkeys: the page says so, and the next one starts with it.
  await expect(passkeys).toContainText("Logins with your passkeys ask for your device's PIN, fingerprint or face every time.");
  await expect(addForm.getByLabel("Ask for my device's PIN, fingerprint or face every time")).toBeChecked();
  const list = passkeys.getByRole("list", { name: "Your passkeys" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText(/Test laptop, added on \d+ \w+ \d{4}, last used never/);
  await screenshot(page, "account-passkeys", passkeys);
  // One passkey per device: the browser refuses a second one for the same account, and the page says so.
  await passkeys.getByLabel("Name of the passkey").fill("Same laptop");
  await submitWithPassword(page, "Add a passkey");
  const already = passkeys.getByRole("alert").filter({ hasText: "This device already holds a passkey for your account." });
  await expect(already).toBeVisible();
  await expect(page.locator(":focus")).toContainText("This device already holds a passkey");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  // E-mail codes too: the login then offers them as another way.
  await submitWithPassword(page, "Turn on codes by e-mail");
  // The passkey is older, so the confirmation says it is still asked first.
  await expect(
    twoStep.getByText(
      "Two-step sign-in is on for codes by e-mail. Your logins ask first for a passkey; " +
        "to be asked for a code we e-mail you first on this browser, choose it under “Ask first for”.",
    ),
  ).toBeVisible();
  await logOut(page);

  // The passkey is the member's first factor: the second step leads with it, and sends nothing.
  await atPasskeyStep(page, email);
  await expect(page.getByRole("button", { name: "Send the code by e-mail instead" })).toBeVisible();
  await page.getByText("Use another way").click();
  await expect(page.getByLabel("Recovery code")).toBeVisible();
  await expect(page.getByLabel("Login code")).toHaveCount(0);
  await screenshot(page, "login-passkey");
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(page.getByTestId("member-name")).toHaveText("Robin Two");
  await expect(list).toContainText(/Test laptop, added on .*, last used on \d+ \w+ \d{4}/);

  // Without JavaScript the step says so, and the other ways stay on the page.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await atPasskeyStep(plain, email);
  await expect(plain.getByText("Using a passkey needs JavaScript and a browser that supports passkeys.")).toBeVisible();
  await expect(plain.getByRole("button", { name: "Use a passkey" })).toHaveCount(0);
  await plain.getByRole("button", { name: "Send the code by e-mail instead" }).click();
  await plain.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await plain.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(plain).toHaveURL(`${e2e.siteUrl}/account`);
  // The account page lists the passkey with its Remove form, and says what adding one needs instead of a dead button.
  const plainPasskeys = plain.getByRole("region", { name: "Passkeys" });
  await unfold(plainPasskeys.getByRole("button", { name: "Remove Test laptop", includeHidden: true }));
  await expect(plainPasskeys.getByRole("button", { name: "Remove Test laptop" })).toBeVisible();
  await expect(plainPasskeys).toContainText("Adding a passkey needs JavaScript and a browser that supports passkeys.");
  await expect(plainPasskeys.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
  await noScript.close();
  await logOut(page);

  // A counter that went back (a copied passkey, a replayed answer) is refused; the next press has a fresh request.
  await atPasskeyStep(page, email);
  await setSignCount(authenticator, 0);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "Your passkey was not accepted" });
  await expect(refused).toBeVisible();
  await expect(page.locator(":focus")).toContainText("Your passkey was not accepted");
  await expect(page.getByRole("button", { name: "Send the code by e-mail instead" })).toBeVisible();
  await setSignCount(authenticator, 1000);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await logOut(page);

  // A device without the passkey: the prompt finds none; the member has the code e-mailed instead.
  await atPasskeyStep(page, email);
  await authenticator.cdp.send("WebAuthn.clearCredentials", { authenticatorId: authenticator.authenticatorId });
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "No passkey was used" })).toBeVisible();
  await page.getByRole("button", { name: "Send the code by e-mail instead" }).click();
  await expect(page.getByRole("heading", { name: "Enter your login code" })).toBeVisible();
  // The member still has a passkey: the code's page offers it too, under "Use another way".
  await page.getByText("Use another way").click();
  await expect(page.getByRole("button", { name: "Use a passkey" })).toBeVisible();
  await page.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);

  // Removing needs the password, then the list is empty.
  await submitWithPassword(page, "Remove Test laptop", "not-my-password");
  await expect(list.getByText("That is not your password.")).toBeVisible();
  await submitWithPassword(page, "Remove Test laptop");
  await expect(passkeys.getByRole("status").filter({ hasText: "That passkey is removed." })).toBeVisible();
  await expect(passkeys).toContainText("You have no passkey yet.");
});

test("the hosted login page takes the passkey made on the site, and remembers the browser when asked", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  await virtualAuthenticator(page);
  await addPasskey(page, "Hosted laptop");
  await logOut(page);

  // The platform's page, on its own origin, runs the prompt for the site's relying party (SITE_URL's host).
  await logInOnHostedPage(page, email);
  await expect(page.getByRole("heading", { name: "Use your passkey" })).toBeVisible();
  await expect(page).toHaveURL(platformPage);
  await screenshot(page, "hosted-login-passkey");
  await page.getByLabel("Remember this device for 30 days").first().check();
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2e.siteUrl}/`));
  await expect(page.getByTestId("member-name")).toHaveText("Robin Two");
  await page.goto("/account");
  await expect(page.getByRole("region", { name: "Passkeys" })).toContainText(/Hosted laptop, added on .*, last used on \d+ \w+ \d{4}/);
  await logOut(page);

  // Remembered: the next hosted login asks for no second step.
  await logInOnHostedPage(page, email);
  await expect(page).toHaveURL(new RegExp(`^${e2e.siteUrl}/`));
  await expect(page.getByTestId("member-name")).toHaveText("Robin Two");
});

/** The SDK's calls to Wix, routed to the local platform while `call` runs. */
async function onPlatform<T>(call: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = routeWixApis(e2e.platformUrl, original);
  try {
    return await call();
  } finally {
    globalThis.fetch = original;
  }
}

/**
 * A new member made straight on the platform, and a live access token of theirs whenever asked
 * (the e2e platform's tokens last 20 s): the session token exchanged for a code without a page
 * (`prompt: "none"`, as the site's own forms do), then for tokens, renewed as they run out.
 */
async function memberOnPlatform(email: string): Promise<{ accessToken(): Promise<string> }> {
  const auth = OAuthStrategy({ clientId: LOCAL_CLIENT_ID });
  let tokens = await onPlatform(async () => {
    const { sessionToken } = ((await auth.register({ email, password })) as { data: { sessionToken: string } }).data;
    const oauthData = auth.generateOAuthData(`${e2e.siteUrl}${SITE_CALLBACK_PATH}`);
    const urlOptions = { prompt: "none", responseMode: "query", sessionToken } as Parameters<typeof auth.getAuthUrl>[1];
    const { authUrl } = await auth.getAuthUrl(oauthData, urlOptions);
    const answer = await fetch(authUrl, { redirect: "manual" });
    const { code, state } = auth.parseFromUrl(answer.headers.get("location")!, "query");
    return auth.getMemberTokens(code, state, oauthData);
  });
  return {
    async accessToken() {
      if (tokens.accessToken.expiresAt * 1000 - Date.now() < 10_000) tokens = await onPlatform(() => auth.renewToken(tokens.refreshToken));
      return tokens.accessToken.value;
    },
  };
}

/** A passkey added over the platform's API by a software authenticator, as the member's own devices would add it. */
async function addPasskeyOverApi(member: { accessToken(): Promise<string> }, authenticator: SoftAuthenticator, name: string) {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${e2e.platformUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: await member.accessToken() },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as { challengeId: string; publicKeyCredentialCreationOptionsJson: string };
  };
  const { challengeId, publicKeyCredentialCreationOptionsJson } = await post("/_api/iam/factors/v1/passkeys/registration-options", { password });
  await post("/_api/iam/factors/v1/passkeys", { challengeId, credential: authenticator.create(publicKeyCredentialCreationOptionsJson), name });
}

test("a member with 50 passkeys of the longest ids logs in with one on the site: the pending login's cookie stays small", async ({ page }) => {
  const email = newEmail();
  const member = await memberOnPlatform(email);
  // 768 bytes: the longest id the platform takes (1,024 characters of base64url).
  const authenticators = Array.from({ length: 50 }, () => new SoftAuthenticator(e2e.siteUrl, { idBytes: 768 }));
  for (const [index, authenticator] of authenticators.entries()) await addPasskeyOverApi(member, authenticator, `Key ${index + 1}`);

  // The browser holds the last of them.
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  const held = authenticators.at(-1)!;
  await cdp.send("WebAuthn.addCredential", {
    authenticatorId,
    credential: {
      credentialId: held.credentialId.toString("base64"),
      isResidentCredential: false,
      rpId: "localhost",
      privateKey: held.privateKeyPkcs8,
      signCount: 0,
    },
  });

  const setCookies: string[] = [];
  page.on("response", async (response) => {
    for (const { name, value } of await response.headersArray()) if (name.toLowerCase() === "set-cookie") setCookies.push(value);
  });
  await atPasskeyStep(page, email);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  // Browsers keep no cookie past 4,096 bytes; the pending login's was 69 KB before.
  expect(setCookies.length).toBeGreaterThan(0);
  for (const cookie of setCookies) expect(cookie.length, cookie.slice(0, 40)).toBeLessThan(2500);
});
