import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withSession } from "@/lib/auth/middleware";
import { mayServeFromTemplate, sessionStep, type LoadedSession } from "@/lib/auth/session-decision";
import { templateViewer } from "@/lib/auth/session-store";
import type { Session } from "@/lib/auth/session";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";
import { jarWithPlatformSession, jarWithSession } from "./support/cookie-jar";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const now = 1_900_000_000;
const member = (changes: Partial<Session> = {}): Session => ({
  accessToken: "at",
  refreshToken: "rt",
  role: "member",
  expiresAt: now + 3000,
  renewAt: now + 2940,
  issuedAt: now - 600,
  startedAt: now - 600,
  seenAt: now - 30,
  member: { id: "m1", name: "Dana" },
  ...changes,
});
const loaded = (session: Session | null, changes: Partial<LoadedSession> = {}): LoadedSession => ({ session, lapsed: false, cookiePresent: true, ...changes });
const none = { notice: false, verification: false };

describe("the session decision", () => {
  it("says what middleware does: end a lapsed session, renew a due one, record a stale view, drop an unreadable cookie", () => {
    expect(sessionStep(loaded(null, { lapsed: true }), true, now)).toBe("end");
    expect(sessionStep(loaded(member({ renewAt: now })), false, now)).toBe("renew");
    expect(sessionStep(loaded(member({ seenAt: now - 300 })), true, now)).toBe("record-seen");
    // A prefetch records no view.
    expect(sessionStep(loaded(member({ seenAt: now - 300 })), false, now)).toBe("keep");
    expect(sessionStep(loaded(null), true, now)).toBe("drop");
    expect(sessionStep(loaded(null), false, now)).toBe("keep");
    expect(sessionStep(loaded(null, { cookiePresent: false }), true, now)).toBe("keep");
    expect(sessionStep(loaded(member()), true, now)).toBe("keep");
  });

  it("lets only a member whose session needs nothing, with a name and nothing pending, be answered from a template", () => {
    expect(mayServeFromTemplate(loaded(member()), none, now)).toBe(true);
    expect(mayServeFromTemplate(loaded(member({ role: "visitor", member: undefined })), none, now)).toBe(false);
    expect(mayServeFromTemplate(loaded(member({ member: undefined })), none, now)).toBe(false);
    expect(mayServeFromTemplate(loaded(member({ member: { id: "m1", name: "" } })), none, now)).toBe(false);
    expect(mayServeFromTemplate(loaded(member({ renewAt: now })), none, now)).toBe(false);
    // However the request was made: a view not recorded for five minutes goes to middleware.
    expect(mayServeFromTemplate(loaded(member({ seenAt: now - 300 })), none, now)).toBe(false);
    expect(mayServeFromTemplate(loaded(null, { lapsed: true }), none, now)).toBe(false);
    expect(mayServeFromTemplate(loaded(null), none, now)).toBe(false);
    expect(mayServeFromTemplate(loaded(member()), { notice: true, verification: false }, now)).toBe(false);
    expect(mayServeFromTemplate(loaded(member()), { notice: false, verification: true }, now)).toBe(false);
  });
});

describe("the session decision against today's middleware", () => {
  const site = (path: string) => `http://localhost:3000${path}`;
  const seconds = () => Math.floor(Date.now() / 1000);

  /** What middleware does with the request, and what the page cache decides for the same cookies. */
  async function both(cookie: string) {
    const request = new NextRequest(site("/trails"), { headers: { cookie } });
    const viewer = await templateViewer(request.cookies);
    const response = await withSession(request);
    return { viewer, middlewareChanged: response.headers.get("set-cookie") !== null || response.headers.has("x-middleware-request-x-wms-notice") };
  }

  it("serves from a template exactly the sessions middleware leaves alone, and only members' with a name", async () => {
    const valid = await jarWithPlatformSession(platform, "member", "decision-valid", { member: { id: "decision-valid", name: "Dana" } });
    const due = await jarWithPlatformSession(platform, "member", "decision-due", { expiresIn: -5, member: { id: "decision-due", name: "Dana" } });
    const visitor = await jarWithPlatformSession(platform, "visitor", "decision-visitor");
    const nameless = await jarWithPlatformSession(platform, "member", "decision-nameless");
    const idle = await jarWithSession({ ...valid.session, seenAt: seconds() - 8 * 24 * 3600, startedAt: seconds() - 9 * 24 * 3600 });
    const stale = await jarWithSession({ ...valid.session, seenAt: seconds() - 400 });
    const blocked = await jarWithPlatformSession(platform, "member", "decision-blocked", {
      member: { id: "decision-blocked", name: "Moss" },
      issuedSecondsAgo: 60,
    });
    platform.ctx.tokens.revokeSubject("decision-blocked");

    const cases = [
      { name: "valid", cookie: valid.jar.header(), template: true },
      { name: "due", cookie: due.jar.header(), template: false },
      { name: "idle", cookie: idle.header(), template: false },
      { name: "seen long ago", cookie: stale.header(), template: false },
      { name: "unreadable", cookie: "wms_session=Fe26.2**garbage", template: false },
      { name: "visitor", cookie: visitor.jar.header(), template: false },
      { name: "member without a name", cookie: nameless.jar.header(), template: false },
      { name: "notice pending", cookie: `${valid.jar.header()}; wms_notice=logged-in`, template: false },
      { name: "verification pending", cookie: `${valid.jar.header()}; wms_verify=x`, template: false },
      { name: "ended on the platform (a block)", cookie: blocked.jar.header(), template: false },
    ];
    for (const { name, cookie, template } of cases) {
      const { viewer, middlewareChanged } = await both(cookie);
      expect(viewer !== null, name).toBe(template);
      // Whatever a template would answer, middleware would have changed nothing for it.
      if (viewer) expect(middlewareChanged, name).toBe(false);
    }
    // Middleware changes something for each of the sessions that go to it for that reason.
    for (const cookie of [
      due.jar.header(),
      idle.header(),
      stale.header(),
      "wms_session=Fe26.2**garbage",
      `${valid.jar.header()}; wms_notice=logged-in`,
      blocked.jar.header(),
    ]) {
      expect((await both(cookie)).middlewareChanged, cookie.slice(0, 40)).toBe(true);
    }
    expect((await both(valid.jar.header())).viewer).toEqual({ id: "decision-valid", name: "Dana" });
  });
});
