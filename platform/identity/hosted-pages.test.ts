import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";
import { OAuthStrategy } from "@wix/sdk";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";
import { getAuthUrl, hiddenValue, memberSiteClient, signInThroughHostedPage, TestBrowser } from "./test-browser";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

async function authUrlFor(options: { responseMode?: "query" | "fragment" | "web_message"; prompt?: "login" | "none"; sessionToken?: string } = {}) {
  const client = memberSiteClient();
  const oauthData = client.auth.generateOAuthData(platform.callbackUrl);
  const { authUrl, sessionToken } = await getAuthUrl(client, oauthData, { responseMode: "query", ...options });
  return { client, oauthData, authUrl, sessionToken };
}

/** Mails a reset link through the SDK, as the site's forgot-password form does; the link and its token. */
async function requestReset(email: string) {
  await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).sendPasswordResetEmail(email, `${platform.config.siteUrl}/login`);
  const [mail] = platform.ctx.outbox.list(email);
  return { link: mail.link!, recoveryToken: mail.recoveryToken! };
}

/** Parses the web_message page's posted message out of its script. */
function postedMessage(html: string): Record<string, string> {
  const match = /var m=(\{.*?\});/.exec(html);
  if (!match) throw new Error("No posted message in page");
  return JSON.parse(match[1]);
}

/** The alert of a page, or null: what a failed POST left for its GET. */
const alertOf = (html: string) => /<div class="error" role="alert"[^>]*>([^<]*)<\/div>/.exec(html)?.[1] ?? null;
/** The status message of a page (a new code went), or null. */
const statusOf = (html: string) => /<p class="status" role="status">([^<]*)<\/p>/.exec(html)?.[1] ?? null;

/** The newest verification code mailed to an address, and a code that is not it. */
const latestCode = (email: string) => platform.ctx.outbox.list(email).find((mail) => mail.kind === "verification")?.code;
const notTheCode = (email: string) => (latestCode(email) === "000000" ? "111111" : "000000");

