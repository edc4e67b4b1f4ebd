"use client";

import { createContext, useContext, type ReactNode, type useActionState } from "react";
import { useFormStatus } from "react-dom";
import { focusRing } from "@/components/class-names";
import { useFocusOnNews } from "@/components/forms/feedback";
import { useFocusWhenOpenedAt, useFormReply } from "@/components/forms/form-reply";
import { rsvpAction, type RsvpState } from "./actions";

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

/** Where a join or cancel posted without JavaScript comes back to (one RsvpFeedback a page). */
const RSVP_REPLY = "rsvp-reply";

const RsvpReply = createContext<ReturnType<typeof useActionState<RsvpState, FormData>> | null>(null);

/**
 * Keeps the reply of the join and cancel buttons inside it, and shows it above them: a button is
 * disabled while on its way and may be gone after (a cancelled outing leaves the account's list),
 * so the message takes the focus. The page around is rendered again after the action (the
 * sign-ups' cache tag is dropped), so places left and the button change while the message stays.
 */
export function RsvpFeedback({ children }: { children: ReactNode }) {
  const reply = useFormReply(rsvpAction, {}, RSVP_REPLY);
  const [{ done, error }] = reply;
  const message = error ?? done;
  const shown = useFocusOnNews<HTMLParagraphElement>(message ? reply[0] : null);
  useFocusWhenOpenedAt(shown, message ? RSVP_REPLY : undefined);
  return (
    <RsvpReply value={reply}>
      {message && (
        <p
          ref={shown}
          id={RSVP_REPLY}
          role={error ? "alert" : "status"}
          tabIndex={-1}
          className={`text-sm outline-none ${error ? "text-red-800" : "text-pine-900"}`}
        >
          {message}
        </p>
      )}
      {children}
    </RsvpReply>
  );
}

/** Joins or cancels with one press, inside an RsvpFeedback. `intent` "full" shows no button. */
export function RsvpButton({ intent, route, outingId }: { intent: "join" | "cancel" | "full"; route: string; outingId: string }) {
  const reply = useContext(RsvpReply);
  if (!reply) throw new Error("A join or cancel button must be inside RsvpFeedback.");
  if (intent === "full") return null;
  return (
    <form action={reply[1]}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="route" value={route} />
      <input type="hidden" name="outingId" value={outingId} />
      <Submit {...LABELS[intent]} />
    </form>
  );
}
