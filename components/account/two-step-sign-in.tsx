import { ActionForm } from "@/components/forms/action-form";
import type { FormAction } from "@/lib/form-state";
import type { SecondFactor } from "@/lib/wix/factors";

type Actions = { turnOnEmail: FormAction; turnOnSms: FormAction; turnOff: FormAction };

/** The account page's two-step sign-in: the factors that are on, each with a way to turn it off, and forms for those that are not. */
export function TwoStepSignIn({ factors, email, actions }: { factors: SecondFactor[]; email: string | null; actions: Actions }) {
  const byType = (type: SecondFactor["type"]) => factors.find((factor) => factor.type === type);
  return (
    <div className="space-y-6">
      {factors.length === 0 ? (
        <p className="text-sm text-stone-700">Two-step sign-in is off: your password alone logs you in.</p>
      ) : (
        <ul className="space-y-4">
          {factors.map((factor) => (
            <li key={factor.id} className="space-y-2 rounded-lg border border-stone-200 p-4">
              <p className="text-sm text-stone-800">
                {factor.type === "EMAIL" ? `Codes by e-mail${email ? ` to ${email}` : ""}` : `Codes by text message to ${factor.phone ?? "your phone"}`}
              </p>
              <ActionForm
                kind="removeFactor"
                action={actions.turnOff}
                fields={[]}
                hidden={{ factorId: factor.id }}
                submitLabel={factor.type === "EMAIL" ? "Turn off e-mail codes" : "Turn off text-message codes"}
                pendingLabel="Turning off…"
                wideButton={false}
              />
            </li>
          ))}
        </ul>
      )}
      {!byType("EMAIL") && (
        <ActionForm
          kind="buttonOnly"
          action={actions.turnOnEmail}
          fields={[]}
          submitLabel="Turn on codes by e-mail"
          pendingLabel="Turning on…"
          wideButton={false}
        />
      )}
      {!byType("SMS") && (
        <ActionForm
          kind="smsFactor"
          action={actions.turnOnSms}
          fields={[{ name: "phone", label: "Mobile number", type: "tel", autoComplete: "tel", hint: "In international form, like +44 7700 900123." }]}
          submitLabel="Turn on codes by text message"
          pendingLabel="Turning on…"
          wideButton={false}
        />
      )}
    </div>
  );
}
