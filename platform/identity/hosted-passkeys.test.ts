import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { HOSTED_PAGES } from "./paths";
import { enrolPasskey, newMember, type SoftAuthenticator } from "./test-authenticator";
import { hiddenValue, passwordOnHostedPage, TestBrowser } from "./test-browser";

const PASSWORD = "Granite-ridge-walk-42";
let emails = 0;
const freshEmail = () => `hosted-passkey-${Date.now()}-${++emails}@ridgeline.example`;

/** A port free now, so the platform's public URL can name it before it listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const alertOf = (html: string) => /<div class="error" role="alert"[^>]*>([^<]*)<\/div>/.exec(html)?.[1] ?? null;
/** The request options the page hands its script. */
const passkeyOptionsOf = (html: string) => {
  const json = /<script type="application\/json" id="passkey-options">(.*?)<\/script>/.exec(html)?.[1];
  return json === undefined ? null : (JSON.parse(json) as { challenge: string; rpId: string; userVerification: string });
};

/** The hosted pages opened at http://localhost:<port>: an origin that may use the site's RP id, localhost. */
describe("hosted login page: the passkey step", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    const port = await freePort();
    platform = await startTestPlatform({ port, publicUrl: `http://localhost:${port}` });
  });
  afterAll(() => platform.close());

  /** A member with a passkey (and, when asked, an e-mail factor turned on after or before it). */
  async function memberWithPasskey(emailFactor?: "before" | "after") {
    const who = await newMember(platform, freshEmail(), PASSWORD);
    const enrolEmail = () =>
      fetch(`${platform.url}/_api/iam/factors/v1/factors`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: who.accessToken },
        body: JSON.stringify({ factor: { type: "EMAIL" }, password: PASSWORD }),
      });
    if (emailFactor === "before") expect((await enrolEmail()).status).toBe(200);
    const { authenticator, status } = await enrolPasskey(platform, who, { password: PASSWORD });
    expect(status).toBe(200);
    if (emailFactor === "after") expect((await enrolEmail()).status).toBe(200);
    return { ...who, authenticator };
  }

  /** The password step on the hosted page, up to its second step's page. */
  async function toSecondStep(email: string) {
    const step = await passwordOnHostedPage(platform.callbackUrl, { email, password: PASSWORD });
    expect(step.page.status).toBe(200);
    return step;
  }

  /** What the page's script posts: the credential the authenticator gives for the page's options, on the platform's origin. */
  function answer(browser: TestBrowser, page: { text: string }, authenticator: SoftAuthenticator, extra: Record<string, string> = {}) {
    const options = passkeyOptionsOf(page.text)!;
    const credential = authenticator.get(JSON.stringify(options), { origin: platform.config.publicUrl! });
    return post(browser, page, credential, extra);
  }
  const post = (browser: TestBrowser, page: { text: string }, credential: string, extra: Record<string, string> = {}) =>
    browser.post(`${platform.url}${HOSTED_PAGES.loginPasskey}`, {
      rs: hiddenValue(page.text, "rs"),
      csrf: hiddenValue(page.text, "csrf"),
      credential,
      ...extra,
    });

  it("leads with the passkey when it is the factor asked: its form, its script allowed by the CSP alone, a note without JavaScript", async () => {
    const who = await memberWithPasskey();
    const { page } = await toSecondStep(who.email);
    expect(page.text).toContain("<title>Use your passkey · Ridgeline Hiking Club</title>");
    expect(page.text).not.toContain(`<input id="code"`);
    expect(page.text).toMatch(/<section id="passkey" hidden>[\s\S]*<form id="passkey-form" method="post" action="\/hosted\/login\/passkey">/);
    expect(page.text).toContain(`<button type="submit">Use a passkey</button>`);
    expect(page.text).toContain('<noscript><p class="hint">Passkeys need JavaScript');
    expect(passkeyOptionsOf(page.text)).toMatchObject({ rpId: "localhost", userVerification: "preferred" });
    // No inline handlers: the one script is a file of the platform's, and the policy allows exactly it.
    expect(page.text).not.toMatch(/\son[a-z]+=/);
    const scriptUrl = /<script src="([^"]+)" defer><\/script>/.exec(page.text)![1];
    expect(scriptUrl).toMatch(new RegExp(`^http://localhost:\\d+/hosted/assets/passkey-step\\.[\\w-]{16}\\.js$`));
    const directives = Object.fromEntries(
      page.headers
        .get("content-security-policy")!
        .split("; ")
        .map((each) => [each.split(" ")[0], each]),
    );
    expect(Object.keys(directives)).toEqual(["default-src", "style-src", "script-src", "form-action", "frame-ancestors", "base-uri"]);
    expect(directives["default-src"]).toBe("default-src 'none'");
    expect(directives["script-src"]).toBe(`script-src ${scriptUrl}`);

    const script = await new TestBrowser().get(scriptUrl.replace(platform.config.publicUrl!, platform.url));
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(script.text).toContain("passkey-options");
    // Only that name: an older build's script, or any other file, is not there.
    expect((await new TestBrowser().get(`${platform.url}/hosted/assets/passkey-step.0000000000000000.js`)).status).toBe(404);
  });

  it("logs in with the member's passkey, remembering the browser when asked; the answer is no use again", async () => {
    const who = await memberWithPasskey();
    const { client, oauthData, browser, page } = await toSecondStep(who.email);
    const done = await answer(browser, page, who.authenticator, { remember: "1" });
    expect(done.status).toBe(303);
    const { code, state } = client.auth.parseFromUrl(done.location!, "query");
    expect((await client.auth.getMemberTokens(code, state, oauthData)).refreshToken.role).toBe("member");
    expect(browser.cookies.get("lp_device")).toMatch(/^[\w-]{43}$/);
    expect(platform.ctx.rememberedDevices.list(who.memberId)).toHaveLength(1);

    // Replayed at a new login (another browser): refused, and that page gets a new challenge.
    const next = await toSecondStep(who.email);
    const sameAnswer = who.authenticator.get(JSON.stringify(passkeyOptionsOf(page.text)), { origin: platform.config.publicUrl!, counter: 1 });
    const replayed = await post(next.browser, next.page, sameAnswer);
    expect([replayed.status, replayed.location]).toEqual([303, `${HOSTED_PAGES.loginCode}?rs=${hiddenValue(next.page.text, "rs")}`]);
    const shown = await next.browser.follow(replayed);
    expect(alertOf(shown.text)).toBe("That passkey did not work for this account. Try again with a passkey of this account, or use another way below.");
    expect(passkeyOptionsOf(shown.text)!.challenge).not.toBe(passkeyOptionsOf(next.page.text)!.challenge);
  });

  it("refuses another member's passkey, then a replay of the refused answer; each try gets a fresh challenge, and the right passkey then logs in", async () => {
    const who = await memberWithPasskey();
    const other = await memberWithPasskey();
    const { client, oauthData, browser, page } = await toSecondStep(who.email);
    const first = passkeyOptionsOf(page.text)!;

    const theirs = await answer(browser, page, other.authenticator);
    expect(theirs.status).toBe(303);
    const afterTheirs = await browser.follow(theirs);
    expect(alertOf(afterTheirs.text)).toBe("That passkey did not work for this account. Try again with a passkey of this account, or use another way below.");
    const second = passkeyOptionsOf(afterTheirs.text)!;
    expect(second.challenge).not.toBe(first.challenge);
    // The other ways stay offered.
    expect(afterTheirs.text).toContain("Use the recovery code");

    // The member's own answer to the used-up first challenge: refused as a replay.
    const stale = who.authenticator.get(JSON.stringify(first), { origin: platform.config.publicUrl! });
    const afterStale = await browser.follow(await post(browser, afterTheirs, stale));
    expect(alertOf(afterStale.text)).toMatch(/^That passkey did not work/);
    expect([first.challenge, second.challenge]).not.toContain(passkeyOptionsOf(afterStale.text)!.challenge);

    const done = await answer(browser, afterStale, who.authenticator);
    expect(done.status).toBe(303);
    const { code, state } = client.auth.parseFromUrl(done.location!, "query");
    expect((await client.auth.getMemberTokens(code, state, oauthData)).refreshToken.role).toBe("member");
  });

  it("takes no credential without the form's CSRF token, and a garbled one as a failed try", async () => {
    const who = await memberWithPasskey();
    const { browser, page } = await toSecondStep(who.email);
    const forged = await browser.follow(await answer(browser, page, who.authenticator, { csrf: "forged" }));
    expect(alertOf(forged.text)).toBe("This form expired. Please try again.");
    const garbled = await browser.follow(await post(browser, forged, "{not json"));
    expect(alertOf(garbled.text)).toMatch(/^That passkey did not work/);
    expect((await answer(browser, garbled, who.authenticator)).location).toMatch(/^http:\/\/localhost:3000\/api\/auth\/callback\?code=/);
  });

  it("leads with the way set up last: a passkey after e-mail codes (nothing mailed); e-mail codes after it, the passkey under another way", async () => {
    const passkeyLast = await memberWithPasskey("before");
    const mailed = platform.ctx.outbox.list(passkeyLast.email).length;
    const { browser, page: passkeyPage } = await toSecondStep(passkeyLast.email);
    expect(passkeyPage.text).toContain("Use your passkey");
    expect(passkeyPage.text).toContain("We ask for this way first because you set it up most recently");
    expect(platform.ctx.outbox.list(passkeyLast.email)).toHaveLength(mailed);
    expect(passkeyPage.text).toContain("Send the code by e-mail instead");
    const switched = await browser.follow(
      await browser.post(`${platform.url}${HOSTED_PAGES.loginCodeSendBy}`, {
        rs: hiddenValue(passkeyPage.text, "rs"),
        csrf: hiddenValue(passkeyPage.text, "csrf"),
        factorType: "EMAIL",
      }),
    );
    expect(switched.text).toContain("We sent a 6-digit code by e-mail");
    expect(passkeyOptionsOf(switched.text)).not.toBeNull();
    expect((await answer(browser, switched, passkeyLast.authenticator)).status).toBe(303);
    expect(browser.cookies.get("lp_way")).toBe("WEBAUTHN");

    const codeLast = await memberWithPasskey("after");
    const { page } = await toSecondStep(codeLast.email);
    expect(page.text).toContain("Enter your login code");
    const otherWays = page.text.indexOf("<summary>Use another way</summary>");
    expect(page.text.indexOf(`<input id="code"`)).toBeLessThan(otherWays);
    expect(otherWays).toBeLessThan(page.text.indexOf(`id="passkey-form"`));
    expect(page.text).toContain("Use one of your passkeys instead of the code.");
    // A passkey sends nothing: no "send by" button for it.
    expect(page.text).not.toContain("Send the code by e-mail instead");
  });
});

