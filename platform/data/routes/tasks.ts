import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest, recordNotFound } from "../errors";
import { collectionOf, type TaskService } from "../tasks";
import {
  assertAdmin,
  collectionId,
  fieldPath,
  offsetPage,
  pagingSchema,
  parseRequest,
  publishPluginOptionsSchema,
  renamedItemFilterSchema,
  requestPayload,
  type DataServices,
} from "./common";

const fieldKey = fieldPath.refine((key) => !key.includes("."), "a top-level field key is required");
const filter = renamedItemFilterSchema;
/** A schedule's time: an ISO date-time (the SDK sends its Date so). */
const scheduleDate = z.object({ date: z.string().refine((text) => !Number.isNaN(Date.parse(text)), "date must be an ISO date and time") });

const createRequest = z.object({
  task: z.discriminatedUnion("type", [
    z.object({
      type: z.literal("DELETE_BY_QUERY"),
      deleteByQueryOptions: z.object({ dataCollectionId: collectionId, filter, publishPluginOptions: publishPluginOptionsSchema }),
    }),
    z.object({
      type: z.literal("COPY_FIELD_DATA"),
      copyFieldDataOptions: z
        .object({ dataCollectionId: collectionId, sourceFieldKey: fieldKey, targetFieldKey: fieldKey })
        .refine((options) => options.sourceFieldKey !== options.targetFieldKey, "the source and target fields must differ"),
    }),
    z.object({
      type: z.literal("EDIT_FIELD_DATA"),
      editFieldDataOptions: z.object({
        dataCollectionId: collectionId,
        filter,
        fieldKey,
        operations: z
          .object({
            addItems: z.array(z.unknown()).optional(),
            removeItems: z.array(z.unknown()).optional(),
            replaceItems: z.array(z.object({ from: z.unknown(), to: z.unknown() })).optional(),
            removeDuplicates: z.boolean().optional(),
          })
          .refine(
            (o) => Boolean(o.addItems?.length || o.removeItems?.length || o.replaceItems?.length || o.removeDuplicates),
            "operations must change something",
          ),
      }),
    }),
    z.object({
      type: z.literal("UPDATE_PUBLISH_STATUS"),
      updatePublishStatusOptions: z
        .object({
          dataCollectionId: collectionId,
          filter,
          operation: z.enum(["SET_PUBLISHED_STATUS", "SET_DRAFT_STATUS", "SCHEDULE_PUBLISHED_STATUS", "SCHEDULE_DRAFT_STATUS", "CANCEL_SCHEDULING"]),
          schedulePublishedStatusOptions: scheduleDate.optional(),
          scheduleDraftStatusOptions: scheduleDate.optional(),
        })
        .refine(
          (o) => o.operation !== "SCHEDULE_PUBLISHED_STATUS" || o.schedulePublishedStatusOptions,
          "SCHEDULE_PUBLISHED_STATUS needs schedulePublishedStatusOptions.date",
        )
        .refine((o) => o.operation !== "SCHEDULE_DRAFT_STATUS" || o.scheduleDraftStatusOptions, "SCHEDULE_DRAFT_STATUS needs scheduleDraftStatusOptions.date"),
    }),
  ]),
});
const listRequest = z.object({ paging: pagingSchema });

/** `/cms/v1/tasks` (the `@wix/data` `tasks` module): create, get, list and cancel; admin only (docs/platform/data.md §16). */
export function registerTaskRoutes(app: FastifyInstance, services: DataServices, tasks: TaskService) {
  const existing = (id: string) => {
    const task = tasks.find(id);
    if (!task) throw recordNotFound("Task", id);
    return task;
  };

  app.post("/cms/v1/tasks", async (request) => {
    assertAdmin(services, request, "create tasks");
    const { task: options } = parseRequest(createRequest, request.body);
    const collection = services.store.getCollection(collectionOf(options));
    const caller = services.ctx.callerOf(request);
    return { task: tasks.start(options, collection, caller) };
  });

  app.get("/cms/v1/tasks", async (request) => {
    assertAdmin(services, request, "list tasks");
    const { paging } = parseRequest(listRequest, requestPayload(request));
    const { items, pagingMetadata } = offsetPage(tasks.list(), paging);
    return { tasks: items, metadata: pagingMetadata };
  });

  app.get<{ Params: { taskId: string } }>("/cms/v1/tasks/:taskId", async (request) => {
    assertAdmin(services, request, "read tasks");
    return { task: existing(request.params.taskId) };
  });

  app.delete<{ Params: { taskId: string } }>("/cms/v1/tasks/:taskId", async (request) => {
    assertAdmin(services, request, "cancel tasks");
    const task = existing(request.params.taskId);
    if (task.status === "COMPLETED" || task.status === "FAILED")
      throw badRequest(`Task [${task.id}] has already finished (${task.status}).`, { taskId: task.id });
    return { task: tasks.cancel(task) };
  });
}
