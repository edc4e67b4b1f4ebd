import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { z } from "zod";
import { AuthCard, linkClass } from "@/components/auth/auth-card";
import { ActionForm } from "@/components/forms/action-form";
import { siteUrl } from "@/lib/auth/responses";
import { safeReturnTo } from "@/lib/auth/return-to";
import { loginPageHref, registerPageHref } from "@/lib/auth/routes";
import { confirmedMemberSession } from "@/lib/auth/request-session";
import { captchaConfig } from "@/lib/wix/identity";
import { PROFILE_WORDS } from "@/lib/account/profile-words";
import { registerAction } from "../actions";

export const metadata: Metadata = { title: "Create an account" };

const params = z.object({ returnTo: z.string().optional().catch(undefined) });

export default async function RegisterPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const returnTo = safeReturnTo(params.parse(await searchParams).returnTo, siteUrl("/").origin);
  if (await confirmedMemberSession(registerPageHref(returnTo))) redirect(returnTo);
  return (
    <AuthCard
      title="Create an account"
      intro="Join the club to see members' outings and share trail reports."
      footer={
        <p>
          Already a member?{" "}
          <Link href={loginPageHref(returnTo)} className={linkClass}>
            Log in
          </Link>
        </p>
      }
    >
      <ActionForm
        kind="register"
        action={registerAction}
        fields={[
          { name: "email", label: "E-mail", type: "email", autoComplete: "email" },
          { name: "password", label: "Password", type: "password", autoComplete: "new-password", hint: "At least 8 characters; avoid common passwords." },
          { name: "firstName", label: "First name", autoComplete: "given-name", optional: true },
          { name: "lastName", label: "Last name", autoComplete: "family-name", optional: true },
          { name: "nickname", label: "Nickname", autoComplete: "off", optional: true, hint: `${PROFILE_WORDS.nicknameHint} ${PROFILE_WORDS.nicknameDefault}` },
          {
            name: "publicProfile",
            label: PROFILE_WORDS.publicChoice,
            type: "checkbox",
            hint: `${PROFILE_WORDS.publicChoiceHint} ${PROFILE_WORDS.emailNeverShown} ${PROFILE_WORDS.changeLater}`,
          },
        ]}
        // Public unless the new member says otherwise: the club is about sharing trail reports.
        defaultValue={{ publicProfile: "on" }}
        submitLabel="Create account"
        pendingLabel="Creating your account…"
        hidden={{ returnTo }}
        captcha={captchaConfig()}
      />
    </AuthCard>
  );
}
