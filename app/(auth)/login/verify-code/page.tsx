import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { AuthCard, LocalMailboxHint, linkClass } from "@/components/auth/auth-card";
import { readPendingVerification } from "@/lib/auth/verification-store";
import { ASK_FIRST_WORDS, leadingWay } from "@/lib/auth/ask-first";
import { askFirstChoice } from "@/lib/auth/ask-first-store";
import { SITE_PAGES } from "@/lib/auth/routes";
import { PasskeyLogin } from "@/components/auth/passkey-login";
import { CodeSending } from "@/components/auth/code-sending";
import { SecondStepForm } from "@/components/auth/second-step-form";
import { SECOND_STEP_FORM } from "@/lib/auth/forms";
import { passkeyRequestOptions } from "@/lib/wix/identity";
import { passkeyAction, resendLoginCodeAction, secondStepAction } from "../../actions";

export const metadata: Metadata = { title: "Enter your login code" };

/** A login's second step, for a member with a second factor: the code it sent, or one of their passkeys. */
export default async function LoginCodePage() {
  const jar = await cookies();
  const pending = await readPendingVerification(jar);
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
  // The member's "Ask first for" on this browser: the app's code or a passkey may lead; another sending way's button comes first.
  const lead = leadingWay({ factorType: type, appToo: appToo ?? false, others, passkey: Boolean(passkey) }, await askFirstChoice(jar, pending.email));
  const offer = typeof lead === "object" ? lead.offer : undefined;
  const fromApp = lead === "app" || (type === "TOTP" && lead !== "passkey");
  const byPasskey = lead === "passkey" || (type === "WEBAUTHN" && lead !== "app");
  /** A code went by the challenged way although another leads: it waits under "Use another way". */
  const sentToo = lead !== "challenged" && !offer && (type === "EMAIL" || type === "SMS");
  const where = (
    <>
      {type === "SMS" ? "by text message to" : "by e-mail to"} <strong className="text-stone-900">{hint}</strong>
    </>
  );
  const passkeyPart = passkey && (
    <div className={byPasskey && !offer ? undefined : "mt-4"}>
      {!byPasskey && <p className="mb-3 text-sm text-stone-700">Use one of your passkeys instead of the code.</p>}
      <PasskeyLogin options={passkeyRequestOptions(passkey)} action={passkeyAction} wide={byPasskey} rememberFrom={SECOND_STEP_FORM} />
    </div>
  );
  // An app makes a new code every 30 seconds by itself, and a passkey's challenge sent none: there is nothing to send again.
  const newCode = type === "EMAIL" || type === "SMS";
  const sendingPart = (newCode || others.length > 0) && (
    <CodeSending
      action={resendLoginCodeAction}
      page={SITE_PAGES.loginCode}
      newCode={newCode}
      others={others}
      preferred={offer}
      newCodeLead={
        sentToo
          ? `No ${type === "SMS" ? "text message" : "e-mail"} with the code, or it expired? We can send a new one; the one before then stops working.`
          : undefined
      }
      lead={
        offer
          ? `You chose ${ASK_FIRST_WORDS[offer]} first on this browser; a login asks first for the way you turned on first. To switch:`
          : type === "WEBAUTHN"
            ? "Or have a code sent to you:"
            : "Or have the code sent another way:"
      }
    />
  );
  // Said when another way leads: the code the login sent is not hidden, only second.
  const alsoSent = <> You chose this way first on this browser; we also sent a code {where}, under “Use another way”.</>;
  return (
    <AuthCard
      title={byPasskey ? "Use your passkey" : "Enter your login code"}
      intro={
        byPasskey ? (
          <p>
            Your account has two-step sign-in. Use one of your passkeys: your device asks for its PIN, fingerprint or face, or for your security key.
            {sentToo && alsoSent}
          </p>
        ) : fromApp ? (
          <p>
            Your account has two-step sign-in. Open your authenticator app and enter the 6-digit code it shows for this site.
            {sentToo && alsoSent}
          </p>
        ) : (
          <p>Your account has two-step sign-in. We sent a 6-digit code {where}. It works for 15 minutes.</p>
        )
      }
      footer={newCode ? <LocalMailboxHint /> : undefined}
    >
      {/* One form, one "Remember this device" box; a recovery code only for a member who was given some (with an app or a passkey) and has some left. */}
      <SecondStepForm
        formId={SECOND_STEP_FORM}
        action={secondStepAction}
        page={SITE_PAGES.loginCode}
        code={type !== "WEBAUTHN"}
        app={appToo ?? false}
        recovery={recoveryCodes ?? false}
        lead={
          offer ? (
            <>
              {sendingPart}
              {byPasskey && passkeyPart}
            </>
          ) : byPasskey ? (
            passkeyPart
          ) : undefined
        }
        sending={offer ? undefined : sendingPart || undefined}
        others={byPasskey ? undefined : passkeyPart || undefined}
        appFirst={lead === "app"}
        codeBelow={lead === "passkey"}
        codeNote={
          sentToo ? (
            <>As on every login, we also sent a 6-digit code {where}: enter it here instead. It works for 15 minutes.</>
          ) : (
            "Or enter the 6-digit code your authenticator app shows for this site."
          )
        }
      />
    </AuthCard>
  );
}
