import type { Metadata } from "next";
import { cookies } from "next/headers";
import Link from "next/link";
import { RecoveryCodeTools } from "@/components/account/recovery-code-tools";
import { ConfirmationMessage, RecoveryCodeList, SubmitButton } from "@/components/forms/feedback";
import { focusRing } from "@/components/class-names";
import { RECOVERY_CODES_HEADING, RECOVERY_CODES_TTL_SECONDS, keptRecoveryCodes } from "@/lib/account/recovery-codes-store";
import { RECOVERY_CODES_PATH } from "@/lib/auth/cookie-names";
import { readAsMember, requireMember } from "@/lib/auth/request-session";
import { currentProfile } from "@/lib/wix/members";
import { recoveryCodesSaved } from "../actions";

export const metadata: Metadata = { title: "Your recovery codes", robots: { index: false } };

const linkClass = `font-medium text-pine-700 underline underline-offset-2 ${focusRing}`;
const buttonClass = `rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-800 hover:bg-stone-50 ${focusRing}`;

/**
 * Recovery codes just made, on a page of their own: they are shown this once, so they are the
 * page's subject, not a box low on the account page. Kept in a sealed cookie of this path
 * (lib/account/recovery-codes-store.ts) until "I have saved them" or for 10 minutes; copy and
 * print need script, the download does not (a POST to ./download).
 */
export default async function RecoveryCodesPage() {
  const session = await requireMember(RECOVERY_CODES_PATH);
  const memberId = session.member?.id ?? (await readAsMember(session, RECOVERY_CODES_PATH, currentProfile)).id;
  const kept = await keptRecoveryCodes(await cookies(), memberId);
  return (
    <div className="mx-auto max-w-2xl space-y-6 py-12">
      <h1 id={RECOVERY_CODES_HEADING} className="font-serif text-4xl font-semibold text-pine-900">
        Your recovery codes
      </h1>
      {kept ? (
        <>
          {/* What made them, as news: it takes the focus, where the form pressed on the account page had it. */}
          <ConfirmationMessage news={{ message: kept.done, serial: 1 }} />
          <p className="text-stone-800">
            These codes are shown <strong>only on this page, and only now</strong>: it forgets them when you press “I have saved them”, or in{" "}
            {RECOVERY_CODES_TTL_SECONDS / 60} minutes, and nobody can show them to you again. Save them somewhere safe, away from your phone: a password
            manager, or a printed copy.
          </p>
          <RecoveryCodeList codes={kept.codes} />
          <div className="flex flex-wrap gap-3 print:hidden">
            <RecoveryCodeTools codes={kept.codes} buttonClass={buttonClass} />
            {/* A POST, so the codes never travel in an address (history, logs, a Referer); the cookie carries them. */}
            <form method="post" action={`${RECOVERY_CODES_PATH}/download`}>
              <button type="submit" className={buttonClass}>
                Download as a text file
              </button>
            </form>
          </div>
          <form action={recoveryCodesSaved} className="print:hidden">
            <SubmitButton pending={false} pendingLabel="Going back…" wide={false}>
              I have saved them
            </SubmitButton>
          </form>
        </>
      ) : (
        <p className="text-stone-800">
          There are no new recovery codes to show: they are shown only once, just after they are made. If you did not save them, make new ones in{" "}
          <Link href="/account#two-step" className={linkClass}>
            two-step sign-in on your account
          </Link>
          ; the earlier ones then stop working.
        </p>
      )}
    </div>
  );
}
