import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** Parses the web_message page's posted message out of its script. */
function postedMessage(html: string): Record<string, string> {
  const match = /var m=(\{.*?\});/.exec(html);
  if (!match) throw new Error("No posted message in page");
  return JSON.parse(match[1]);
}

describe("hosted sign-in page", () => {
  it("is an accessible form with a CSRF token, served with protective headers", async () => {
    const { authUrl } = await authUrlFor();
    expect(authUrl).toMatch(new RegExp(`^${platform.url}/hosted/login\\?rs=[A-Za-z0-9_-]+$`));
    const browser = new TestBrowser();
    const page = await browser.get(authUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.text).toContain("Ridgeline Hiking Club");
    expect(page.text).toMatch(/<label for="email">Email<\/label>\s*<input id="email"[^>]*autocomplete="username"/);
    expect(page.text).toMatch(/<label for="password">Password<\/label>\s*<input id="password"[^>]*autocomplete="current-password"/);
    expect(page.text).toMatch(/href="\/hosted\/signup\?rs=/);
    expect(hiddenValue(page.text, "csrf")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(page.headers.getSetCookie().join("\n")).toMatch(/^lp_csrf=[^;]+; Path=\/hosted; Max-Age=3600; HttpOnly; SameSite=Lax$/m);
  });

  it("shows a wrong password in place, with no code", async () => {
    const { authUrl } = await authUrlFor();
    const result = await new TestBrowser().submitForm(authUrl, { email: DEMO_MEMBER.email, password: "not-the-password" });
    expect(result.status).toBe(200);
    expect(result.location).toBeNull();
    expect(result.text).toContain('role="alert"');
    expect(result.text).toContain("That email and password do not match.");
    expect(result.text).toContain(`value="${DEMO_MEMBER.email}"`);
    expect(result.text).not.toContain("code=");
  });

  it("answers an unknown email exactly like a wrong password", async () => {
    const { authUrl } = await authUrlFor();
    const result = await new TestBrowser().submitForm(authUrl, { email: "nobody@ridgeline.example", password: DEMO_MEMBER.password });
    expect(result.status).toBe(200);
    expect(result.text).toContain("That email and password do not match.");
  });

  it("escapes what the visitor typed when it shows the form again", async () => {
    const { authUrl } = await authUrlFor();
    const result = await new TestBrowser().submitForm(authUrl, { email: `"><script>alert(1)</script>`, password: "x" });
    expect(result.status).toBe(200);
    expect(result.text).not.toContain("<script>alert(1)</script>");
    expect(result.text).toContain("&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;");
  });

  it("refuses a post without the CSRF cookie or with a wrong token, showing the form again", async () => {
    const { authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    const page = await browser.get(authUrl);
    const fields = { rs: hiddenValue(page.text, "rs"), email: DEMO_MEMBER.email, password: DEMO_MEMBER.password };
    const wrongToken = await browser.post(`${platform.url}/hosted/login`, { ...fields, csrf: "forged" });
    expect(wrongToken.status).toBe(403);
    expect(wrongToken.text).toContain("This form expired.");
    const noCookie = await new TestBrowser().post(`${platform.url}/hosted/login`, { ...fields, csrf: hiddenValue(page.text, "csrf") });
    expect(noCookie.status).toBe(403);
    expect(noCookie.location).toBeNull();
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
    expect(noRs.status).toBe(400);
  });

  it("does not accept the same sign-in link twice; Back to a finished page returns to the site", async () => {
    const { authUrl } = await authUrlFor();
    const browser = new TestBrowser();
    const form = await browser.get(authUrl);
    const first = await browser.submitForm(authUrl, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
    expect(first.status).toBe(302);
    // The browser's Back button: the page again, then the form posted again from history.
    const back = await browser.get(authUrl);
    expect(back.status).toBe(303);
    expect(back.location).toBe(`${new URL(platform.callbackUrl).origin}/`);
    const rs = hiddenValue(form.text, "rs");
    const repost = await browser.post(`${platform.url}/hosted/login`, {
      rs,
      csrf: hiddenValue(form.text, "csrf"),
      email: DEMO_MEMBER.email,
      password: DEMO_MEMBER.password,
    });
    expect(repost.text).toContain("This link was already used");
    expect(repost.text).not.toContain("code=");
  });

  it("matches the site: Log in wording, Forgot password?, a way back, and only the wrong field marked and focused", async () => {
    const { authUrl } = await authUrlFor();
    const page = await new TestBrowser().get(authUrl);
    expect(page.text).toContain("<h1>Log in</h1>");
    expect(page.text).toContain('<button type="submit">Log in</button>');
    expect(page.text).toContain(`<a href="${platform.config.siteUrl}/forgot-password">Forgot password?</a>`);
    expect(page.text).toContain(`<a href="${platform.config.siteUrl}/">Back to Ridgeline Hiking Club</a>`);
    expect(page.text).not.toMatch(/<input[^>]*aria-invalid/);
    expect(page.text).toContain("outline: 3px solid var(--green)");

    const wrong = await new TestBrowser().submitForm(authUrl, { email: DEMO_MEMBER.email, password: "not-the-password" });
    expect(wrong.text).toMatch(/<input id="email"(?![^>]*aria-invalid)[^>]*>/);
    expect(wrong.text).toMatch(/<input id="password"[^>]*aria-describedby="form-error" aria-invalid="true" autofocus>/);
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
    expect(result.status).toBe(302);
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
    expect(result.status).toBe(302);
    expect(new URL(result.location!).searchParams.get("code")).toMatch(/^OAC\./);
  });

  it("prompt=none without a session answers login_required by the response mode", async () => {
    const silent = await authUrlFor({ prompt: "none", sessionToken: "PLS.not-a-session" });
    expect(silent.sessionToken).toBeNull();
    const result = await new TestBrowser().get(silent.authUrl);
    expect(result.status).toBe(302);
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
    expect(result.status).toBe(302);
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
    const invalid = await new TestBrowser().submitForm(signupUrl, { displayName: " ", email: "not-an-email", password: "short" });
    expect(invalid.status).toBe(200);
    expect(invalid.text).toContain("Enter a display name.");
    expect(invalid.text).toContain("Enter a valid email address.");
    expect(invalid.text).toContain("Use at least 8 characters.");
    expect(invalid.text).toMatch(/<input id="displayName"[^>]*aria-invalid="true" autofocus>/);
    expect(invalid.text.match(/autofocus/g)).toHaveLength(1);
    const common = await new TestBrowser().submitForm(signupUrl, { displayName: "Pat", email: "pat@ridgeline.example", password: "password123" });
    expect(common.text).toContain("one of the most common");
    expect(common.text).toMatch(/<input id="email"(?![^>]*aria-invalid)[^>]*>/);
    const taken = await new TestBrowser().submitForm(signupUrl, { displayName: "Dana again", email: "DEMO@ridgeline.example", password: "long-enough" });
    expect(taken.status).toBe(200);
    expect(taken.text).toContain("Check your inbox");
    expect(taken.text).not.toContain("already");
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
    expect(result.status).toBe(302);
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
      expect(browser.cookies.has("lp_session")).toBe(false);
    }
  });

  it("refuses an unknown sign-out link with a page", async () => {
    const result = await new TestBrowser().get(`${platform.url}/hosted/logout?rs=nope`);
    expect(result.status).toBe(400);
    expect(result.text).toContain("This link has expired");
  });
});
