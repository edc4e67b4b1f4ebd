import { createClient, type Descriptors, OAuthStrategy, type Tokens } from "@wix/sdk";
import { members } from "@wix/members";
import { LOCAL_CLIENT_ID } from "../config";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { siteOwnerClient, type TestPlatform } from "../testing";

/**
 * Test support: a minimal browser for the hosted pages. It keeps cookies, never follows
 * redirects (tests read `Location`), and submits forms the way a browser would.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  async get(url: string, headers: Record<string, string> = {}) {
    return this.request(url, { method: "GET", headers });
  }

  async post(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form).toString(),
    });
  }

  /** Follows a redirect the way a browser does after a form's 303: a GET of the Location, resolved against the answer's URL. */
  async follow(response: { url: string; location: string | null }) {
    if (!response.location) throw new Error(`Expected a redirect from ${response.url}`);
    return this.get(new URL(response.location, response.url).href);
  }

  /** Loads a hosted page and submits its form with the given fields, plus the hidden ones the page holds (CSRF token, rs, ...). */
  async submitForm(pageUrl: string, fields: Record<string, string>) {
    const page = await this.get(pageUrl);
    if (page.status !== 200) throw new Error(`Expected a form page, got ${page.status}: ${page.text}`);
    const action = new URL(attribute(page.text, "form", "action"), pageUrl).href;
    const hidden = Object.fromEntries([...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name, value]));
    return this.post(action, { ...hidden, ...fields });
  }

  private async request(url: string, init: RequestInit) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, ...(cookie && { cookie }) } });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      if (/max-age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { url, status: response.status, headers: response.headers, location: response.headers.get("location"), text: await response.text() };
  }
}

function attribute(html: string, tag: string, name: string): string {
  const match = new RegExp(`<${tag}\\b[^>]*\\b${name}="([^"]*)"`).exec(html);
  if (!match) throw new Error(`No ${tag}[${name}] in page`);
  return match[1];
}

export function hiddenValue(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`No hidden ${name} field in page`);
  return match[1];
}

/** The site's client, as the site builds it: OAuthStrategy plus the members module. */
export function memberSiteClient(clientId = LOCAL_CLIENT_ID) {
  return createClient({ modules: { members }, auth: OAuthStrategy({ clientId }) });
}

export type SiteClient = ReturnType<typeof memberSiteClient>;

/**
 * `auth.getAuthUrl`, typed as it behaves: the SDK's typings declare only `authUrl`, but it also
 * returns the redirect session's endpoint and session token (docs/platform/identity.md §2).
 */
export async function getAuthUrl(client: SiteClient, ...args: Parameters<SiteClient["auth"]["getAuthUrl"]>) {
  return (await client.auth.getAuthUrl(...args)) as { authUrl: string; authorizationEndpoint: string; sessionToken: string | null };
}

/**
 * The hosted login's password step with the real SDK (query response mode), followed to the page
 * that comes next (a second step's page, for a member with one); with the client and its OAuth
 * data, to finish the sign-in, and the browser holding the platform's cookies.
 */
export async function passwordOnHostedPage(redirectUri: string, credentials: { email: string; password: string }) {
  const client = memberSiteClient();
  const oauthData = client.auth.generateOAuthData(redirectUri);
  const { authUrl } = await client.auth.getAuthUrl(oauthData, { responseMode: "query" });
  const browser = new TestBrowser();
  const page = await browser.follow(await browser.submitForm(authUrl, credentials));
  return { client, oauthData, browser, page };
}

/**
 * Runs the whole hosted sign-in with the real SDK (query response mode) and returns the
 * client holding the member's tokens, plus the browser that holds the platform session cookie.
 */
export async function signInThroughHostedPage(
  redirectUri: string,
  credentials: { email: string; password: string } = DEMO_MEMBER,
): Promise<{ client: SiteClient; tokens: Tokens; browser: TestBrowser }> {
  const client = memberSiteClient();
  const oauthData = client.auth.generateOAuthData(redirectUri);
  const { authUrl } = await client.auth.getAuthUrl(oauthData, { responseMode: "query" });
  const browser = new TestBrowser();
  const submitted = await browser.submitForm(authUrl, { email: credentials.email, password: credentials.password });
  if (submitted.status !== 303 || !submitted.location) throw new Error(`Sign-in did not redirect: ${submitted.status}`);
  const { code, state } = client.auth.parseFromUrl(submitted.location, "query");
  const tokens = await client.auth.getMemberTokens(code, state, oauthData);
  client.auth.setTokens(tokens);
  return { client, tokens, browser };
}

/**
 * Both demo members signed in through the hosted page, as clients of the given modules, with their
 * ids, and the site owner's client of the same modules.
 */
export async function demoMembersWith<M extends Descriptors>(platform: TestPlatform, modules: M) {
  const asMember = async (credentials: { email: string; password: string }) =>
    createClient({ modules, auth: (await signInThroughHostedPage(platform.callbackUrl, credentials)).client.auth });
  const idOf = (email: string) => platform.ctx.identities.findForLogin(email)!.identity.id;
  return {
    admin: siteOwnerClient(platform.config.apiKey, modules),
    dana: await asMember(DEMO_MEMBER),
    rowan: await asMember(SECOND_DEMO_MEMBER),
    danaId: idOf(DEMO_MEMBER.email),
    rowanId: idOf(SECOND_DEMO_MEMBER.email),
  };
}
