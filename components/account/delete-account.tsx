"use client";

import { useEffect, useRef, useState } from "react";
import { ActionForm } from "@/components/forms/action-form";
import type { FormAction } from "@/lib/form-state";
import { dangerFocusRing } from "@/components/class-names";

/**
 * Deleting the account takes two steps: open the confirmation, then confirm it. The button that
 * opens it goes away, so the focus moves into the confirmation (its checkbox), and back to the
 * button when the member keeps their account; it never drops to the page's start.
 */
export function DeleteAccount({ action }: { action: FormAction }) {
  const [confirming, setConfirming] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    // Not on the first render: the page does not start with the focus here.
    if (!moved.current) return;
    if (confirming) panel.current?.querySelector<HTMLElement>("input:not([type=hidden])")?.focus();
    else opener.current?.focus();
  }, [confirming]);
  const toggle = (open: boolean) => {
    moved.current = true;
    setConfirming(open);
  };
  if (!confirming) {
    return (
      <button
        ref={opener}
        type="button"
        onClick={() => toggle(true)}
        className={`rounded-lg border border-red-700 bg-white px-4 py-2 text-sm font-medium text-red-800 hover:bg-red-50 ${dangerFocusRing}`}
      >
        Delete my account…
      </button>
    );
  }
  return (
    <div ref={panel} className="space-y-4 rounded-lg border border-red-300 bg-red-50 p-4">
      <p className="text-sm text-red-900">Your profile and login are removed for good, and you are logged out at once.</p>
      <ActionForm
        kind="deleteAccount"
        action={action}
        fields={[{ name: "confirm", label: "I understand that this cannot be undone.", type: "checkbox" }]}
        submitLabel="Delete my account for good"
        pendingLabel="Deleting your account…"
        tone="danger"
        wideButton={false}
      />
      <button type="button" onClick={() => toggle(false)} className="text-sm font-medium text-stone-800 underline underline-offset-2">
        Keep my account
      </button>
    </div>
  );
}
