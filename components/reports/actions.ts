"use server";

import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { actAsMember, type NotMember } from "@/lib/auth/request-session";
import type { FormState } from "@/lib/form-state";
import { MUTED_WORDS, deleteReportSchema, editReportSchema, newReportSchema } from "@/lib/reports/forms";
import { collectionByRoute, type MemberReportsConfig } from "@/lib/site-config";
import { TAGS, updateTags } from "@/lib/wix/cache";
import type { WixClient } from "@/lib/wix/client";
import { logger } from "@/lib/observability/log";
import { describeFailure } from "@/lib/wix/errors";
import { editReport, removeReport, writeReport, type ReportRefusal } from "@/lib/wix/reports";

const NOT_MEMBER: Record<NotMember["reason"], string> = {
  "signed-out": "Log in to write or change a report. What you typed is still here.",
  "session-ended": "Your session has ended. Log in again, then send your report again.",
};

const REFUSED: Record<ReportRefusal, string> = {
  "not-author": "You can change or delete only reports you wrote.",
  "not-found": "This report no longer exists. It may have been deleted a moment ago.",
  muted: MUTED_WORDS,
};

const UNAVAILABLE = "We could not reach the club's database. Nothing was changed; please try again in a minute.";

/** The hidden field that names the collection whose page the form is on. */
const routeField = z.object({ route: z.string().max(100) });

function reportsOf(formData: FormData): MemberReportsConfig | undefined {
  const parsed = routeField.safeParse({ route: formData.get("route") });
  return parsed.success ? collectionByRoute(parsed.data.route)?.memberReports : undefined;
}

type Reply = (options?: { formErrors?: string[]; resetForm?: boolean }) => FormState["result"];
type Change = (client: WixClient, config: MemberReportsConfig) => Promise<{ ok: true } | { ok: false; reason: ReportRefusal }>;

/**
 * Runs a member's change to a report and turns every outcome into the form's message. After a
 * change, the cached report lists are dropped so every page shows it at once.
 */
async function change(formData: FormData, reply: Reply, what: string, act: Change, done: string, resetForm = false): Promise<FormState> {
  const config = reportsOf(formData);
  if (!config) return { result: reply({ formErrors: ["This page does not take reports. Reload it and try again."] }) };
  let outcome;
  try {
    outcome = await actAsMember((client) => act(client, config));
  } catch (error) {
    logger().error({ failure: describeFailure(error) }, `${what} failed`);
    return { result: reply({ formErrors: [UNAVAILABLE] }) };
  }
  if (!outcome.ok) return { result: reply({ formErrors: [NOT_MEMBER[outcome.reason]] }) };
  if (!outcome.value.ok) return { result: reply({ formErrors: [REFUSED[outcome.value.reason]] }) };
  updateTags([TAGS.collection(config.collectionId)]);
  return { result: reply({ resetForm }), done };
}

export async function writeReportAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: newReportSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  const { trailId, ...content } = submission.value;
  return change(
    formData,
    submission.reply,
    "Writing a report",
    (client, config) => writeReport(client, config, trailId, content),
    "Thank you: your report is published.",
    true,
  );
}

export async function editReportAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: editReportSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  const { reportId, ...content } = submission.value;
  return change(formData, submission.reply, "Editing a report", (client, config) => editReport(client, config, reportId, content), "Your report is updated.");
}

export async function deleteReportAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: deleteReportSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  const { reportId } = submission.value;
  return change(formData, submission.reply, "Deleting a report", (client, config) => removeReport(client, config, reportId), "Your report is deleted.");
}
