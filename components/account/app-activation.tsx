"use client";

import { useActionState, useRef, type ReactNode } from "react";
import { ActionStateForm } from "@/components/forms/action-form";
import { FormFeedback, RecoveryCodeList } from "@/components/forms/feedback";
import type { FormAction } from "@/lib/form-state";

/**
 * The form that turns an authenticator app on, and its answer. It holds the answer itself
 * because the form is gone once the app is on (the page then lists it), while the confirmation
 * and the recovery codes that come with the first app must stay in view. `children` is the
 * set-up's QR code and key, drawn on the server.
 */
export function AppActivation({ factorId, action, children }: { factorId: string | null; action: FormAction; children?: ReactNode }) {
  const actionState = useActionState(action, {});
  const [state] = actionState;
  const summary = useRef<HTMLDivElement>(null);
  return (
    <>
      {!factorId && state.done && (
        <div className="space-y-3">
          <FormFeedback summary={summary} errors={[]} errorId="app-activation-error" done={state.done} />
          {state.recoveryCodes && <RecoveryCodeList codes={state.recoveryCodes} />}
        </div>
      )}
      {factorId && (
        <div className="space-y-4 rounded-lg border border-pine-700/40 bg-pine-50/40 p-4">
          {children}
          <ActionStateForm
            actionState={actionState}
            confirmationShownElsewhere
            kind="appFactorCode"
            fields={[{ name: "code", label: "Code from the app", autoComplete: "one-time-code", inputMode: "numeric" }]}
            hidden={{ factorId }}
            submitLabel="Turn on the authenticator app"
            pendingLabel="Checking the code…"
            wideButton={false}
          />
        </div>
      )}
    </>
  );
}
