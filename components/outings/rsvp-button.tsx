"use client";

import { useActionState } from "react";
import { useFormStatus } from "react-dom";
import { focusRing } from "@/components/class-names";
import { rsvpAction } from "./actions";

function Submit({ label, pendingLabel, tone }: { label: string; pendingLabel: string; tone: "primary" | "secondary" }) {
  const { pending } = useFormStatus();
  const look = tone === "primary" ? "bg-pine-700 text-white hover:bg-pine-800" : "border border-pine-700 bg-white text-pine-800 hover:bg-pine-50";
  return (
    <button type="submit" disabled={pending} className={`rounded-lg px-4 py-2 font-medium disabled:cursor-wait disabled:opacity-70 ${look} ${focusRing}`}>
      {pending ? pendingLabel : label}
    </button>
  );
}

const LABELS = {
  join: { label: "Join this outing", pendingLabel: "Joining…", tone: "primary" },
  cancel: { label: "Cancel my place", pendingLabel: "Cancelling…", tone: "secondary" },
} as const;

/**
 * Joins or cancels with one press. The page around it is rendered again after the action (the
 * sign-ups' cache tag is dropped), so places left and the button change while the message stays.
 * `intent` "full" shows no button, only the message of the last press.
 */
export function RsvpButton({ intent, route, outingId }: { intent: "join" | "cancel" | "full"; route: string; outingId: string }) {
  const [state, formAction] = useActionState(rsvpAction, {});
  return (
    <form action={formAction} className="space-y-2">
      {intent !== "full" && <input type="hidden" name="intent" value={intent} />}
      <input type="hidden" name="route" value={route} />
      <input type="hidden" name="outingId" value={outingId} />
      {intent !== "full" && <Submit {...LABELS[intent]} />}
      {state.error && (
        <p role="alert" className="text-sm text-red-800">
          {state.error}
        </p>
      )}
      {state.done && (
        <p role="status" className="text-sm text-pine-900">
          {state.done}
        </p>
      )}
    </form>
  );
}
