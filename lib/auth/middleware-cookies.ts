import { NextResponse, type NextRequest } from "next/server";
import { cookieOptions, seal } from "./cookie-sealing";
import { noticeCookieName, sessionCookieName } from "./cookie-names";
import { NOTICE_HEADER, readNotice, type Notice } from "./notice-store";
import { SESSION_MAX_AGE_SECONDS } from "./session-store";
import type { Session } from "./session";

// Middleware: changes that the server components of this same request must see, and the browser too.

export class MiddlewareCookies {
  private session: { value: Session | null } | undefined;
  private notice: { show: Notice } | undefined;

  private readonly broughtNotice: Notice | null;

  /** `forward`: request headers the page must see whatever happens to the cookies (the security policy's nonce). */
  constructor(
    private readonly request: NextRequest,
    private readonly forward: Record<string, string> = {},
  ) {
    this.broughtNotice = readNotice(request.cookies);
  }

  /** A renewed session, or null to end it. */
  setSession(session: Session | null): void {
    this.session = { value: session };
  }

  /** Shown on the page this request renders, and only there. */
  showNotice(notice: Notice): void {
    this.notice = { show: notice };
  }

  /** A notice the browser brought is shown now, then forgotten. */
  consumeNotice(): void {
    if (!this.notice && this.broughtNotice) this.notice = { show: this.broughtNotice };
  }

  get changed(): boolean {
    // A notice header the client sent itself is always replaced.
    return this.session !== undefined || this.notice !== undefined || this.request.headers.has(NOTICE_HEADER);
  }

  /** The headers the page renders with: the forwarded ones, and the notice only if middleware set it. */
  private pageHeaders(): Headers {
    const headers = new Headers(this.request.headers);
    for (const [name, value] of Object.entries(this.forward)) headers.set(name, value);
    headers.delete(NOTICE_HEADER);
    if (this.notice?.show) headers.set(NOTICE_HEADER, this.notice.show);
    return headers;
  }

  /** Nothing changed for the browser: the page renders with the forwarded headers. */
  pass(): NextResponse {
    if (Object.keys(this.forward).length === 0) return NextResponse.next();
    return NextResponse.next({ request: { headers: this.pageHeaders() } });
  }

  /**
   * Applies the changes: to the request the page renders from, then to the response, which is
   * the page itself unless another one (a redirect) is given.
   */
  async respond(redirect?: NextResponse): Promise<NextResponse> {
    const sealed = this.session?.value ? await seal(this.session.value, SESSION_MAX_AGE_SECONDS) : null;
    if (this.session) {
      if (sealed) this.request.cookies.set(sessionCookieName(), sealed);
      else this.request.cookies.delete(sessionCookieName());
    }
    const response = redirect ?? NextResponse.next({ request: { headers: this.pageHeaders() } });
    if (this.session) {
      response.cookies.set(sessionCookieName(), sealed ?? "", cookieOptions("/", sealed ? SESSION_MAX_AGE_SECONDS : 0));
    }
    // Shown now, so the browser does not keep it for another page.
    if (this.notice && this.broughtNotice) response.cookies.set(noticeCookieName(), "", cookieOptions("/", 0));
    response.headers.set("cache-control", "private, no-store");
    return response;
  }
}
