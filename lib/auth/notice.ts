/** A one-time notice shown on the next page, e.g. that a member's session has ended. */
export const NOTICE_COOKIE = "wms_notice";
export const SESSION_ENDED = "session-ended";
export const noticeCookieOptions = { httpOnly: true, sameSite: "lax" as const, path: "/", maxAge: 300 };
