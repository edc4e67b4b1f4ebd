"use client";

import { useActionState } from "react";
import { ActionStateForm, SENT_FROM, replyFor } from "@/components/forms/action-form";
import { ConfirmationMessage, useNewestConfirmation } from "@/components/forms/feedback";
import type { FormAction } from "@/lib/form-state";
import type { SecondFactor } from "@/lib/wix/factors";

type Actions = { turnOnEmail: FormAction; turnOnSms: FormAction; turnOff: FormAction };

/**
 * The account page's two-step sign-in: the factors that are on, each with a way to turn it off, and
 * forms for those that are not. A form goes as soon as its change is made (turned on, its factor
 * is listed instead), so the replies are kept here and the confirmation stands above the list,
 * taking the focus.
 */
export function TwoStepSignIn({ factors, email, actions }: { factors: SecondFactor[]; email: string | null; actions: Actions }) {
  const turnOnEmail = useActionState(actions.turnOnEmail, {});
  const turnOnSms = useActionState(actions.turnOnSms, {});
  const turnOff = useActionState(actions.turnOff, {});
  const news = useNewestConfirmation([turnOnEmail[0], turnOnSms[0], turnOff[0]]);
  const byType = (type: SecondFactor["type"]) => factors.find((factor) => factor.type === type);
  return (
    <div className="space-y-6">
      <ConfirmationMessage news={news} />
      {factors.length === 0 ? (
        <p className="text-sm text-stone-700">Two-step sign-in is off: your password alone logs you in.</p>
      ) : (
        <ul className="space-y-4">
          {factors.map((factor) => (
            <li key={factor.id} className="space-y-2 rounded-lg border border-stone-200 p-4">
              <p className="text-sm text-stone-800">
                {factor.type === "EMAIL" ? `Codes by e-mail${email ? ` to ${email}` : ""}` : `Codes by text message to ${factor.phone ?? "your phone"}`}
              </p>
              <ActionStateForm
                actionState={replyFor(turnOff, factor.id)}
                confirmationShownElsewhere
                kind="removeFactor"
                fields={[]}
                hidden={{ factorId: factor.id, [SENT_FROM]: factor.id }}
                submitLabel={factor.type === "EMAIL" ? "Turn off e-mail codes" : "Turn off text-message codes"}
                pendingLabel="Turning off…"
                wideButton={false}
              />
            </li>
          ))}
        </ul>
      )}
      {!byType("EMAIL") && (
        <ActionStateForm
          actionState={turnOnEmail}
          confirmationShownElsewhere
          kind="buttonOnly"
          fields={[]}
          submitLabel="Turn on codes by e-mail"
          pendingLabel="Turning on…"
          wideButton={false}
        />
      )}
      {!byType("SMS") && (
        <ActionStateForm
          actionState={turnOnSms}
          confirmationShownElsewhere
          kind="smsFactor"
          fields={[{ name: "phone", label: "Mobile number", type: "tel", autoComplete: "tel", hint: "In international form, like +44 7700 900123." }]}
          submitLabel="Turn on codes by text message"
          pendingLabel="Turning on…"
          wideButton={false}
        />
      )}
    </div>
  );
}
