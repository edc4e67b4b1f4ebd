import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { AuthCard, LocalMailboxHint, linkClass } from "@/components/auth/auth-card";
import { ActionForm } from "@/components/forms/action-form";
import { readPendingVerification } from "@/lib/auth/verification-store";
import { SITE_PAGES } from "@/lib/auth/routes";
import { PasskeyLogin } from "@/components/auth/passkey-login";
import { CodeSending } from "@/components/auth/code-sending";
import { passkeyRequestOptions } from "@/lib/wix/identity";
import { appCodeAction, loginCodeAction, passkeyAction, recoveryCodeAction, resendLoginCodeAction } from "../../actions";

export const metadata: Metadata = { title: "Enter your login code" };

/**
 * Each way of answering is its own form, so each asks whether to remember this browser. Each posts
 * to the page's own address (`permalink`), not one with the new-code answer's fragment, which the
 * login's redirect would carry on.
 */
const REMEMBER_DEVICE = { name: "rememberDevice", label: "Remember this device for 30 days", type: "checkbox", optional: true } as const;

/** A login's second step, for a member with a second factor: the code it sent, or one of their passkeys. */
export default async function LoginCodePage() {
  const pending = await readPendingVerification(await cookies());
  if (!pending?.secondFactor) {
    return (
      <AuthCard title="Enter your login code">
        <p className="text-stone-700">There is no login waiting for a code, or it has expired.</p>
        <p className="mt-4">
          <Link href={SITE_PAGES.login} className={linkClass}>
            Log in again
          </Link>
        </p>
      </AuthCard>
    );
  }
  const { type, hint, appToo, others = [], recoveryCodes, passkey } = pending.secondFactor;
  const fromApp = type === "TOTP";
  const byPasskey = type === "WEBAUTHN";
  // One list of keyed parts, in an order that depends on the challenge: a refused passkey's fresh
  // challenge may change it, and the passkey part, keyed, keeps its message through that.
  const passkeyPart = passkey && (
    <div key="passkey" className={byPasskey ? undefined : "mt-6 border-t border-stone-200 pt-4"}>
      {!byPasskey && <p className="mb-3 text-sm text-stone-700">Or use one of your passkeys instead of the code.</p>}
      <PasskeyLogin options={passkeyRequestOptions(passkey)} action={passkeyAction} wide={byPasskey} />
    </div>
  );
  const codePart = !byPasskey && (
    <ActionForm
      key="code"
      kind="loginCode"
      action={loginCodeAction}
      permalink={SITE_PAGES.loginCode}
      fields={[{ name: "code", label: "Login code", autoComplete: "one-time-code", inputMode: "numeric" }, REMEMBER_DEVICE]}
      submitLabel="Log in"
      pendingLabel="Checking the code…"
    />
  );
  // An app makes a new code every 30 seconds by itself, and a passkey's challenge sent none: there is nothing to send again.
  const newCode = !fromApp && !byPasskey;
  const sendingPart = (newCode || others.length > 0) && (
    <CodeSending
      key="sending"
      action={resendLoginCodeAction}
      page={SITE_PAGES.loginCode}
      newCode={newCode}
      others={others}
      lead={byPasskey ? "Or have a code sent to you:" : "Or have the code sent another way:"}
    />
  );
  const appPart = appToo && (
    <div key="app" className="mt-6 border-t border-stone-200 pt-4">
      <p className="mb-3 text-sm text-stone-700">Or use your authenticator app instead: enter the code it shows for this site.</p>
      <ActionForm
        kind="loginCode"
        action={appCodeAction}
        permalink={SITE_PAGES.loginCode}
        fields={[{ name: "code", label: "Code from your app", autoComplete: "one-time-code", inputMode: "numeric" }, REMEMBER_DEVICE]}
        submitLabel="Use the app's code"
        pendingLabel="Checking the code…"
        wideButton={false}
      />
    </div>
  );
  // Only a member who was given recovery codes (with an app or a passkey) and has some left.
  const recoveryPart = recoveryCodes && (
    <div key="recovery" className="mt-6 border-t border-stone-200 pt-4">
      <p className="mb-3 text-sm text-stone-700">
        Lost your phone or passkey? If you saved recovery codes when you set up an authenticator app or a passkey, log in with one of them. Each works once.
      </p>
      <ActionForm
        kind="recoveryCode"
        action={recoveryCodeAction}
        permalink={SITE_PAGES.loginCode}
        fields={[{ name: "recoveryCode", label: "Recovery code", autoComplete: "off" }, REMEMBER_DEVICE]}
        submitLabel="Use the recovery code"
        pendingLabel="Checking the code…"
        wideButton={false}
      />
    </div>
  );
  return (
    <AuthCard
      title={byPasskey ? "Use your passkey" : "Enter your login code"}
      intro={
        byPasskey ? (
          <p>Your account has two-step sign-in. Use one of your passkeys: your device asks for its PIN, fingerprint or face, or for your security key.</p>
        ) : fromApp ? (
          <p>Your account has two-step sign-in. Open your authenticator app and enter the 6-digit code it shows for this site.</p>
        ) : (
          <p>
            Your account has two-step sign-in. We sent a 6-digit code {type === "SMS" ? "by text message to" : "by e-mail to"}{" "}
            <strong className="text-stone-900">{hint}</strong>. It works for 15 minutes.
          </p>
        )
      }
      footer={fromApp || byPasskey ? undefined : <LocalMailboxHint />}
    >
      {byPasskey ? [passkeyPart, sendingPart, appPart, recoveryPart] : [codePart, sendingPart, passkeyPart, appPart, recoveryPart]}
    </AuthCard>
  );
}
