import { NextRequest } from "next/server";
import { ResponseCookies } from "next/dist/compiled/@edge-runtime/cookies";
import { writeSession } from "@/lib/auth/session-store";
import { sessionFromTokens, type Session, type SessionMember } from "@/lib/auth/session";
import { LOCAL_CLIENT_ID } from "@ridgeline/platform-contract";
import type { TestPlatform } from "@/platform/testing";

/** A browser's cookie jar, as far as the site's cookies go: paths are honoured, attributes kept for assertions. */
export class CookieJar {
  readonly cookies = new Map<string, { value: string; path: string; header: string }>();

  /** The Cookie header a browser sends to `path`. */
  header(path = "/"): string {
    return [...this.cookies]
      .filter(([, cookie]) => path === cookie.path || path.startsWith(cookie.path.endsWith("/") ? cookie.path : `${cookie.path}/`) || cookie.path === "/")
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join("; ");
  }

  request(url: string, init: { method?: string; headers?: Record<string, string> } = {}): NextRequest {
    const cookie = this.header(new URL(url).pathname);
    return new NextRequest(url, { method: init.method, headers: { ...init.headers, ...(cookie && { cookie }) } });
  }

  /** Takes the Set-Cookie headers of a response, as a browser would. */
  apply(response: Response): this {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";").map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? "/";
      if (attributes.some((a) => /^max-age=0$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, { value, path, header });
    }
    return this;
  }

  get(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }
}

/** Seals a session the way the site does, into a jar. */
export async function jarWithSession(session: Session): Promise<CookieJar> {
  const headers = new Headers();
  await writeSession(new ResponseCookies(headers), session);
  return new CookieJar().apply(new Response(null, { headers }));
}

/**
 * A jar holding a sealed session with a real platform token pair. `expiresIn` below 60 makes
 * it due for renewal; `issuedSecondsAgo` dates the tokens' issue.
 */
export async function jarWithPlatformSession(
  platform: TestPlatform,
  role: "visitor" | "member",
  subjectId: string,
  options: { expiresIn?: number; member?: SessionMember; revoked?: boolean; issuedSecondsAgo?: number } = {},
) {
  const tokens = platform.ctx.tokens.issuePair({ role, subjectId, clientId: LOCAL_CLIENT_ID });
  if (options.revoked) platform.ctx.tokens.revokeSubject(subjectId);
  const now = Math.floor(Date.now() / 1000);
  const session = sessionFromTokens(
    { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, role, expiresAt: now + (options.expiresIn ?? 3600) },
    now,
    options.member,
  );
  const dated = { ...session, issuedAt: now - (options.issuedSecondsAgo ?? 60) };
  return { tokens, session: dated, jar: await jarWithSession(dated) };
}

/** A member's session that stays valid for years, active now: for tests of the cookie itself, not of renewal. */
export function aMemberSession(): Session {
  const now = Math.floor(Date.now() / 1000);
  return {
    accessToken: "at",
    refreshToken: "rt",
    role: "member",
    expiresAt: 2_000_000_000,
    renewAt: 1_999_999_000,
    issuedAt: 1_900_000_000,
    startedAt: now,
    seenAt: now,
    member: { id: "m", name: "Dana" },
  };
}