/** The hosted pages opened at http://127.0.0.1:<port>: an IP address, which may not use the RP id localhost. */
describe("hosted login page on an origin that cannot use the site's passkeys", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("says passkeys work on the site's own form, offers no passkey button or script, and takes no answer made on this origin", async () => {
    const who = await newMember(platform, freshEmail(), PASSWORD);
    const { authenticator } = await enrolPasskey(platform, who, { password: PASSWORD });
    const { browser, page } = await passwordOnHostedPage(platform.callbackUrl, { email: who.email, password: PASSWORD });
    expect(page.text).toContain("Passkeys work on the site's own login form, not on this page.");
    expect(page.text).toContain("Here, use another way below.");
    expect(page.text).not.toContain("Use a passkey</button>");
    expect(page.text).not.toContain("<script");
    expect(page.headers.get("content-security-policy")).not.toContain("script-src");
    expect(page.text).toContain("Use the recovery code");

    // An answer made on this origin to the login's own challenge (which the page does not show): refused, as a browser would refuse to make it.
    const rs = hiddenValue(page.text, "rs");
    const pending = platform.ctx.formStates.read<{ passkey: { optionsJson: string } }>({
      page: "pending-code",
      subject: rs,
      browser: browser.cookies.get("lp_csrf")!,
    });
    const credential = authenticator.get(pending!.passkey.optionsJson, { origin: platform.url });
    const refused = await browser.follow(
      await browser.post(`${platform.url}${HOSTED_PAGES.loginPasskey}`, { rs, csrf: hiddenValue(page.text, "csrf"), credential }),
    );
    expect(alertOf(refused.text)).toMatch(/^That passkey did not work/);
  });
});
