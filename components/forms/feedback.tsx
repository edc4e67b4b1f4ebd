"use client";

import { useEffect, useRef, useState, useTransition, type FormEvent, type ReactNode } from "react";
import type { FormState } from "@/lib/form-state";
import { useFocusWhenOpenedAt } from "./form-reply";

/** The name conform gives the buttons that add or remove list rows. */
const INTENT_BUTTON = "__intent__";

/**
 * Submits through the server action without React's automatic form reset (which would wipe
 * what the member typed when the server refuses it); the server checks the same schema the
 * fields are checked with on blur. Without JavaScript the form still posts to the action
 * natively. After every reply focus goes to the first invalid field, else to the form's
 * message, so keyboard and screen-reader users land on what changed.
 */
export function useActionSubmit(state: FormState, formAction: (formData: FormData) => void, conformSubmit: (event: FormEvent<HTMLFormElement>) => void) {
  const summary = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const [, startTransition] = useTransition();

  useEffect(() => {
    if (!state.result && !state.done) return;
    // After conform has applied the reply: a field it clears (a password) is a new element by then.
    const frame = requestAnimationFrame(() => {
      // The form's own fields, those outside it that name it (`form="…"`) included.
      const invalid = Array.from(form.current?.elements ?? []).find((element): element is HTMLElement => element.getAttribute("aria-invalid") === "true");
      if (invalid) invalid.focus();
      // An empty summary (the confirmation went elsewhere) would only take the focus from it.
      else if (summary.current?.textContent) summary.current.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [state]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    // Adding or removing a list row is conform's to handle, on the page.
    if (submitter?.getAttribute("name") === INTENT_BUTTON) return conformSubmit(event);
    event.preventDefault();
    const formData = new FormData(event.currentTarget, submitter);
    startTransition(() => formAction(formData));
  };
  return { summary, formRef: form, onSubmit };
}

/**
 * The form-level error (an alert) or confirmation (a status message). While its form shows a
 * reply, it carries the reply id, where a post without JavaScript comes back to (form-reply.ts).
 */
export function FormFeedback({
  summary,
  errors,
  errorId,
  done,
  replyId,
}: {
  summary: React.RefObject<HTMLDivElement | null>;
  errors: string[];
  errorId: string;
  done?: string;
  replyId?: string;
}) {
  return (
    <div ref={summary} id={replyId} tabIndex={-1} className="scroll-mt-6 outline-none">
      {errors.length > 0 && (
        <div role="alert" id={errorId} className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
          {errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      )}
      {done && (
        <p role="status" className="rounded-lg border border-pine-100 bg-pine-50 px-4 py-3 text-sm text-pine-900">
          {done}
        </p>
      )}
    </div>
  );
}

/** A confirmation kept above several forms, numbered so the same words said twice are news again. */
export type Confirmation = { message: string; serial: number };

/**
 * The newest confirmation among the replies of several forms, for forms that may be gone when
 * their reply comes (a turned-on factor's form, a cancelled outing's row). Worked out while
 * rendering, since it is derived from the replies. One shown from the first render (a post
 * without JavaScript) has serial 0 and does not take the focus. A newer reply without one (a
 * refusal, shown at its form) takes the last one away, so it does not stand above the new error.
 */
export function useNewestConfirmation(replies: { done?: string }[]): Confirmation | null {
  const [seen, setSeen] = useState(replies);
  const [news, setNews] = useState(() => {
    const message = replies.find((reply) => reply.done)?.done;
    return message ? { message, serial: 0 } : null;
  });
  const changed = replies.find((reply, index) => reply !== seen[index]);
  if (changed) {
    setSeen(replies);
    setNews(changed.done ? { message: changed.done, serial: (news?.serial ?? 0) + 1 } : null);
  }
  return news;
}

/**
 * Focus on the returned element after each new `news` (anything but null, undefined or 0): the
 * button pressed is often gone or disabled by then, and the focus would fall to the page.
 */
export function useFocusOnNews<T extends HTMLElement>(news: unknown) {
  const target = useRef<T>(null);
  useEffect(() => {
    if (!news) return;
    // After the form's own reply handling, which would otherwise keep the focus.
    const frame = requestAnimationFrame(() => target.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [news]);
  return target;
}

/**
 * The newest confirmation as a status message that takes the focus when it is new, and carries
 * the forms' reply id (form-reply.ts): a post without JavaScript comes back to it, and the focus
 * follows once the page's script runs.
 */
export function ConfirmationMessage({ news, replyId }: { news: Confirmation | null; replyId?: string }) {
  const region = useFocusOnNews<HTMLParagraphElement>(news?.serial);
  useFocusWhenOpenedAt(region, news ? replyId : undefined);
  if (!news) return null;
  return (
    <p
      key={news.serial}
      ref={region}
      id={replyId}
      role="status"
      tabIndex={-1}
      className="scroll-mt-6 rounded-lg border border-pine-100 bg-pine-50 px-4 py-3 text-sm text-pine-900 outline-none focus-visible:ring-4 focus-visible:ring-pine-100"
    >
      {news.message}
    </p>
  );
}

/** Recovery codes just made, on their page of their own: to be saved, each good for one login. */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  return (
    <div className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-stone-900">
      <p>Each one logs you in once if you lose the phone or device with your app or passkey.</p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 font-mono">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}

const submitClass = "rounded-lg px-5 py-3 font-medium focus-visible:outline-none focus-visible:ring-4 disabled:cursor-wait disabled:opacity-70";
const tones = {
  primary: "bg-pine-700 text-white hover:bg-pine-600 focus-visible:ring-pine-100",
  danger: "bg-red-700 text-white hover:bg-red-600 focus-visible:ring-red-200",
  /** A second action beside the main one, such as "Resend code". */
  quiet: "border border-stone-300 bg-white text-stone-800 hover:bg-stone-50 focus-visible:ring-pine-100",
};

/** A submit button that cannot be pressed twice while its form is on its way. */
export function SubmitButton({
  pending,
  children,
  pendingLabel,
  tone = "primary",
  wide = true,
  name,
  value,
  form,
}: {
  pending: boolean;
  children: ReactNode;
  pendingLabel: string;
  tone?: keyof typeof tones;
  wide?: boolean;
  /** Sent with the form when this button is the one pressed: which of several ways it is. */
  name?: string;
  value?: string;
  /** The form's id, for a button placed outside it. */
  form?: string;
}) {
  return (
    // The label in an element of its own and the pending words in an attribute: a form sent before
    // the page's script has started shows them through CSS (components/forms/early-pending.tsx).
    <button
      type="submit"
      name={name}
      value={value}
      form={form}
      disabled={pending}
      data-pending-label={pendingLabel}
      className={`${wide ? "w-full " : ""}${submitClass} ${tones[tone]}`}
    >
      <span>{pending ? pendingLabel : children}</span>
    </button>
  );
}
