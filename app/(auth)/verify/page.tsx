import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { AuthCard, LocalMailboxHint, linkClass } from "@/components/auth/auth-card";
import { ActionForm } from "@/components/forms/action-form";
import { readPendingVerification } from "@/lib/auth/verification-store";
import { EMAIL_CONFIRMED_AWAITING_APPROVAL } from "@/lib/auth/forms";
import { SITE_PAGES } from "@/lib/auth/routes";
import { captchaConfig } from "@/lib/wix/identity";
import { resendCodeAction, verifyAction } from "../actions";

export const metadata: Metadata = { title: "Confirm your e-mail" };

export default async function VerifyPage() {
  const pending = await readPendingVerification(await cookies());
  // A second factor's code has its own page.
  if (!pending || pending.secondFactor) {
    return (
      <AuthCard title="Confirm your e-mail">
        <p className="text-stone-700">There is no confirmation waiting, or it has expired.</p>
        <p className="mt-4">
          <Link href={SITE_PAGES.login} className={linkClass}>
            Log in to get a new code
          </Link>
        </p>
      </AuthCard>
    );
  }
  if (pending.awaitingApproval) {
    return (
      <AuthCard title="Confirm your e-mail">
        <p role="status" className="text-stone-700">
          {EMAIL_CONFIRMED_AWAITING_APPROVAL}
        </p>
        <p className="mt-4 text-stone-700">A club organiser approves each new member. Once they have, log in with your e-mail address and password.</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Confirm your e-mail"
      intro={
        <p>
          We sent a code to <strong className="text-stone-900">{pending.email}</strong>. Enter it to finish.
        </p>
      }
      footer={<LocalMailboxHint />}
    >
      <ActionForm
        kind="verify"
        action={verifyAction}
        fields={[{ name: "code", label: "Code from the e-mail", autoComplete: "one-time-code", inputMode: "numeric" }]}
        submitLabel="Confirm"
        pendingLabel="Confirming…"
        captcha={captchaConfig()}
      />
      <div className="mt-6 border-t border-stone-200 pt-5">
        <p className="mb-3 text-sm text-stone-700">No e-mail, or the code has expired?</p>
        <ActionForm kind="resendCode" action={resendCodeAction} fields={[]} submitLabel="Resend code" pendingLabel="Sending…" tone="quiet" wideButton={false} />
      </div>
    </AuthCard>
  );
}
