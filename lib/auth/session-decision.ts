import { isDueForRenewal, isSeenStale, type Session } from "./session";

/**
 * What middleware does with a request's session, decided apart from cookies and the platform so
 * that the production server's page cache asks the very same question before it answers a member
 * from a template (server/page-cache/member-template.ts). Pure: tested on its own and against
 * middleware (tests/session-decision.test.ts).
 */

/** What a request's session cookie held: the session (null if none or unreadable), and whether a member session ran out. */
export type LoadedSession = { session: Session | null; lapsed: boolean; cookiePresent: boolean };

/**
 * - `end`: a member session idle or old past its limits: it ends, with the notice;
 * - `renew`: the access token is due for renewal;
 * - `record-seen`: a page view, the last one recorded long enough ago;
 * - `drop`: an unreadable cookie, on the browser's own navigation;
 * - `keep`: nothing to change.
 */
export type SessionStep = "end" | "renew" | "record-seen" | "drop" | "keep";

export function sessionStep({ session, lapsed, cookiePresent }: LoadedSession, navigation: boolean, now: number): SessionStep {
  if (lapsed) return "end";
  if (session && isDueForRenewal(session, now)) return "renew";
  if (session && navigation && isSeenStale(session, now)) return "record-seen";
  if (!session && navigation && cookiePresent) return "drop";
  return "keep";
}

/** The cookies besides the session's that change what a page shows or what middleware does. */
export type PendingCookies = { notice: boolean; verification: boolean };

/**
 * Whether a request may be answered from a page rendered for no one in particular with only the
 * member's name filled in: a member session that opens, whose display name is known, with nothing
 * for middleware to change (no renewal, no lapse, its last view recorded recently, whether or not
 * this request is a navigation) and no one-time notice or verification under way. Anything else
 * goes to Next.js, where middleware does what it does today.
 */
export function mayServeFromTemplate(loaded: LoadedSession, pending: PendingCookies, now: number): loaded is LoadedSession & { session: Session } {
  const { session } = loaded;
  if (session?.role !== "member" || !session.member?.name || pending.notice || pending.verification) return false;
  return sessionStep(loaded, true, now) === "keep";
}
