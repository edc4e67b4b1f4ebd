import Link from "next/link";
import { Suspense } from "react";
import { loginHref } from "@/lib/auth/routes";
import { getSession, sessionJustEnded } from "@/lib/auth/server";
import { LoginLink } from "./login-link";
import { MemberMenu } from "./member-menu";

const loginClassName = "rounded-lg bg-pine-700 px-4 py-2 text-sm font-medium text-white hover:bg-pine-600";

export async function SiteHeader() {
  const [session, ended] = await Promise.all([getSession(), sessionJustEnded()]);
  return (
    <>
      <header className="border-b border-stone-200 bg-white/80 backdrop-blur">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-4 sm:px-6">
          <Link href="/" className="flex items-center gap-2 font-serif text-xl font-semibold text-pine-900">
            <span aria-hidden className="inline-block h-6 w-6 rounded-sm bg-pine-600 [clip-path:polygon(50%_0,100%_100%,0_100%)]" />
            Ridgeline
          </Link>
          <nav aria-label="Main" className="flex items-center gap-6 text-sm font-medium">
            <Link href="/trails" className="text-stone-700 hover:text-pine-700">
              Trails
            </Link>
            {session?.role === "member" ? (
              <MemberMenu name={session.member?.name || "Your account"} />
            ) : (
              <Suspense fallback={<a href={loginHref()} className={loginClassName}>Log in</a>}>
                <LoginLink className={loginClassName}>Log in</LoginLink>
              </Suspense>
            )}
          </nav>
        </div>
      </header>
      {ended && (
        <div role="status" className="border-b border-amber-200 bg-amber-50">
          <p className="mx-auto max-w-6xl px-4 py-3 text-sm text-amber-900 sm:px-6">
            Your session has ended, so you are browsing as a visitor. Log in again to see your account.
          </p>
        </div>
      )}
    </>
  );
}
