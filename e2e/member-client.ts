import type { Browser } from "@playwright/test";
import type { demoMember } from "./platform";
import { logInWithForm } from "./site-pages";

export type Member = typeof demoMember;

/** A member's cookies as their browser holds them, for requests made outside it. */
export class MemberClient {
  private constructor(
    readonly member: Member,
    private readonly siteUrl: string,
    private readonly cookies: Map<string, string>,
  ) {}

  /** Logs in with the login form of the site at `siteUrl`, in a browser of its own. */
  static async logIn(browser: Browser, member: Member, siteUrl: string): Promise<MemberClient> {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logInWithForm(page, `${siteUrl}/login`, member);
    const cookies = new Map((await context.cookies()).map((cookie) => [cookie.name, cookie.value]));
    await context.close();
    return new MemberClient(member, siteUrl, cookies);
  }

  /** The same member's browser on another instance of the site, which shares the session secret. */
  on(siteUrl: string): MemberClient {
    return new MemberClient(this.member, siteUrl, this.cookies);
  }

  /**
   * A GET as this member's browser. `viaNext` adds a pending verification cookie, which nothing
   * on these pages reads but which sends the request to Next.js: the member's own render. Tokens
   * last 20 s in these tests, so a view may meet a renewal (Next.js, which renews the cookie);
   * it is then made again.
   */
  async get(path: string, options: { viaNext?: boolean; headers?: Record<string, string> } = {}) {
    for (let attempt = 0; ; attempt++) {
      const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") + (options.viaNext ? "; wms_verify=pending" : "");
      const response = await fetch(`${this.siteUrl}${path}`, { headers: { ...options.headers, cookie }, redirect: "manual" });
      const renewed = response.headers.getSetCookie();
      for (const header of renewed) {
        const [pair] = header.split(";");
        this.cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
      }
      const body = await response.text();
      if (renewed.length > 0 && !options.viaNext && attempt === 0) continue;
      return { status: response.status, cache: response.headers.get("x-cache"), headers: response.headers, body };
    }
  }
}
