"use client";

import { createContext, useContext, type ReactNode } from "react";
import { ConfirmationMessage, useNewestConfirmation } from "@/components/forms/feedback";
import { useFormReply } from "@/components/forms/form-reply";
import type { ActionState } from "@/components/forms/action-form";
import type { FormAction } from "@/lib/form-state";

type ReportActions = { write: FormAction; edit: FormAction; remove: FormAction };
type ReportActionStates = Record<keyof ReportActions, ActionState>;

/** Where a post of a report form without JavaScript comes back to: the confirmation, or the form that refused. */
export const REPORTS_REPLY = "reports-reply";

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
    write: useFormReply(actions.write, {}, REPORTS_REPLY),
    edit: useFormReply(actions.edit, {}, REPORTS_REPLY),
    remove: useFormReply(actions.remove, {}, REPORTS_REPLY),
  };
  const news = useNewestConfirmation([states.write[0], states.edit[0], states.remove[0]]);
  return (
    <ReportForms value={states}>
      <ConfirmationMessage news={news} replyId={REPORTS_REPLY} />
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
