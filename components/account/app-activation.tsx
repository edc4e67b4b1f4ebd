"use client";

import type { ReactNode } from "react";
import { ActionStateForm, type ActionState } from "@/components/forms/action-form";

/**
 * The form that turns an authenticator app on with its first code. Its reply is kept by the
 * two-step section around it (the form is gone once the app is on, and the page lists it), which
 * shows the confirmation in place of the set-up's; recovery codes that come with the first app
 * have a page of their own. `children` is the set-up's QR code and key, drawn on the server.
 */
export function AppActivation({
  factorId,
  actionState,
  replyId,
  children,
}: {
  factorId: string;
  actionState: ActionState;
  replyId: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-4 rounded-lg border border-pine-700/40 bg-pine-50/40 p-4">
      {children}
      <ActionStateForm
        actionState={actionState}
        confirmationShownElsewhere
        replyId={replyId}
        kind="appFactorCode"
        fields={[{ name: "code", label: "Code from the app", autoComplete: "one-time-code", inputMode: "numeric" }]}
        hidden={{ factorId }}
        submitLabel="Turn on the authenticator app"
        pendingLabel="Checking the code…"
        wideButton={false}
      />
    </div>
  );
}
