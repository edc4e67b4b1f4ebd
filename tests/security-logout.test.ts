import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleCallback } from "@/lib/auth/callback";
import { readSession } from "@/lib/auth/session-store";
import { handleLogin } from "@/lib/auth/login";
import { handleLogout } from "@/lib/auth/logout";
import { AUTH_ROUTES } from "@/lib/auth/routes";
import { LOCAL_CLIENT_ID } from "@ridgeline/platform-contract";
import { TestBrowser } from "@/platform/identity/test-browser";
import { DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";
import { CookieJar } from "./support/cookie-jar";

/**
 * The logout attack of issue 19: after `POST /api/auth/logout` a browser that never follows the
 * platform redirect left the member's tokens alive. Now the server revokes them itself.
 */

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const site = (path: string) => `http://localhost:3000${path}`;

async function signedInJar(): Promise<{ jar: CookieJar; browser: TestBrowser }> {
  const jar = new CookieJar();
  const login = await handleLogin(jar.request(site(`${AUTH_ROUTES.login}?returnTo=%2Faccount`)));
  jar.apply(login);
  const browser = new TestBrowser();
  const submitted = await browser.submitForm(login.headers.get("location")!, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
  jar.apply(await handleCallback(jar.request(submitted.location!)));
  return { jar, browser };
}

const refresh = (refreshToken: string) =>
  fetch("https://www.wixapis.com/oauth2/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ clientId: LOCAL_CLIENT_ID, grantType: "refresh_token", refreshToken }),
  });

describe("POST /api/auth/logout", () => {
  it("revokes the member's access and refresh tokens on the platform, though the browser never follows the redirect", async () => {
    const { jar } = await signedInJar();
    const session = (await readSession(jar.request(site("/")).cookies))!;
    expect(session.role).toBe("member");
    expect(platform.ctx.tokens.resolveAccess(session.accessToken)).not.toBeNull();

    const response = await handleLogout(jar.request(site(AUTH_ROUTES.logout), { method: "POST", headers: { origin: "http://localhost:3000" } }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(new RegExp(`^${platform.url}/hosted/logout\\?rs=`));
    // The page the logout page returns to says so.
    expect(response.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^wms_notice=logged-out;/));

    const read = await fetch("https://www.wixapis.com/members/v1/members/my", { headers: { authorization: session.accessToken } });
    expect(read.status).toBe(401);
    expect((await refresh(session.refreshToken)).status).toBe(400);
  });

  it("still ends the hosted page's session when the browser does follow the redirect", async () => {
    const { jar, browser } = await signedInJar();
    const response = await handleLogout(jar.request(site(AUTH_ROUTES.logout), { method: "POST", headers: { origin: "http://localhost:3000" } }));
    const followed = await browser.get(response.headers.get("location")!);
    expect(followed.location).toBe(site("/"));
    expect(browser.cookies.has("lp_session")).toBe(false);
  });
});
