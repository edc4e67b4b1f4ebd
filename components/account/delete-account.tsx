"use client";

import { useRef } from "react";
import { ActionStateForm } from "@/components/forms/action-form";
import { useFormReply } from "@/components/forms/form-reply";
import type { FormAction } from "@/lib/form-state";
import { dangerFocusRing, summaryButton } from "@/components/class-names";

const openerLook = `hover:bg-red-50 ${summaryButton} ${dangerFocusRing}`;

const DELETE_ACCOUNT_REPLY = "delete-account-reply";

/**
 * Deleting the account takes two steps: open the confirmation, then confirm it. The confirmation
 * is a native disclosure, so both steps work without JavaScript; its button reads "Keep my
 * account" while it is open. A refused confirmation (the box not ticked) keeps it open, and a post
 * without JavaScript comes back to it. With script, opening moves the focus into the confirmation
 * (its first checkbox). It says what stays
 * (the member's reports, unless they tick the box to remove them with the account).
 */
export function DeleteAccount({ action, reports }: { action: FormAction; reports?: string }) {
  // A refusal comes back at the form; the action's redirect, once the account is gone, has a fragment of its own.
  const actionState = useFormReply(action, {}, DELETE_ACCOUNT_REPLY);
  const disclosure = useRef<HTMLDetailsElement>(null);
  const onToggle = () => {
    if (disclosure.current?.open) disclosure.current.querySelector<HTMLElement>("input:not([type=hidden])")?.focus();
  };
  return (
    <details ref={disclosure} open={actionState[0].result?.status === "error" || undefined} onToggle={onToggle} className="group space-y-4">
      <summary className={`inline-block rounded-lg border border-red-700 bg-white px-4 py-2 text-sm font-medium text-red-800 ${openerLook}`}>
        <span className="group-open:hidden">Delete my account…</span>
        <span className="hidden group-open:inline">Keep my account</span>
      </summary>
      <div className="space-y-4 rounded-lg border border-red-300 bg-red-50 p-4">
        <p className="text-sm text-red-900">Your profile and login are removed for good, and you are logged out at once.</p>
        {reports && <p className="text-sm text-red-900">Your {reports} stay published, signed “by a member”, unless you choose to remove them too.</p>}
        <ActionStateForm
          actionState={actionState}
          kind="deleteAccount"
          fields={[
            ...(reports ? [{ name: "removeReports", label: `Also remove my ${reports}.`, type: "checkbox" as const }] : []),
            { name: "confirm", label: "I understand that this cannot be undone.", type: "checkbox" },
          ]}
          submitLabel="Delete my account for good"
          pendingLabel="Deleting your account…"
          tone="danger"
          wideButton={false}
          replyId={DELETE_ACCOUNT_REPLY}
        />
      </div>
    </details>
  );
}
