"use client";

import { getFormProps, useForm } from "@conform-to/react";
import Link from "next/link";
import { CaptchaField } from "@/components/auth/captcha-field";
import { focusRing } from "@/components/class-names";
import type { FormAction, FormState } from "@/lib/form-state";
import type { CaptchaConfig } from "@/lib/wix/identity";
import { Field, type FieldSpec } from "./field";
import { FormFeedback, SubmitButton, useActionSubmit } from "./feedback";
import type { FormKind } from "./form-checks";
import { showsReply, useFormReply } from "./form-reply";
import { useFormChecks } from "./use-form-checks";

type Props = {
  /** Which rules check it (form-checks.ts). */
  kind: FormKind;
  fields: FieldSpec[];
  submitLabel: string;
  pendingLabel: string;
  hidden?: Record<string, string>;
  defaultValue?: Record<string, string>;
  captcha?: CaptchaConfig;
  tone?: "primary" | "danger" | "quiet";
  /** A button as wide as the form, as on the sign-in cards; else as wide as its label. */
  wideButton?: boolean;
  /** The id of what shows the reply, where a post without JavaScript comes back to (form-reply.ts); none for a form that redirects. */
  replyId?: string;
};

/** What `useActionState` gives for a server action: the last reply, the form's action, and whether it is on its way. */
export type ActionState = [state: FormState, formAction: (formData: FormData) => void, pending: boolean];

/**
 * A form on a server action. The same zod schema checks it here and on the server; errors
 * stand next to their field (announced through aria-describedby, the first one focused),
 * values survive an error, and the button cannot be pressed twice. The action goes to the form
 * as the server's own reference, so the form also posts, and shows the same reply, without
 * JavaScript, the page then scrolled to it.
 */
export function ActionForm({ action, ...props }: Props & { action: FormAction }) {
  return <ActionStateForm actionState={useFormReply(action, {}, props.replyId)} {...props} />;
}

/**
 * The same form on a reply kept by someone else, for a form that may be gone when the reply
 * comes (a deleted report's): the holder shows the confirmation, `done` is not shown here.
 */
export function ActionStateForm({
  actionState: [state, formAction, pending],
  kind,
  fields,
  submitLabel,
  pendingLabel,
  hidden = {},
  defaultValue,
  captcha,
  tone,
  wideButton = true,
  replyId,
  confirmationShownElsewhere = false,
}: Props & { actionState: ActionState; confirmationShownElsewhere?: boolean }) {
  // Typed by field name: the fields come from the page, the rules from the schema.
  const [form, formFields] = useForm<Record<string, string>>({
    lastResult: state.result,
    defaultValue,
    onValidate: useFormChecks(kind),
    // First checked by the server on submit (a message appearing on blur would move the button
    // under the pointer); after that, each field is checked again as it is corrected.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const formProps = getFormProps(form);
  const { summary, formRef, onSubmit } = useActionSubmit(state, formAction, formProps.onSubmit);
  // Its errors, at the fields or above them, or its own confirmation: what a post comes back to.
  const shownReplyId = showsReply(state, !confirmationShownElsewhere) ? replyId : undefined;

  if (state.finished) {
    return (
      <div className="space-y-5">
        <FormFeedback summary={summary} errors={[]} errorId={form.errorId} done={state.done} replyId={shownReplyId} />
        <p>
          <Link href={state.finished.href} className={`font-medium text-pine-700 underline underline-offset-2 ${focusRing}`}>
            {state.finished.label}
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form {...formProps} ref={formRef} onSubmit={onSubmit} action={formAction} className="space-y-5" aria-busy={pending}>
      <FormFeedback
        summary={summary}
        errors={form.errors ?? []}
        errorId={form.errorId}
        done={confirmationShownElsewhere ? undefined : state.done}
        replyId={shownReplyId}
      />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {fields.map(({ name, ...spec }) => (
        <Field key={name} meta={formFields[name]} spec={spec} />
      ))}
      {state.captcha && captcha && <CaptchaField config={captcha} stage={state.captcha} />}
      <SubmitButton pending={pending} pendingLabel={pendingLabel} tone={tone} wide={wideButton}>
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

const NO_REPLY: FormState = {};

/**
 * The hidden field that names the card (a report's, a factor's) a form is on, so its reply finds
 * its way back when the forms of all cards share one reply.
 */
export const SENT_FROM = "sentFrom";

/**
 * The reply only when it answers a form on this card: the forms of all cards (the edit and delete
 * forms of all reports) share one. It goes by the card the form was on, not by what the form named.
 */
export function replyFor([state, formAction, pending]: ActionState, card: string): ActionState {
  const answered = state.result?.initialValue?.[SENT_FROM] === card;
  return [answered ? state : NO_REPLY, formAction, pending];
}