describe("hosted sign-in page", () => {
  it("is an accessible form with a CSRF token, served with protective headers, in the site's look and words", async () => {
    const { authUrl } = await authUrlFor();
    expect(authUrl).toMatch(new RegExp(`^${platform.url}/hosted/login\\?rs=[A-Za-z0-9_-]+$`));
    const browser = new TestBrowser();
    const page = await browser.get(authUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.text).toContain("<title>Log in · Ridgeline Hiking Club</title>");
    // The site header's mark and name, and its type.
    expect(page.text).toMatch(/<a class="brand" href="[^"]*"><svg[^>]*>.*<\/svg>Ridgeline<\/a>/);
    expect(page.text).toContain(`font-family: ui-sans-serif, system-ui, "Segoe UI", Roboto, "Helvetica Neue", "DejaVu Sans", Arial, sans-serif`);
    expect(page.text).toMatch(/<label for="email">E-mail<\/label>\s*<input id="email"[^>]*autocomplete="username"/);
    expect(page.text).toMatch(/<label for="password">Password<\/label>\s*<input id="password"[^>]*autocomplete="current-password"/);
    expect(page.text).not.toMatch(/>Email</);
    expect(page.text).toMatch(/href="\/hosted\/signup\?rs=/);
    expect(hiddenValue(page.text, "csrf")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(page.headers.getSetCookie().join("\n")).toMatch(/^lp_csrf=[^;]+; Path=\/hosted; Max-Age=3600; HttpOnly; SameSite=Lax$/m);
  });

  it("answers a wrong password with a 303 to the page, which shows the error once and keeps the e-mail, never the password", async () => {
    const { authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    const result = await browser.submitForm(authUrl, { email: DEMO_MEMBER.email, password: "not-the-password" });
    expect(result.status).toBe(303);
    expect(result.location).toBe(authUrl.slice(platform.url.length));
    expect(result.text).not.toContain("not-the-password");
    const shown = await browser.follow(result);
    expect(shown.status).toBe(200);
    expect(alertOf(shown.text)).toBe("That e-mail address and password do not match. Check both, or reset the password.");
    expect(shown.text).toMatch(new RegExp(`<input id="email"[^>]*value="${DEMO_MEMBER.email}"`));
    expect(shown.text).not.toContain("not-the-password");
    expect(shown.text).not.toContain("code=");
    // Shown once: a reload is the plain form again.
    const reloaded = await browser.get(authUrl);
    expect(alertOf(reloaded.text)).toBeNull();
    expect(reloaded.text).not.toContain(DEMO_MEMBER.email);
  });

  it("keeps the message for the browser that posted: the same link in another browser shows the plain form", async () => {
    const { authUrl } = await authUrlFor();
    const result = await new TestBrowser().submitForm(authUrl, { email: DEMO_MEMBER.email, password: "not-the-password" });
    const elsewhere = await new TestBrowser().get(new URL(result.location!, authUrl).href);
    expect(alertOf(elsewhere.text)).toBeNull();
    expect(elsewhere.text).not.toContain(DEMO_MEMBER.email);
  });

  it("answers an unknown email exactly like a wrong password", async () => {
    const { authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    const result = await browser.submitForm(authUrl, { email: "nobody@ridgeline.example", password: DEMO_MEMBER.password });
    expect(result.status).toBe(303);
    expect(alertOf((await browser.follow(result)).text)).toBe("That e-mail address and password do not match. Check both, or reset the password.");
  });

  it("escapes what the visitor typed when it shows the form again", async () => {
    const { authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    const shown = await browser.follow(await browser.submitForm(authUrl, { email: `"><script>alert(1)</script>`, password: "x" }));
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain("<script>alert(1)</script>");
    expect(shown.text).toContain("&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;");
  });

  it("refuses a post without the CSRF cookie or with a wrong token, showing the form again", async () => {
    const { authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    const page = await browser.get(authUrl);
    const fields = { rs: hiddenValue(page.text, "rs"), email: DEMO_MEMBER.email, password: DEMO_MEMBER.password };
    const wrongToken = await browser.post(`${platform.url}/hosted/login`, { ...fields, csrf: "forged" });
    expect([wrongToken.status, wrongToken.location]).toEqual([303, authUrl.slice(platform.url.length)]);
    expect(alertOf((await browser.follow(wrongToken)).text)).toBe("This form expired. Please try again.");
    expect(browser.cookies.has("lp_session")).toBe(false);
    const stranger = new TestBrowser();
    const noCookie = await stranger.post(`${platform.url}/hosted/login`, { ...fields, csrf: hiddenValue(page.text, "csrf") });
    expect([noCookie.status, noCookie.location]).toEqual([303, authUrl.slice(platform.url.length)]);
    expect(stranger.cookies.has("lp_session")).toBe(false);
    // The link still works for the right browser.
    expect((await browser.submitForm(authUrl, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password })).location).toMatch(/[?&]code=OAC\./);
  });

  it("answers bad links and unreadable bodies with a page, never a 500", async () => {
    const browser = new TestBrowser();
    for (const url of [`${platform.url}/hosted/login`, `${platform.url}/hosted/login?rs=unknown`, `${platform.url}/hosted/signup?rs=`]) {
      const result = await browser.get(url);
      expect(result.status).toBe(400);
      expect(result.text).toContain("This link has expired");
    }
    const garbage = await fetch(`${platform.url}/hosted/login`, { method: "POST", headers: { "content-type": "application/xml" }, body: "<rs/>" });
    expect(garbage.status).toBe(415);
    expect(await garbage.text()).toContain("<!doctype html>");
    const noRs = await browser.post(`${platform.url}/hosted/login`, { email: "a", password: "b" });
    expect([noRs.status, noRs.location]).toEqual([303, "/hosted/login?rs="]);
    expect((await browser.follow(noRs)).status).toBe(400);
  });

  it("does not accept the same sign-in link twice; Back to a finished page returns to the site", async () => {
    const { authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    const form = await browser.get(authUrl);
    const first = await browser.submitForm(authUrl, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
    expect(first.status).toBe(303);
    // The browser's Back button: the page again, then the form posted again from history.
    const back = await browser.get(authUrl);
    expect(back.status).toBe(303);
    // To the client's callback as a declined log-in, with the state that names it, and no code.
    const answer = new URL(back.location!);
    expect(`${answer.origin}${answer.pathname}`).toBe(platform.callbackUrl);
    expect(answer.searchParams.get("error")).toBe("access_denied");
    expect(answer.searchParams.get("state")).toBeTruthy();
    expect(answer.searchParams.has("code")).toBe(false);
    const rs = hiddenValue(form.text, "rs");
    const repost = await browser.post(`${platform.url}/hosted/login`, {
      rs,
      csrf: hiddenValue(form.text, "csrf"),
      email: DEMO_MEMBER.email,
      password: DEMO_MEMBER.password,
    });
    expect([repost.status, repost.location]).toEqual([303, `/hosted/login?rs=${rs}`]);
    expect((await browser.follow(repost)).location).toBe(back.location);
  });

  it("matches the site: Log in wording, Forgot password?, and only the wrong field marked and focused", async () => {
    const { authUrl } = await authUrlFor();
    const page = await new TestBrowser().get(authUrl);
    expect(page.text).toContain("<h1>Log in</h1>");
    expect(page.text).toContain("Welcome back. Log in to see members' outings and write trail reports.");
    expect(page.text).toContain('<button type="submit">Log in</button>');
    expect(page.text).toContain(`<a href="${platform.config.siteUrl}/forgot-password">Forgot password?</a>`);
    expect(page.text).toContain("New to the club? <a");
    expect(page.text).not.toMatch(/<input[^>]*aria-invalid/);

    const browser = new TestBrowser();
    const wrong = await browser.follow(await browser.submitForm(authUrl, { email: DEMO_MEMBER.email, password: "not-the-password" }));
    expect(wrong.text).toMatch(/<input id="email"(?![^>]*aria-invalid)[^>]*>/);
    expect(wrong.text).toMatch(/<input id="password"[^>]*aria-describedby="form-error" aria-invalid="true" autofocus>/);
  });

  it("leads back to the site through the client's callback with access_denied and the request's state", async () => {
    const { client, oauthData, authUrl } = await authUrlFor();
    const page = await new TestBrowser().get(authUrl);
    const back = /<a href="([^"]*)">Back to Ridgeline Hiking Club<\/a>/.exec(page.text)![1].replaceAll("&#38;", "&");
    expect(back.startsWith(`${platform.callbackUrl}?`)).toBe(true);
    // The brand in the header leads to the same place.
    expect(page.text).toContain(`<a class="brand" href="${back.replaceAll("&", "&#38;")}">`);
    const parsed = client.auth.parseFromUrl(back, "query");
    expect(parsed).toMatchObject({ error: "access_denied", state: oauthData.state });
    expect(parsed.code).toBeFalsy();

    const fragment = await authUrlFor({ responseMode: "fragment" });
    const fragmentPage = await new TestBrowser().get(fragment.authUrl);
    const fragmentBack = /<a href="([^"]*)">Back to/.exec(fragmentPage.text)![1].replaceAll("&#38;", "&");
    expect(fragment.client.auth.parseFromUrl(fragmentBack, "fragment")).toMatchObject({ error: "access_denied", state: fragment.oauthData.state });
  });
});

describe("Post/Redirect/Get on every hosted form", () => {
  it("sign-up: invalid input comes back once on the GET page with what was typed, never the password", async () => {
    const { authUrl } = await authUrlFor();
    const signupUrl = authUrl.replace("/hosted/login", "/hosted/signup");
    const browser = new TestBrowser();
    const posted = await browser.submitForm(signupUrl, { displayName: "Pat <Peak>", email: "not-an-email", password: "hunter2" });
    expect([posted.status, posted.location]).toEqual([303, signupUrl.slice(platform.url.length)]);
    const shown = await browser.follow(posted);
    expect(alertOf(shown.text)).toContain("Enter an e-mail address like name@example.com.");
    expect(shown.text).toMatch(/<input id="email"[^>]*value="not-an-email"[^>]*aria-invalid="true" autofocus>/);
    expect(shown.text).toContain('value="Pat &#60;Peak&#62;"');
    expect(shown.text).not.toContain("hunter2");
    expect(alertOf((await browser.get(signupUrl)).text)).toBeNull();
  });

  it("reset: a weak password comes back on the reset link's page, once", async () => {
    const email = `prg-${Date.now()}@ridgeline.example`;
    const { authUrl } = await authUrlFor();
    const signupUrl = authUrl.replace("/hosted/login", "/hosted/signup");
    await new TestBrowser().submitForm(signupUrl, { displayName: "Reset Me", email, password: "long-enough-ridge" });
    const { recoveryToken, link } = await requestReset(email);
    const browser = new TestBrowser();
    const posted = await browser.submitForm(link, { password: "password123" });
    expect([posted.status, posted.location]).toEqual([303, `/hosted/reset?token=${encodeURIComponent(recoveryToken)}`]);
    const shown = await browser.follow(posted);
    expect(alertOf(shown.text)).toContain("one of the most common");
    expect(shown.text).not.toContain("password123");
    expect(alertOf((await browser.get(link)).text)).toBeNull();
  });
});

describe("platform login session", () => {
  it("sets an HttpOnly session cookie; prompt=login still shows the page, prompt=none uses the cookie", async () => {
    const { browser } = await signInThroughHostedPage(platform.callbackUrl);
    expect(browser.cookies.get("lp_session")).toMatch(/^PLS\./);

    const login = await authUrlFor({ prompt: "login" });
    expect((await browser.get(login.authUrl)).text).toContain('<form method="post" action="/hosted/login">');

    const silent = await authUrlFor({ prompt: "none" });
    const result = await browser.get(silent.authUrl);
    expect(result.status).toBe(303);
    const { code, state } = silent.client.auth.parseFromUrl(result.location!, "query");
    const tokens = await silent.client.auth.getMemberTokens(code!, state!, silent.oauthData);
    expect(tokens.refreshToken.role).toBe("member");
  });

  it("prompt=none with the session token skips the page in a browser without the cookie", async () => {
    const { browser } = await signInThroughHostedPage(platform.callbackUrl);
    const sessionToken = browser.cookies.get("lp_session")!;
    const silent = await authUrlFor({ prompt: "none", sessionToken });
    expect(silent.sessionToken).toBe(sessionToken);
    const result = await new TestBrowser().get(silent.authUrl);
    expect(result.status).toBe(303);
    expect(new URL(result.location!).searchParams.get("code")).toMatch(/^OAC\./);
  });

  it("prompt=none without a session answers login_required by the response mode", async () => {
    const silent = await authUrlFor({ prompt: "none", sessionToken: "PLS.not-a-session" });
    expect(silent.sessionToken).toBeNull();
    const result = await new TestBrowser().get(silent.authUrl);
    expect(result.status).toBe(303);
    const params = new URL(result.location!).searchParams;
    expect(params.get("error")).toBe("login_required");
    expect(params.get("state")).toBe(silent.oauthData.state);
    expect(params.get("code")).toBeNull();
  });

  it("web_message posts {code, state} flat to the parent on the site's origin only", async () => {
    const { browser } = await signInThroughHostedPage(platform.callbackUrl);
    const silent = await authUrlFor({ responseMode: "web_message", prompt: "none", sessionToken: browser.cookies.get("lp_session") });
    const page = await new TestBrowser().get(silent.authUrl);
    expect(page.status).toBe(200);
    const message = postedMessage(page.text);
    expect(Object.keys(message).sort()).toEqual(["code", "state"]);
    expect(message.state).toBe(silent.oauthData.state);
    expect(page.text).toContain(`["${platform.config.siteUrl}"].forEach(function(o){window.parent.postMessage(m,o);})`);
    expect(page.headers.get("content-security-policy")).toContain(`frame-ancestors ${platform.config.siteUrl}`);
    // The site frames it, so no header may refuse every frame.
    expect(page.headers.get("x-frame-options")).toBeNull();
    const tokens = await silent.client.auth.getMemberTokens(message.code, message.state, silent.oauthData);
    expect(tokens.refreshToken.role).toBe("member");
  });

  it("web_message without a redirect URI (direct login) exchanges without one", async () => {
    const { browser } = await signInThroughHostedPage(platform.callbackUrl);
    const client = memberSiteClient();
    const oauthData = client.auth.generateOAuthData(platform.callbackUrl);
    const created = await fetch("https://www.wixapis.com/_api/redirects-api/v1/redirect-session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        auth: {
          authRequest: {
            clientId: LOCAL_CLIENT_ID,
            codeChallenge: oauthData.codeChallenge,
            codeChallengeMethod: "S256",
            responseMode: "web_message",
            responseType: "code",
            scope: "offline_access",
            state: oauthData.state,
            sessionToken: browser.cookies.get("lp_session"),
          },
          prompt: "none",
        },
      }),
    });
    const { redirectSession } = (await created.json()) as { redirectSession: { fullUrl: string } };
    const message = postedMessage((await new TestBrowser().get(redirectSession.fullUrl)).text);
    // An empty redirectUri makes the SDK leave it out of the token request, as direct login does.
    const tokens = await client.auth.getMemberTokens(message.code, message.state, { ...oauthData, redirectUri: "" });
    expect(tokens.refreshToken.role).toBe("member");
  });
});

