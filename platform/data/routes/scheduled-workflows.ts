import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { platformOrigin } from "../../http/origin";
import { pagingMetadata, resolvePage } from "../cursor";
import type { ScheduledWorkflows, WorkflowInput, WorkflowRecord } from "../scheduled-workflows";
import { assertAdmin, filterSchema, parseRequest, requestPayload, type DataServices } from "./common";
import { jobRequestOf, submitRequest } from "./movement-jobs";

const PATH = "/data-move-scheduler/v1/scheduled-data-workflows";

/** `fields: ["NEXT_SCHEDULE_EXECUTION"]` asks for `nextExecutionDate` in the answer. */
const fieldsSchema = z.preprocess((value) => (typeof value === "string" ? [value] : value), z.array(z.enum(["NEXT_SCHEDULE_EXECUTION"])).optional());
// A step is a movement job's request without its name (the run names its jobs).
const workflowSchema = z.object({
  steps: z
    .array(submitRequest.omit({ name: true }))
    .min(1, "a workflow has at least one step")
    .max(20),
});
const workflowFields = {
  name: z.string().max(1024).optional(),
  enabled: z.boolean().optional(),
  cronExpression: z.string().min(1).max(256),
  workflow: workflowSchema,
};
const readOnly = { lastExecutionDate: z.unknown().optional(), nextExecutionDate: z.unknown().optional(), lastWorkflowId: z.unknown().optional() };
const createRequest = z.object({
  scheduledDataWorkflow: z
    .object({ id: z.string().min(1, "scheduledDataWorkflow.id is required").max(256), revision: z.unknown().optional(), ...workflowFields, ...readOnly })
    .strict(),
  fields: fieldsSchema,
});
const updateRequest = z.object({
  scheduledDataWorkflow: z
    .object({
      id: z.string().min(1, "scheduledDataWorkflow.id is required").max(256),
      revision: z.coerce.number().int().optional(),
      ...z.object(workflowFields).partial().shape,
      ...readOnly,
    })
    .strict(),
  fields: fieldsSchema,
});
const fieldsRequest = z.object({ fields: fieldsSchema });
const listRequest = z.object({
  fields: fieldsSchema,
  paging: z.object({ limit: z.coerce.number().int().min(0).optional(), cursor: z.string().optional() }).optional(),
  filter: filterSchema.nullish(),
});
const listState = z.object({ filter: filterSchema.nullish() });
/** What a listing's cursors are bound to (the paging helpers name it a collection). */
const LISTING = "scheduled-data-workflows";

/** The workflow's input as the workflows keep it: the steps as sent and as jobs. */
function inputOf(body: Partial<z.infer<typeof createRequest>["scheduledDataWorkflow"]>): Partial<WorkflowInput> {
  return {
    ...(body.name !== undefined && { name: body.name }),
    ...(body.enabled !== undefined && { enabled: body.enabled }),
    ...(body.cronExpression !== undefined && { cronExpression: body.cronExpression }),
    ...(body.workflow !== undefined && { workflow: body.workflow, jobs: body.workflow.steps.map((step) => jobRequestOf(step)) }),
  };
}

export function wireWorkflow(record: WorkflowRecord, fields: string[] | undefined) {
  return {
    id: record.id,
    revision: String(record.revision),
    name: record.name,
    enabled: record.enabled,
    cronExpression: record.cronExpression,
    lastExecutionDate: record.lastExecutionDate,
    ...(fields?.includes("NEXT_SCHEDULE_EXECUTION") && { nextExecutionDate: record.nextExecutionDate }),
    workflow: record.workflow,
    lastWorkflowId: record.lastWorkflowId,
  };
}

/**
 * `/data-move-scheduler/v1/scheduled-data-workflows` (the `@wix/data` `scheduledWorkflows`
 * module): create, get, list, update, delete, reschedule and run now. Admin key only, as for
 * data-movement jobs (docs/platform/data.md §17.1).
 */
export function registerScheduledWorkflowRoutes(app: FastifyInstance, services: DataServices, workflows: ScheduledWorkflows) {
  const origin = (request: FastifyRequest) => platformOrigin(request, services.ctx.config);

  app.post(PATH, async (request) => {
    assertAdmin(services, request, "create scheduled data workflows");
    const { scheduledDataWorkflow: body, fields } = parseRequest(createRequest, request.body);
    const input = { name: "", enabled: true, ...inputOf(body) } as WorkflowInput;
    return { scheduledDataWorkflow: wireWorkflow(workflows.create(body.id, input, origin(request)), fields) };
  });

  app.get<{ Params: { id: string } }>(`${PATH}/:id`, async (request) => {
    assertAdmin(services, request, "read scheduled data workflows");
    const { fields } = parseRequest(fieldsRequest, requestPayload(request));
    return { scheduledDataWorkflow: wireWorkflow(workflows.get(request.params.id), fields) };
  });

  app.get(PATH, async (request) => {
    assertAdmin(services, request, "list scheduled data workflows");
    const { fields, paging, filter } = parseRequest(listRequest, requestPayload(request));
    const page = resolvePage({ cursorPaging: paging ?? {} }, LISTING, { filter }, { defaultLimit: 50, maxLimit: 100, stateSchema: listState });
    const found = workflows.query(page.state.filter ?? {}, page.limit + 1, page.offset);
    const listed = found.slice(0, page.limit);
    return {
      scheduledDataWorkflows: listed.map((record) => wireWorkflow(record, fields)),
      pagingMetadata: pagingMetadata(page, LISTING, listed.length, found.length > page.limit),
    };
  });

  app.patch(PATH, async (request) => {
    assertAdmin(services, request, "update scheduled data workflows");
    const { scheduledDataWorkflow: body, fields } = parseRequest(updateRequest, request.body);
    return { scheduledDataWorkflow: wireWorkflow(workflows.update(body.id, inputOf(body), body.revision, origin(request)), fields) };
  });

  app.delete<{ Params: { id: string } }>(`${PATH}/:id`, async (request) => {
    assertAdmin(services, request, "delete scheduled data workflows");
    workflows.remove(request.params.id);
    return {};
  });

  app.post<{ Params: { id: string } }>(`${PATH}/:id/reschedule`, async (request) => {
    assertAdmin(services, request, "reschedule scheduled data workflows");
    parseRequest(fieldsRequest, request.body ?? {});
    return { nextExecutionDate: workflows.reschedule(request.params.id).nextExecutionDate };
  });

  app.post<{ Params: { id: string } }>(`${PATH}/:id/run-now`, async (request) => {
    assertAdmin(services, request, "run scheduled data workflows");
    workflows.run(request.params.id);
    return {};
  });
}
