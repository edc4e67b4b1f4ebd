"use client";

import { useEffect, useRef, useState, useTransition } from "react";
import { ActionStateForm, type ActionState } from "@/components/forms/action-form";
import { ConfirmationMessage, FormFeedback, useNewestConfirmation } from "@/components/forms/feedback";
import { Disclosure } from "@/components/forms/disclosure";
import { showsReply, useFormReply } from "@/components/forms/form-reply";
import { ceremonyFailureMessage, passkeyCeremonies, usePasskeySupport } from "@/components/forms/passkeys";
import { CardPasswordForm } from "./card-password-form";
import { PASSWORD_FIELD } from "./password-field";
import type { FormAction, FormState, PasskeyCeremony } from "@/lib/form-state";
import type { Passkey } from "@/lib/wix/factors";
import { dateFormat } from "./remembered-devices";

const NO_REPLY: FormState = {};

/** Where a post of the passkeys' forms without JavaScript comes back to (each form has its own action). */
const PASSKEYS_REPLY = "passkeys-reply";

/**
 * The member's passkeys on the account page: each with its dates and a form to remove it (which
 * posts without JavaScript too), and a form to add one. Adding runs in the browser between two
 * server actions: the password brings the registration's options, the browser's passkey prompt
 * makes the credential, and the second action registers it. The confirmation (and the recovery
 * codes a first passkey brings) stands above the list and takes the focus.
 */
export function Passkeys({
  passkeys,
  checkEveryTime,
  actions,
}: {
  passkeys: Passkey[];
  checkEveryTime: boolean;
  actions: { options: FormAction; add: FormAction; remove: FormAction };
}) {
  const supported = usePasskeySupport();
  const options = useFormReply(actions.options, {}, PASSKEYS_REPLY);
  const added = useFormReply(actions.add, {}, PASSKEYS_REPLY);
  const remove = useFormReply(actions.remove, {}, PASSKEYS_REPLY);
  const news = useNewestConfirmation([added[0], remove[0]]);
  const [failure, setFailure] = useState<{ ceremony: PasskeyCeremony; message: string } | null>(null);
  const [, startTransition] = useTransition();
  const handled = useRef<PasskeyCeremony | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const ceremony = options[0].ceremony;
  const add = added[1];

  // A new registration's options: the browser's prompt, then its credential to the second action.
  useEffect(() => {
    // Once per reply (React may run an effect twice while developing).
    if (!ceremony || handled.current === ceremony) return;
    handled.current = ceremony;
    void (async () => {
      try {
        const { startRegistration } = await passkeyCeremonies();
        const credential = await startRegistration({ optionsJSON: JSON.parse(ceremony.optionsJson) });
        const data = new FormData();
        data.set("challengeId", ceremony.challengeId);
        data.set("credential", JSON.stringify(credential));
        data.set("name", ceremony.name);
        startTransition(() => add(data));
      } catch (error) {
        setFailure({ ceremony, message: ceremonyFailureMessage(error, true) });
      }
    })();
  }, [ceremony, add]);

  // Once a passkey is added, its form starts afresh (the default name, no password): its last reply is spent.
  const [seenAdded, setSeenAdded] = useState(added[0]);
  const [spent, setSpent] = useState<PasskeyCeremony | undefined>(undefined);
  if (added[0] !== seenAdded) {
    setSeenAdded(added[0]);
    if (added[0].done) setSpent(ceremony);
  }
  const addForm: ActionState = spent && spent === ceremony ? [NO_REPLY, options[1], options[2]] : options;

  const errors = failure && failure.ceremony === ceremony ? [failure.message] : (added[0].result?.error?.[""] ?? []);
  useEffect(() => {
    if (errors.length === 0) return;
    const frame = requestAnimationFrame(() => summary.current?.focus());
    return () => cancelAnimationFrame(frame);
    // A new failure or reply, not a new array of the same words.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [failure, added[0]]);

  return (
    <div className="space-y-4">
      <ConfirmationMessage news={news} replyId={PASSKEYS_REPLY} />
      {passkeys.length === 0 ? (
        <p className="text-sm text-stone-700">You have no passkey yet.</p>
      ) : (
        <>
          {checkEveryTime && (
            <p className="text-sm text-stone-700">Logins with your passkeys ask for your device&apos;s PIN, fingerprint or face every time.</p>
          )}
          <ul aria-label="Your passkeys" className="space-y-3">
            {passkeys.map((passkey) => (
              <li key={passkey.id} className="space-y-2 rounded-lg border border-stone-200 p-4">
                <p className="text-sm text-stone-800">
                  <span className="font-medium">{passkey.name}</span>, added on {dateFormat.format(passkey.added)}, last used{" "}
                  {passkey.lastUsed ? `on ${dateFormat.format(passkey.lastUsed)}` : "never"}
                </p>
                <CardPasswordForm
                  card={passkey.id}
                  idField="passkeyId"
                  summary="Remove…"
                  actionState={remove}
                  kind="removePasskey"
                  replyId={PASSKEYS_REPLY}
                  submitLabel={`Remove ${passkey.name}`}
                  pendingLabel="Removing…"
                  tone="quiet"
                />
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="space-y-3 rounded-lg border border-stone-200 p-4">
        <p className="text-sm text-stone-700">
          A passkey lives on your phone, computer or security key, and answers the second step with your device&apos;s screen lock: nothing to type.
        </p>
        {supported ? (
          <Disclosure summary="Add a passkey…" open={errors.length > 0 || showsReply(addForm[0], false)}>
            <FormFeedback summary={summary} errors={errors} errorId="add-passkey-error" replyId={errors.length > 0 ? PASSKEYS_REPLY : undefined} />
            <ActionStateForm
              key={spent?.challengeId ?? "add"}
              kind="passkeyOptions"
              actionState={addForm}
              confirmationShownElsewhere
              replyId={PASSKEYS_REPLY}
              defaultValue={{ name: "My passkey", ...(checkEveryTime && { everyTime: "on" }) }}
              fields={[
                { name: "name", label: "Name of the passkey", hint: "To tell your passkeys apart, like “Work laptop”." },
                PASSWORD_FIELD,
                {
                  name: "everyTime",
                  label: "Ask for my device's PIN, fingerprint or face every time",
                  type: "checkbox",
                  optional: true,
                  hint: "For all your passkeys' logins.",
                },
              ]}
              submitLabel="Add a passkey"
              pendingLabel="Starting…"
              wideButton={false}
            />
          </Disclosure>
        ) : (
          <p className="text-sm text-stone-700">
            {supported === null
              ? "Adding a passkey needs JavaScript and a browser that supports passkeys."
              : "This browser cannot make passkeys: add one from a browser that supports them."}
          </p>
        )}
      </div>
    </div>
  );
}