describe("hosted sign-up page", () => {
  it("creates a member and continues the same flow", async () => {
    const { client, oauthData, authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    const signupUrl = new URL(/href="([^"]*signup[^"]*)"/.exec((await browser.get(authUrl)).text)![1].replaceAll("&#38;", "&"), authUrl).href;
    const page = await browser.get(signupUrl);
    expect(page.text).toMatch(/<input id="password"[^>]*autocomplete="new-password"/);
    const result = await browser.submitForm(signupUrl, { displayName: "Riley <Trail> Runner", email: "Riley@Example.com", password: "switchbacks" });
    expect(result.status).toBe(303);
    const { code, state } = client.auth.parseFromUrl(result.location!, "query");
    client.auth.setTokens(await client.auth.getMemberTokens(code!, state!, oauthData));
    const { member } = await client.members.getCurrentMember({ fieldsets: ["FULL"] });
    expect(member?.profile?.nickname).toBe("Riley <Trail> Runner");
    expect(member?.profile?.slug).toBe("riley-trail-runner");
    expect(member?.loginEmail).toBe("riley@example.com");
  });

  it("shows invalid input in place, and for a taken email the same “check your inbox” as for a new one", async () => {
    const { authUrl } = await authUrlFor();
    const signupUrl = authUrl.replace("/hosted/login", "/hosted/signup");
    const invalidBrowser = new TestBrowser();
    const invalid = await invalidBrowser.follow(await invalidBrowser.submitForm(signupUrl, { displayName: " ", email: "not-an-email", password: "short" }));
    expect(invalid.status).toBe(200);
    expect(invalid.text).toContain("Enter a nickname.");
    expect(invalid.text).toContain("Enter an e-mail address like name@example.com.");
    expect(invalid.text).toContain("Use at least 8 characters.");
    // The first field at fault on the page takes the focus: the e-mail, as on the site's form.
    expect(invalid.text).toMatch(/<input id="email"[^>]*aria-invalid="true" autofocus>/);
    expect(invalid.text.match(/autofocus/g)).toHaveLength(1);
    const commonBrowser = new TestBrowser();
    const common = await commonBrowser.follow(
      await commonBrowser.submitForm(signupUrl, { displayName: "Pat", email: "pat@ridgeline.example", password: "password123" }),
    );
    expect(common.text).toContain("one of the most common");
    expect(common.text).toMatch(/<input id="email"(?![^>]*aria-invalid)[^>]*>/);
    const takenBrowser = new TestBrowser();
    const taken = await takenBrowser.follow(
      await takenBrowser.submitForm(signupUrl, { displayName: "Dana again", email: "DEMO@ridgeline.example", password: "long-enough" }),
    );
    expect(taken.status).toBe(200);
    expect(taken.text).toContain("Check your inbox");
    expect(taken.text).not.toContain("already");
  });
});

describe("with e-mail verification required", () => {
  beforeEach(() => {
    platform.ctx.settings.update({ requireEmailVerification: true });
  });
  afterEach(() => {
    platform.ctx.settings.update({ requireEmailVerification: false });
  });

  it("the hosted login asks a registration that never entered its code for one before it signs in", async () => {
    const email = `unverified-${Date.now()}@ridgeline.example`;
    const registered = await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).register({ email, password: "switchbacks-9" });
    expect(registered.loginState).toBe("EMAIL_VERIFICATION_REQUIRED");
    const { client, oauthData, authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    const posted = await browser.submitForm(authUrl, { email, password: "switchbacks-9" });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`/hosted/verify?rs=${new URL(authUrl).searchParams.get("rs")}`);
    expect(browser.cookies.has("lp_session")).toBe(false);
    // The login mailed a new code; the registration's no longer works.
    expect(platform.ctx.outbox.list(email).filter((mail) => mail.kind === "verification")).toHaveLength(2);
    const verifyUrl = new URL(posted.location!, authUrl).href;
    const page = await browser.get(verifyUrl);
    expect(page.text).toContain("<h1>Confirm your e-mail</h1>");
    expect(page.text).toContain(`We sent a code to <strong>${email}</strong>.`);
    expect(page.text).toMatch(/<label for="code">Code from the e-mail<\/label>\s*<input id="code"[^>]*autocomplete="one-time-code"/);

    const wrong = await browser.follow(await browser.submitForm(verifyUrl, { code: notTheCode(email) }));
    expect(alertOf(wrong.text)).toBe("That code is not right, or it has expired. Check the latest e-mail and try again.");
    expect(wrong.text).toMatch(/<input id="code"[^>]*aria-invalid="true" autofocus>/);
    expect(browser.cookies.has("lp_session")).toBe(false);

    const done = await browser.submitForm(verifyUrl, { code: latestCode(email)! });
    expect(done.status).toBe(303);
    const { code, state } = client.auth.parseFromUrl(done.location!, "query");
    expect((await client.auth.getMemberTokens(code!, state!, oauthData)).refreshToken.role).toBe("member");
    expect(platform.ctx.identities.findForLogin(email)!.identity.emailVerified).toBe(true);
    expect(browser.cookies.get("lp_session")).toMatch(/^PLS\./);
  });

  it("the hosted sign-up mails a code and asks for it before it continues to the site", async () => {
    const email = `new-${Date.now()}@ridgeline.example`;
    const { client, oauthData, authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    const posted = await browser.submitForm(authUrl.replace("/hosted/login", "/hosted/signup"), {
      displayName: "Sky",
      email,
      password: "switchbacks-9",
    });
    expect(posted.location).toBe(`/hosted/verify?rs=${new URL(authUrl).searchParams.get("rs")}`);
    expect(posted.location).not.toContain("code=");
    expect(browser.cookies.has("lp_session")).toBe(false);
    const [mail] = platform.ctx.outbox.list(email);
    expect(mail).toMatchObject({ kind: "verification", code: expect.stringMatching(/^\d{6}$/) });
    const done = await browser.submitForm(new URL(posted.location!, authUrl).href, { code: mail.code! });
    const { code, state } = client.auth.parseFromUrl(done.location!, "query");
    expect((await client.auth.getMemberTokens(code!, state!, oauthData)).refreshToken.role).toBe("member");
  });

  /**
   * A sign-up's code step as a person meets it: where each POST led and what the page said,
   * with the address and the redirect session left out.
   */
  async function codeStepTrace(email: string): Promise<string[]> {
    const { authUrl } = await authUrlFor();
    const rs = new URL(authUrl).searchParams.get("rs")!;
    const verifyUrl = `${platform.url}/hosted/verify?rs=${rs}`;
    const browser = new TestBrowser();
    const trace: string[] = [];
    const see = async (answer: { status: number; location: string | null; url: string; text: string }) => {
      const shown = answer.status === 303 ? await browser.follow(answer) : answer;
      const text = shown.text.replaceAll(email, "{email}");
      const heading = /<h1>([^<]*)<\/h1>/.exec(text)?.[1];
      trace.push([answer.status, answer.location?.replace(rs, "<rs>"), shown.status, heading, alertOf(text), statusOf(text)].join(" | "));
    };
    // "Resend code" as the code page posts it (or, once the page sends the person to log in, as a form kept open in another tab would).
    const resend = async () => {
      const loaded = await browser.get(verifyUrl);
      const page = loaded.status === 303 ? await browser.follow(loaded) : loaded;
      return browser.post(`${platform.url}/hosted/verify/resend`, { rs, csrf: hiddenValue(page.text, "csrf") });
    };
    await see(await browser.submitForm(authUrl.replace("/hosted/login", "/hosted/signup"), { displayName: "Sam", email, password: "switchbacks-9" }));
    for (let i = 0; i < 4; i++) await see(await browser.submitForm(verifyUrl, { code: notTheCode(email) }));
    for (let i = 0; i < 5; i++) await see(await resend());
    for (let i = 0; i < 5; i++) await see(await browser.submitForm(verifyUrl, { code: notTheCode(email) }));
    await see(await browser.get(verifyUrl));
    await see(await resend());
    return trace;
  }

  it("answers a taken address as a new one, message for message and limit for limit, and mails its owner instead", async () => {
    const fresh = `fresh-${Date.now()}@ridgeline.example`;
    const notices = () => platform.ctx.outbox.list(DEMO_MEMBER.email).filter((mail) => mail.kind === "signup-attempt").length;
    const noticesBefore = notices();
    const forNew = await codeStepTrace(fresh);
    const forTaken = await codeStepTrace(DEMO_MEMBER.email);
    expect(forTaken).toEqual(forNew);
    const wrong =
      "303 | /hosted/verify?rs=<rs> | 200 | Confirm your e-mail | That code is not right, or it has expired. Check the latest e-mail and try again. | ";
    const sent =
      "303 | /hosted/verify?rs=<rs> | 200 | Confirm your e-mail |  | We sent a new code to {email}. It replaces the previous one and works for 15 minutes.";
    expect(forNew).toEqual([
      "303 | /hosted/verify?rs=<rs> | 200 | Confirm your e-mail |  | ",
      ...Array(4).fill(wrong),
      ...Array(4).fill(sent),
      "303 | /hosted/verify?rs=<rs> | 200 | Confirm your e-mail | " +
        "We have sent as many codes as we can for now. Use the latest one, or try again in 60 minutes. | ",
      ...Array(4).fill(wrong),
      "303 | /hosted/login?rs=<rs> | 200 | Log in | Too many wrong codes, so this one no longer works. Log in again and we will send you a new one. | ",
      "303 | /hosted/login?rs=<rs> | 200 | Log in |  | ",
      "303 | /hosted/login?rs=<rs> | 200 | Log in |  | ",
    ]);
    // The new address got its code and four more; the owner of the taken one only the notice, which says what to do.
    expect(platform.ctx.outbox.list(fresh).filter((mail) => mail.kind === "verification")).toHaveLength(5);
    expect(platform.ctx.outbox.list(DEMO_MEMBER.email).filter((mail) => mail.kind === "verification")).toHaveLength(0);
    expect(notices()).toBe(noticesBefore + 1);
    expect(platform.ctx.outbox.list(DEMO_MEMBER.email)[0].text).toMatch(/log in with your password at .*\/login\n.*Forgot password/);
  });
});

describe("with a captcha required by the owner", () => {
  beforeEach(() => {
    platform.ctx.settings.update({ requireCaptcha: true });
  });
  afterEach(() => {
    platform.ctx.settings.update({ requireCaptcha: false });
  });

  const robotCheck = `<label class="check"><input type="checkbox" name="captcha" value="${LOCAL_CAPTCHA_TOKEN}" required>I am not a robot</label>`;

  it("the hosted login shows the robot check and signs in only with its answer", async () => {
    const { authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    expect((await browser.get(authUrl)).text).toContain(robotCheck);
    for (const captcha of ["", "robot"]) {
      const refused = await browser.submitForm(authUrl, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password, captcha });
      expect([refused.status, refused.location]).toEqual([303, authUrl.slice(platform.url.length)]);
      expect(browser.cookies.has("lp_session")).toBe(false);
      const shown = await browser.follow(refused);
      expect(alertOf(shown.text)).toBe("Please confirm you are not a robot, then try again.");
      expect(shown.text).toContain(robotCheck);
    }
    const answered = await browser.submitForm(authUrl, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password, captcha: LOCAL_CAPTCHA_TOKEN });
    expect(answered.location).toMatch(/[?&]code=OAC\./);
  });

  it("the hosted sign-up shows the robot check and creates no account without its answer", async () => {
    const email = `robot-${Date.now()}@ridgeline.example`;
    const { authUrl } = await authUrlFor();
    const signupUrl = authUrl.replace("/hosted/login", "/hosted/signup");
    const browser = new TestBrowser();
    expect((await browser.get(signupUrl)).text).toContain(robotCheck);
    const refused = await browser.follow(await browser.submitForm(signupUrl, { displayName: "Robo", email, password: "switchbacks-9" }));
    expect(alertOf(refused.text)).toBe("Please confirm you are not a robot, then try again.");
    expect(refused.text).toContain(`value="${email}"`);
    expect(platform.ctx.identities.findForLogin(email)).toBeNull();
    const answered = await browser.submitForm(signupUrl, { displayName: "Robo", email, password: "switchbacks-9", captcha: LOCAL_CAPTCHA_TOKEN });
    expect(answered.location).toMatch(/[?&]code=OAC\./);
  });
});

