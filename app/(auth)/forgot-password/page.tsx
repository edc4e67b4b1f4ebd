import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard, LocalMailboxHint, linkClass } from "@/components/auth/auth-card";
import { ActionForm } from "@/components/forms/action-form";
import { FAILURE_MESSAGES } from "@/lib/auth/forms";
import { NEW_PASSWORD_REASON, SITE_PAGES } from "@/lib/auth/routes";
import { captchaConfig } from "@/lib/wix/identity";
import { forgotPasswordAction } from "../actions";

export const metadata: Metadata = { title: "Reset your password" };

export default async function ForgotPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const newPasswordNeeded = (await searchParams).reason === NEW_PASSWORD_REASON;
  return (
    <AuthCard
      title="Reset your password"
      intro="Enter the e-mail address of your account. We will send you a link to set a new password."
      footer={
        <>
          <p>
            Remembered it?{" "}
            <Link href={SITE_PAGES.login} className={linkClass}>
              Log in
            </Link>
          </p>
          <LocalMailboxHint />
        </>
      }
    >
      {newPasswordNeeded && (
        <p role="status" className="mb-5 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {FAILURE_MESSAGES.resetPassword}
        </p>
      )}
      <ActionForm
        kind="forgotPassword"
        action={forgotPasswordAction}
        fields={[{ name: "email", label: "E-mail", type: "email", autoComplete: "email" }]}
        submitLabel="Send the link"
        pendingLabel="Sending…"
        captcha={captchaConfig()}
      />
    </AuthCard>
  );
}
