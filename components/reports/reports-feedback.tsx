"use client";

import { createContext, useActionState, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { ActionState } from "@/components/forms/action-form";
import type { FormAction, FormState } from "@/lib/form-state";

type ReportActions = { write: FormAction; edit: FormAction; remove: FormAction };
type ReportActionStates = Record<keyof ReportActions, ActionState>;

const ReportForms = createContext<ReportActionStates | null>(null);

/**
 * The report forms' replies, kept above the list of reports, and one place for what they confirm
 * (published, updated, deleted). A form's own message would go with it: a deleted report's card,
 * and its form, are gone from the refreshed list. Kept here, the reply also survives a post
 * without JavaScript, after which the server renders the whole page again. The newest
 * confirmation replaces the last one and takes the focus, so the member hears it and goes on from
 * the top of the list.
 */
export function ReportsFeedback({ actions, children }: { actions: ReportActions; children: ReactNode }) {
  const states: ReportActionStates = {
    write: useActionState(actions.write, {}),
    edit: useActionState(actions.edit, {}),
    remove: useActionState(actions.remove, {}),
  };
  const replies = [states.write[0], states.edit[0], states.remove[0]];
  const [seen, setSeen] = useState(replies);
  const [news, setNews] = useState(() => {
    const message = replies.find((reply) => reply.done)?.done;
    return message ? { message, serial: 0 } : null;
  });
  // A new reply with a confirmation becomes the news (worked out while rendering: it is derived from the replies).
  const changed = replies.find((reply, index) => reply !== seen[index]);
  if (changed) {
    setSeen(replies);
    if (changed.done) setNews({ message: changed.done, serial: (news?.serial ?? 0) + 1 });
  }
  const region = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!news?.serial) return;
    // After the form's own reply handling, which would otherwise keep the focus.
    const frame = requestAnimationFrame(() => region.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [news]);
  return (
    <ReportForms value={states}>
      {news && (
        <p
          key={news.serial}
          ref={region}
          role="status"
          tabIndex={-1}
          className="rounded-lg border border-pine-100 bg-pine-50 px-4 py-3 text-sm text-pine-900 outline-none focus-visible:ring-4 focus-visible:ring-pine-100"
        >
          {news.message}
        </p>
      )}
      {children}
    </ReportForms>
  );
}

/** The reply to one kind of report form, kept by the ReportsFeedback around it. */
export function useReportForm(kind: keyof ReportActions): ActionState {
  const states = useContext(ReportForms);
  if (!states) throw new Error("A report form must be inside ReportsFeedback.");
  return states[kind];
}

const NO_REPLY: FormState = {};

/** The hidden field that names the report whose card a form is on, so its reply finds its way back. */
export const SENT_FROM = "sentFrom";

/**
 * The reply only when it answers a form on this report's card: the edit and delete forms of all
 * reports share one. It goes by the card the form was on, not by the report the form named.
 */
export function replyFor([state, formAction, pending]: ActionState, reportId: string): ActionState {
  const answered = state.result?.initialValue?.[SENT_FROM] === reportId;
  return [answered ? state : NO_REPLY, formAction, pending];
}