describe("hosted logout page", () => {
  async function logoutUrl(client: ReturnType<typeof memberSiteClient>, postFlowUrl: string) {
    const { logoutUrl } = await client.auth.logout(postFlowUrl);
    return logoutUrl;
  }

  it("ends the login session, revokes its tokens and returns to an allowed page", async () => {
    const { client, tokens, browser } = await signInThroughHostedPage(platform.callbackUrl);
    const sessionToken = browser.cookies.get("lp_session")!;
    const url = await logoutUrl(client, `${platform.config.siteUrl}/trails?page=2`);
    expect(url).toMatch(new RegExp(`^${platform.url}/hosted/logout\\?rs=`));
    const result = await browser.get(url);
    expect(result.status).toBe(303);
    expect(result.location).toBe(`${platform.config.siteUrl}/trails?page=2`);
    expect(browser.cookies.has("lp_session")).toBe(false);

    const refresh = await fetch("https://www.wixapis.com/oauth2/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId: LOCAL_CLIENT_ID, grantType: "refresh_token", refreshToken: tokens.refreshToken.value }),
    });
    expect(refresh.status).toBe(400);
    const silent = await authUrlFor({ prompt: "none", sessionToken });
    expect(new URL((await new TestBrowser().get(silent.authUrl)).location!).searchParams.get("error")).toBe("login_required");
  });

  it("ends the session of the member token that asked for the page, even in a browser without the cookie", async () => {
    const { client, tokens } = await signInThroughHostedPage(platform.callbackUrl);
    const result = await new TestBrowser().get(await logoutUrl(client, `${platform.config.siteUrl}/`));
    expect(result.location).toBe(`${platform.config.siteUrl}/`);
    const refresh = await fetch("https://www.wixapis.com/oauth2/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId: LOCAL_CLIENT_ID, grantType: "refresh_token", refreshToken: tokens.refreshToken.value }),
    });
    expect(refresh.status).toBe(400);
  });

  it("shows a plain signed-out page instead of redirecting to another origin", async () => {
    for (const target of ["https://evil.example/", `${platform.config.siteUrl}@evil.example/`, "//evil.example", "javascript:alert(1)"]) {
      const { client, browser } = await signInThroughHostedPage(platform.callbackUrl);
      const result = await browser.get(await logoutUrl(client, target));
      expect(result.status).toBe(200);
      expect(result.location).toBeNull();
      expect(result.text).toContain("You are logged out");
      expect(result.text).toContain(`<a href="${platform.config.siteUrl}/">Back to Ridgeline Hiking Club</a>`);
      expect(result.text).toContain("See you on the trail.");
      expect(browser.cookies.has("lp_session")).toBe(false);
    }
  });

  it("refuses an unknown sign-out link with a page", async () => {
    const result = await new TestBrowser().get(`${platform.url}/hosted/logout?rs=nope`);
    expect(result.status).toBe(400);
    expect(result.text).toContain("This link has expired");
  });
});
