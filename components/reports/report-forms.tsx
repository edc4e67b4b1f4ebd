"use client";

import { useState, type SyntheticEvent } from "react";
import { summaryButton } from "@/components/class-names";
import { ActionStateForm, SENT_FROM, replyFor } from "@/components/forms/action-form";
import type { FieldSpec } from "@/components/forms/field";
import type { FormState } from "@/lib/form-state";
import { REPORTS_REPLY, useReportForm } from "./reports-feedback";

/** The fields of a report, as written and as edited. */
const REPORT_FIELDS: FieldSpec[] = [
  { name: "title", label: "Title", type: "text" },
  { name: "hikedOn", label: "Day you walked it", type: "date" },
  { name: "rating", label: "Rating (1 to 5)", type: "number", inputMode: "numeric" },
  { name: "body", label: "Your report", type: "textarea", hint: "What did you find? Conditions, closures, highlights. Plain text." },
];

const today = () => new Date().toISOString().slice(0, 10);

export function NewReportForm({ route, itemId }: { route: string; itemId: string }) {
  return (
    <ActionStateForm
      actionState={useReportForm("write")}
      confirmationShownElsewhere
      replyId={REPORTS_REPLY}
      kind="newReport"
      hidden={{ route, trailId: itemId }}
      fields={REPORT_FIELDS}
      defaultValue={{ hikedOn: today(), rating: "4" }}
      submitLabel="Publish report"
      pendingLabel="Publishing…"
      wideButton={false}
    />
  );
}

type OwnReport = { id: string; title: string; body: string; rating: number; hikedOn: string };
type Panel = "edit" | "delete";

const summaryClass = `inline-block rounded-lg border px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 ${summaryButton}`;

/**
 * The author's controls on their own report: edit in place, or delete after a confirmation. Each
 * is a native disclosure, so it opens without JavaScript too; a reply that refuses the change
 * keeps its panel open, a saved edit closes it.
 */
export function OwnReportControls({ route, report }: { route: string; report: OwnReport }) {
  const edit = replyFor(useReportForm("edit"), report.id);
  const remove = replyFor(useReportForm("remove"), report.id);
  const refused = (reply: FormState) => reply.result?.status === "error";
  const [open, setOpen] = useState<Panel | null>(refused(edit[0]) ? "edit" : refused(remove[0]) ? "delete" : null);
  // A saved edit closes the editor (worked out while rendering, from the new reply).
  const [editReply, setEditReply] = useState(edit[0]);
  if (edit[0] !== editReply) {
    setEditReply(edit[0]);
    if (edit[0].done) setOpen(null);
  }
  const toggled = (panel: Panel) => (event: SyntheticEvent<HTMLDetailsElement>) => {
    const opened = event.currentTarget.open;
    // One panel at a time; the browser also fires this when React itself opens or closes it.
    setOpen((current) => (opened ? panel : current === panel ? null : current));
  };
  return (
    <div className="mt-3 flex flex-wrap items-start gap-2">
      <details open={open === "edit"} onToggle={toggled("edit")} className="open:basis-full">
        <summary className={`${summaryClass} border-pine-700 text-pine-800 hover:bg-pine-50 focus-visible:outline-pine-700`}>
          Edit<span className="sr-only"> “{report.title}”</span>
        </summary>
        <div className="mt-3 rounded-lg border border-stone-200 bg-stone-50 p-4">
          <ActionStateForm
            actionState={edit}
            confirmationShownElsewhere
            replyId={REPORTS_REPLY}
            kind="editReport"
            hidden={{ route, reportId: report.id, [SENT_FROM]: report.id }}
            fields={REPORT_FIELDS}
            defaultValue={{ title: report.title, body: report.body, rating: String(report.rating), hikedOn: report.hikedOn }}
            submitLabel="Save changes"
            pendingLabel="Saving…"
            wideButton={false}
          />
        </div>
      </details>
      <details open={open === "delete"} onToggle={toggled("delete")} className="group open:basis-full">
        {/* Open, it reads "Cancel": the way back without deleting, with or without script. */}
        <summary className={`${summaryClass} border-red-700 text-red-800 hover:bg-red-50 focus-visible:outline-red-700`}>
          <span className="group-open:hidden">
            Delete<span className="sr-only"> “{report.title}”</span>
          </span>
          <span className="hidden group-open:inline">
            Cancel<span className="sr-only"> deleting “{report.title}”</span>
          </span>
        </summary>
        <div className="mt-3 space-y-3 rounded-lg border border-red-300 bg-red-50 p-4">
          <p className="text-sm text-red-900">Delete this report for good?</p>
          <ActionStateForm
            actionState={remove}
            confirmationShownElsewhere
            replyId={REPORTS_REPLY}
            kind="deleteReport"
            hidden={{ route, reportId: report.id, [SENT_FROM]: report.id }}
            fields={[]}
            submitLabel="Yes, delete it"
            pendingLabel="Deleting…"
            tone="danger"
            wideButton={false}
          />
        </div>
      </details>
    </div>
  );
}
