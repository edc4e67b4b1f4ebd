import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { movementJobs, scheduledWorkflows } from "@wix/data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection, memberClient } from "./test-support";

/** `scheduledWorkflows` through the real `@wix/data` module: movement jobs on a timetable. */

let platform: TestPlatform;
const admin = () =>
  createClient({ modules: { scheduledWorkflows, movementJobs }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
const workflows = () => admin().scheduledWorkflows;
const exportStep = { source: { wixDataCollection: { collectionId: "Peaks" } }, destination: { file: { format: "CSV" } } };
const next = { fields: ["NEXT_SCHEDULE_EXECUTION" as const] };

/** The jobs one run of a workflow submitted, once they have all finished. */
async function jobsOfRun(runId: string, count: number) {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { jobs } = await admin().movementJobs.listJobs();
    const ofRun = (jobs ?? []).filter((job) => job.name?.includes(runId));
    if (ofRun.length === count && ofRun.every((job) => job.status === "COMPLETED" || job.status === "FAILED")) return ofRun;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`run ${runId} did not finish ${count} jobs`);
}

beforeAll(async () => {
  platform = await startTestPlatform({
    siteProperties: { locale: { languageCode: "en", country: "US" }, currency: "USD", timeZone: "Europe/Paris", languages: [] },
  });
  await createCollection(platform, "Peaks", [{ key: "name", type: "TEXT" }], { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
  await platform.adminClient().items.insert("Peaks", { name: "Eiger" });
});
afterAll(() => platform.close());

describe("scheduled data workflows", () => {
  it("creates a workflow whose next run the cron expression gives, in the site's time zone", async () => {
    const created = await workflows().createScheduledDataWorkflow(
      { _id: "nightly", name: "Nightly export", cronExpression: "0 3 * * *", workflow: { steps: [exportStep] } } as never,
      next,
    );
    expect(created).toMatchObject({ _id: "nightly", name: "Nightly export", enabled: true, cronExpression: "0 3 * * *", revision: "1" });
    const at = created.nextExecutionDate!;
    expect(at.getTime()).toBeGreaterThan(Date.now());
    expect(new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" }).format(at)).toBe("03:00");
    // Without the field asked for, the next run is left out.
    expect((await workflows().getScheduledDataWorkflow("nightly")).nextExecutionDate).toBeUndefined();
  });

  it("lists, updates (with the revision), reschedules and disables", async () => {
    const { scheduledDataWorkflows } = await workflows().listScheduledDataWorkflows();
    expect(scheduledDataWorkflows?.map((workflow) => workflow._id)).toEqual(["nightly"]);
    const updated = await workflows().updateScheduledDataWorkflow({ _id: "nightly", revision: "1", cronExpression: "30 4 * * 1" } as never, next);
    expect(updated).toMatchObject({ revision: "2", cronExpression: "30 4 * * 1", name: "Nightly export" });
    expect(updated.nextExecutionDate!.getUTCDay()).toBe(1);
    expect(await codeOf(workflows().updateScheduledDataWorkflow({ _id: "nightly", revision: "1", name: "x" } as never))).toBe("WDE0178");
    const { nextExecutionDate } = await workflows().rescheduleScheduledDataWorkflow("nightly", next);
    expect(nextExecutionDate).toEqual(updated.nextExecutionDate);
    const disabled = await workflows().updateScheduledDataWorkflow({ _id: "nightly", enabled: false } as never, next);
    // A disabled workflow has no next run (the client drops the null).
    expect(disabled.nextExecutionDate ?? null).toBeNull();
  });

  it("runs now on request: each step becomes a movement job named after the run", async () => {
    await workflows().triggerScheduledDataWorkflowNow("nightly");
    const { lastWorkflowId, lastExecutionDate } = await workflows().getScheduledDataWorkflow("nightly");
    expect(lastExecutionDate).toBeInstanceOf(Date);
    const [job] = await jobsOfRun(lastWorkflowId!, 1);
    expect(job).toMatchObject({ status: "COMPLETED", source: { wixDataCollection: { collectionId: "Peaks" } } });
  });

  it("runs on its timetable, with no request asking, its steps one after the other", async () => {
    const every = await workflows().createScheduledDataWorkflow({
      _id: "every-second",
      cronExpression: "* * * * * *",
      workflow: { steps: [exportStep, exportStep] },
    } as never);
    expect(every.lastWorkflowId).toBe("");
    let runId = "";
    for (let attempt = 0; attempt < 300 && !runId; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      runId = platform.ctx.data.db
        .prepare("SELECT json_extract(doc, '$.lastWorkflowId') FROM data_scheduled_workflows WHERE id = ?")
        .pluck()
        .get("every-second") as string;
    }
    const jobs = await jobsOfRun(runId, 2);
    expect(jobs.map((job) => job.name).sort()).toEqual([expect.stringContaining("step 1 of 2"), expect.stringContaining("step 2 of 2")]);
    await workflows().deleteScheduledDataWorkflow("every-second");
    expect(await codeOf(workflows().getScheduledDataWorkflow("every-second"))).toBe("WDE0075");
  });

  it("refuses a bad cron expression, a step it cannot move, a taken id, and callers without the admin key", async () => {
    const create = (workflow: Record<string, unknown>) => codeOf(workflows().createScheduledDataWorkflow(workflow as never));
    expect(await create({ _id: "bad", cronExpression: "every day", workflow: { steps: [exportStep] } })).toBe("WDE0075");
    expect(await create({ _id: "bad", cronExpression: "0 3 * * *", workflow: { steps: [{ ...exportStep, sourceSiteId: "other" }] } })).toBe("WDE0075");
    expect(await create({ _id: "nightly", cronExpression: "0 3 * * *", workflow: { steps: [exportStep] } })).toBe("WDE0075");
    const member = memberClient(platform, platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id);
    const memberWorkflows = createClient({ modules: { scheduledWorkflows }, auth: (member as unknown as { auth: never }).auth }).scheduledWorkflows;
    expect(await codeOf(memberWorkflows.listScheduledDataWorkflows())).toBe("WDE0027");
  });
});
