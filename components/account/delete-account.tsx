"use client";

import { useState } from "react";
import { ActionForm } from "@/components/forms/action-form";
import type { FormAction } from "@/lib/form-state";
import { dangerFocusRing } from "@/components/class-names";

/** Deleting the account takes two steps: open the confirmation, then confirm it. */
export function DeleteAccount({ action }: { action: FormAction }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button
        type="button"
        onClick={() => setConfirming(true)}
        className={`rounded-lg border border-red-700 bg-white px-4 py-2 text-sm font-medium text-red-800 hover:bg-red-50 ${dangerFocusRing}`}
      >
        Delete my account…
      </button>
    );
  }
  return (
    <div className="space-y-4 rounded-lg border border-red-300 bg-red-50 p-4">
      <p className="text-sm text-red-900">Your profile and login are removed for good, and you are signed out at once.</p>
      <ActionForm
        kind="deleteAccount"
        action={action}
        fields={[{ name: "confirm", label: "I understand that this cannot be undone.", type: "checkbox" }]}
        submitLabel="Delete my account for good"
        pendingLabel="Deleting your account…"
        tone="danger"
        wideButton={false}
      />
      <button type="button" onClick={() => setConfirming(false)} className="text-sm font-medium text-stone-800 underline underline-offset-2">
        Keep my account
      </button>
    </div>
  );
}
