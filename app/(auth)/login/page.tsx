import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { z } from "zod";
import { AuthCard, linkClass } from "@/components/auth/auth-card";
import { ReplacingLink } from "@/components/auth/replacing-link";
import { ActionForm } from "@/components/forms/action-form";
import { siteUrl } from "@/lib/auth/responses";
import { safeReturnTo } from "@/lib/auth/return-to";
import { SESSION_ENDED_PARAM, SITE_PAGES, loginHref, loginPageHref, registerPageHref } from "@/lib/auth/routes";
import { confirmedMemberSession } from "@/lib/auth/request-session";
import { captchaConfig } from "@/lib/wix/identity";
import { logInAction } from "../actions";

export const metadata: Metadata = { title: "Log in" };

const params = z.object({
  returnTo: z.string().optional().catch(undefined),
  // The platform's hosted reset page comes back here once a new password is set.
  passwordReset: z.string().optional().catch(undefined),
  [SESSION_ENDED_PARAM]: z.string().optional().catch(undefined),
});

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = params.parse(await searchParams);
  const returnTo = safeReturnTo(query.returnTo, siteUrl("/").origin);
  if (await confirmedMemberSession(loginPageHref(returnTo))) redirect(returnTo);

  return (
    <AuthCard
      title="Log in"
      intro="Welcome back. Log in to see members' outings and write trail reports."
      footer={
        <>
          <p>
            New to the club?{" "}
            <Link href={registerPageHref(returnTo)} className={linkClass}>
              Create an account
            </Link>
          </p>
          <p>
            {/* An anchor, not next/link: a login must never start from a prefetch. */}
            <ReplacingLink href={loginHref(returnTo)} className={linkClass}>
              Continue with the hosted login page
            </ReplacingLink>
          </p>
        </>
      }
    >
      {query[SESSION_ENDED_PARAM] !== undefined && (
        <p role="status" className="mb-5 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          Your session has ended, so you are browsing as a visitor. Log in again to go on.
        </p>
      )}
      {query.passwordReset !== undefined && (
        <p role="status" className="mb-5 rounded-lg border border-pine-100 bg-pine-50 px-4 py-3 text-sm text-pine-900">
          Your new password is set. Log in with it below.
        </p>
      )}
      <ActionForm
        kind="login"
        action={logInAction}
        fields={[
          { name: "email", label: "E-mail", type: "email", autoComplete: "email" },
          { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
        ]}
        submitLabel="Log in"
        pendingLabel="Logging in…"
        hidden={{ returnTo }}
        captcha={captchaConfig()}
      />
      <p className="mt-4 text-right text-sm">
        <Link href={SITE_PAGES.forgotPassword} className={linkClass}>
          Forgot password?
        </Link>
      </p>
    </AuthCard>
  );
}
