import Link from "next/link";
import { Suspense } from "react";
import { loginPageHref } from "@/lib/auth/routes";
import type { Notice } from "@/lib/auth/notice-store";
import { getSession, pageNotice } from "@/lib/auth/request-session";
import { memberInitial, type SessionMember } from "@/lib/auth/session";
import { memberOutings, siteCollections } from "@/lib/site-config";
import { LoginLink } from "./login-link";
import { MemberMenu } from "./member-menu";
import { MainNav } from "./nav/main-nav";
import { SessionPrewarm } from "./auth/lazy-session-prewarm";
import { NoticeBanner } from "./notice-banner";

const sectionLinks = siteCollections.map((collection) => ({ href: `/${collection.route}`, label: collection.title }));

/** Pages for members, in the member menu after the account. */
const memberLinks = [{ href: `/${memberOutings.route}`, label: memberOutings.title }];

const NOTICES: Record<Notice, { text: string; tone: "done" | "warning" }> = {
  "session-ended": { text: "Your session has ended, so you are browsing as a visitor. Log in again to see your account.", tone: "warning" },
  "account-deleted": { text: "Your account has been deleted and you are logged out. Thank you for walking with us.", tone: "done" },
  "logged-in": { text: "You are logged in. Welcome back.", tone: "done" },
  "signed-up": { text: "Welcome to the club: your account is ready and you are logged in.", tone: "done" },
  "logged-out": { text: "You are logged out. See you on the trail.", tone: "done" },
};

/** A member session may lack the display data (the members service failed at login) until its next renewal. */
function shownMember(member: SessionMember | undefined): { name: string; initial: string } {
  const shown = member?.name ? member : { name: "Your account" };
  return { name: shown.name, initial: memberInitial(shown) };
}

// One line however narrow the screen: beside the logo and the menu on a 320 px phone it would wrap.
const loginClassName = "whitespace-nowrap rounded-lg bg-pine-700 px-3 py-2 text-sm font-medium text-white hover:bg-pine-600 sm:px-4";

export async function SiteHeader() {
  const [session, notice] = await Promise.all([getSession(), pageNotice()]);
  return (
    <>
      <header className="relative z-30 border-b border-stone-200 bg-white/80 backdrop-blur">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-4 sm:px-6">
          <Link href="/" className="flex items-center gap-2 font-serif text-xl font-semibold text-pine-900">
            <span aria-hidden className="inline-block h-6 w-6 rounded-sm bg-pine-600 [clip-path:polygon(50%_0,100%_100%,0_100%)]" />
            Ridgeline
          </Link>
          <nav aria-label="Main" className="flex items-center gap-3 text-sm font-medium sm:gap-6">
            <MainNav links={sectionLinks} />
            {session?.role === "member" ? (
              <>
                <MemberMenu {...shownMember(session.member)} links={memberLinks} />
                <SessionPrewarm />
              </>
            ) : (
              <Suspense
                fallback={
                  <a href={loginPageHref()} className={loginClassName}>
                    Log in
                  </a>
                }
              >
                <LoginLink className={loginClassName}>Log in</LoginLink>
              </Suspense>
            )}
          </nav>
        </div>
      </header>
      {notice && <NoticeBanner key={notice} {...NOTICES[notice]} />}
    </>
  );
}
