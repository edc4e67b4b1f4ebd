"use client";

import { useActionState } from "react";
import { FormFeedback, SubmitButton, useFocusOnNews } from "@/components/forms/feedback";
import type { FormAction } from "@/lib/form-state";
import type { SendingFactorType } from "@/lib/wix/identity";

/** Where the answer stands: the fragment a form posted without JavaScript comes back to. */
const ANCHOR = "code-sending";

/**
 * "Send a new code" and "Send the code by text message instead" (or by e-mail) at a login's second
 * step: forms of one action sharing one answer, said here (where the code went, or the true wait),
 * which takes the focus. Without JavaScript the post comes back to `page` with a fragment that
 * points at the answer (the action state's permalink). With `preferred` (the member's "Ask first
 * for" on this browser) its button comes first, and the page puts this above the code field.
 */
export function CodeSending({
  action,
  page,
  newCode,
  others,
  lead,
  preferred,
  newCodeLead = "No code, or it expired? We can send a new one; the one before then stops working.",
}: {
  action: FormAction;
  /** The page's own path. */
  page: string;
  /** The challenge sent a code (by e-mail or text message): it may be sent again. */
  newCode: boolean;
  others: SendingFactorType[];
  lead: string;
  preferred?: SendingFactorType;
  /** What "Send a new code" is for, said above it, when the page leads with another way. */
  newCodeLead?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {}, `${page}#${ANCHOR}`);
  const summary = useFocusOnNews<HTMLDivElement>(state.result || state.done ? state : null);
  const errors = state.result?.error?.[""] ?? [];
  const newCodePart = newCode && (
    <form key="new" action={formAction} aria-busy={pending} className={`space-y-3${preferred ? " pt-3" : ""}`}>
      <p className="text-sm text-stone-700">{newCodeLead}</p>
      <SubmitButton pending={pending} pendingLabel="Sending…" wide={false}>
        Send a new code
      </SubmitButton>
    </form>
  );
  const othersPart = others.length > 0 && (
    <div key="others" className="space-y-3">
      <p className={`text-sm text-stone-700${newCode && !preferred ? " pt-3" : ""}`}>{lead}</p>
      <div className="flex flex-wrap gap-3">
        {[...others]
          .sort((one, other) => Number(other === preferred) - Number(one === preferred))
          .map((other) => (
            <form key={other} action={formAction} aria-busy={pending}>
              <input type="hidden" name="factorType" value={other} />
              <SubmitButton pending={pending} pendingLabel="Sending…" tone={other === preferred ? "primary" : "quiet"} wide={false}>
                {other === "SMS" ? "Send the code by text message instead" : "Send the code by e-mail instead"}
              </SubmitButton>
            </form>
          ))}
      </div>
    </div>
  );
  return (
    <div className={preferred ? "space-y-3 border-b border-stone-200 pb-4" : "mt-6 space-y-3 border-t border-stone-200 pt-4"}>
      <div id={ANCHOR} className="scroll-mt-4">
        <FormFeedback summary={summary} errors={errors} errorId="code-sending-error" done={state.done} />
      </div>
      {preferred ? [othersPart, newCodePart] : [newCodePart, othersPart]}
    </div>
  );
}
