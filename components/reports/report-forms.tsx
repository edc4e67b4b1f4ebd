"use client";

import { useState } from "react";
import { ActionForm } from "@/components/forms/action-form";
import type { FieldSpec } from "@/components/forms/field";
import type { FormAction } from "@/lib/form-state";
import { useReportsAnnounce } from "./reports-feedback";

/** The fields of a report, as written and as edited. */
const REPORT_FIELDS: FieldSpec[] = [
  { name: "title", label: "Title", type: "text" },
  { name: "hikedOn", label: "Day you walked it", type: "date" },
  { name: "rating", label: "Rating (1 to 5)", type: "number", inputMode: "numeric" },
  { name: "body", label: "Your report", type: "textarea", hint: "What did you find? Conditions, closures, highlights. Plain text." },
];

const today = () => new Date().toISOString().slice(0, 10);

export function NewReportForm({ action, route, itemId }: { action: FormAction; route: string; itemId: string }) {
  const announce = useReportsAnnounce();
  return (
    <ActionForm
      onDone={announce ?? undefined}
      kind="newReport"
      action={action}
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

/** The author's controls on their own report: edit in place, or delete after a confirmation. */
export function OwnReportControls({
  route,
  report,
  editAction,
  deleteAction,
}: {
  route: string;
  report: OwnReport;
  editAction: FormAction;
  deleteAction: FormAction;
}) {
  const [open, setOpen] = useState<"edit" | "delete" | null>(null);
  const announce = useReportsAnnounce();
  // Saved or deleted: the editor or the confirmation closes, and the message goes above the list.
  const finished = (message: string) => {
    setOpen(null);
    announce?.(message);
  };
  const button = "rounded-lg border px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2";
  return (
    <div className="mt-3 space-y-3">
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          aria-expanded={open === "edit"}
          onClick={() => setOpen(open === "edit" ? null : "edit")}
          className={`${button} border-pine-700 text-pine-800 hover:bg-pine-50 focus-visible:outline-pine-700`}
        >
          Edit<span className="sr-only"> “{report.title}”</span>
        </button>
        <button
          type="button"
          aria-expanded={open === "delete"}
          onClick={() => setOpen(open === "delete" ? null : "delete")}
          className={`${button} border-red-700 text-red-800 hover:bg-red-50 focus-visible:outline-red-700`}
        >
          Delete<span className="sr-only"> “{report.title}”</span>
        </button>
      </div>
      {open === "edit" && (
        <div className="rounded-lg border border-stone-200 bg-stone-50 p-4">
          <ActionForm
            kind="editReport"
            action={editAction}
            hidden={{ route, reportId: report.id }}
            fields={REPORT_FIELDS}
            defaultValue={{ title: report.title, body: report.body, rating: String(report.rating), hikedOn: report.hikedOn }}
            onDone={finished}
            submitLabel="Save changes"
            pendingLabel="Saving…"
            wideButton={false}
          />
        </div>
      )}
      {open === "delete" && (
        <div className="space-y-3 rounded-lg border border-red-300 bg-red-50 p-4">
          <p className="text-sm text-red-900">Delete this report for good?</p>
          <ActionForm
            kind="deleteReport"
            action={deleteAction}
            hidden={{ route, reportId: report.id }}
            fields={[]}
            onDone={finished}
            submitLabel="Yes, delete it"
            pendingLabel="Deleting…"
            tone="danger"
            wideButton={false}
          />
        </div>
      )}
    </div>
  );
}
