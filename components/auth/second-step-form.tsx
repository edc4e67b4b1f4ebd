"use client";

import { getFormProps, useForm } from "@conform-to/react";
import { useActionState, useEffect, useRef, useState, type ReactNode } from "react";
import { summaryButton } from "@/components/class-names";
import { Field } from "@/components/forms/field";
import { FormFeedback, SubmitButton, useActionSubmit } from "@/components/forms/feedback";
import { useFormChecks } from "@/components/forms/use-form-checks";
import type { FormAction } from "@/lib/form-state";

/**
 * A login's second step as one form with one "Remember this device" box: the code field first
 * (unless a passkey leads, `lead`, or the app's code, `appFirst`), then `sending` (a new code, or by
 * another way), and under "Use another way" the rest: `others` (a passkey below a code), the app's
 * code, a recovery code, and the code sent when another way leads (`codeBelow`, `appFirst`: the
 * member's "Ask first for", lib/auth/ask-first.ts; `sending` then follows, where its answer can take the focus). Their fields and buttons sit outside the form
 * element (forms cannot nest) and name it, so they post with the box, without JavaScript too; the
 * button pressed names the way. A field refused under "Use another way" comes back with it open.
 */
export function SecondStepForm({
  formId,
  action,
  page,
  code,
  app,
  recovery,
  lead,
  sending,
  others,
  appFirst = false,
  codeBelow = false,
  codeNote,
}: {
  /** The form's id (SECOND_STEP_FORM), passed in: lib/auth/forms.ts would bring zod into the page's first load. */
  formId: string;
  action: FormAction;
  /** The page's own path, where the form posts before (or without) JavaScript. */
  page: string;
  /** The challenge sent a code, or asks the app's: its field leads. */
  code: boolean;
  /** The app's code in place of the code sent. */
  app: boolean;
  recovery: boolean;
  lead?: ReactNode;
  sending?: ReactNode;
  others?: ReactNode;
  /** The app's code leads, in place of the code sent (under "Use another way", with `sending`). */
  appFirst?: boolean;
  /** A passkey leads: the code sent waits under "Use another way", with `sending`. */
  codeBelow?: boolean;
  /** Where the code went, said above its field when it waits under "Use another way". */
  codeNote?: ReactNode;
}) {
  const [state, formAction, pending] = useActionState(action, {}, page);
  const [form, fields] = useForm<Record<string, string>>({
    id: formId,
    lastResult: state.result,
    onValidate: useFormChecks("secondStep"),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const formProps = getFormProps(form);
  const { summary, formRef, onSubmit } = useActionSubmit(state, formAction, formProps.onSubmit);
  // Open once a field under it was refused, and kept open (React would close it as the field is corrected); again at each new refusal.
  const sentBelow = code && (appFirst || codeBelow);
  const refusedBelow = Boolean((!appFirst && state.result?.error?.appCode) || state.result?.error?.recoveryCode || (sentBelow && state.result?.error?.code));
  const [keptOpen, setKeptOpen] = useState(refusedBelow);
  if (refusedBelow && !keptOpen) setKeptOpen(true);
  const otherWays = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (refusedBelow && otherWays.current) otherWays.current.open = true;
  }, [state, refusedBelow]);
  const wayButton = (way: string, label: string, wide: boolean) => (
    <SubmitButton pending={pending} pendingLabel="Checking the code…" name="way" value={way} form={form.id} wide={wide}>
      {label}
    </SubmitButton>
  );
  const codeField = <Field meta={fields.code} spec={{ label: "Login code", autoComplete: "one-time-code", inputMode: "numeric" }} />;
  const appField = <Field meta={fields.appCode} spec={{ label: "Code from your app", autoComplete: "one-time-code", inputMode: "numeric" }} />;
  return (
    <>
      {lead}
      <form {...formProps} ref={formRef} onSubmit={onSubmit} action={formAction} className={`space-y-5${lead ? " mt-5" : ""}`} aria-busy={pending}>
        <FormFeedback summary={summary} errors={form.errors ?? []} errorId={form.errorId} />
        {appFirst ? appField : code && !codeBelow && codeField}
        <Field meta={fields.rememberDevice} spec={{ label: "Remember this device for 30 days", type: "checkbox", optional: true }} />
        {appFirst ? wayButton("app", "Log in", true) : code && !codeBelow && wayButton("code", "Log in", true)}
      </form>
      {!sentBelow && sending}
      {(others || app || recovery || sentBelow) && (
        <details ref={otherWays} open={keptOpen || undefined} className="mt-6 border-t border-stone-200 pt-4">
          <summary className={`${summaryButton} font-medium text-pine-700 underline-offset-2 hover:underline`}>Use another way</summary>
          {others}
          {sentBelow && (
            <div className="mt-4 space-y-3">
              <p className="text-sm text-stone-700">{codeNote}</p>
              {codeField}
              {wayButton("code", "Use this code", false)}
            </div>
          )}
          {app && !appFirst && (
            <div className="mt-4 space-y-3">
              <p className="text-sm text-stone-700">Use your authenticator app instead: enter the code it shows for this site.</p>
              {appField}
              {wayButton("app", "Use the app's code", false)}
            </div>
          )}
          {recovery && (
            <div className="mt-6 space-y-3 border-t border-stone-200 pt-4">
              <p className="text-sm text-stone-700">
                Lost your phone or passkey? If you saved recovery codes when you set up an authenticator app or a passkey, log in with one of them. Each works
                once.
              </p>
              <Field meta={fields.recoveryCode} spec={{ label: "Recovery code", autoComplete: "off" }} />
              {wayButton("recovery", "Use the recovery code", false)}
            </div>
          )}
        </details>
      )}
      {sentBelow && sending}
    </>
  );
}
