import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard, LocalMailboxHint, linkClass } from "@/components/auth/auth-card";
import { ActionForm } from "@/components/forms/action-form";
import { SITE_PAGES } from "@/lib/auth/routes";
import { captchaConfig } from "@/lib/wix/identity";
import { forgotPasswordAction } from "../actions";

export const metadata: Metadata = { title: "Reset your password" };

export default function ForgotPasswordPage() {
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
