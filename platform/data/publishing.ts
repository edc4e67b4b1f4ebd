import { invalidPublishStatusFilter, invalidValue } from "./errors";
import { PUBLISH_STATUSES, type CollectionDefinition, type PublishStatus } from "./collection";
import { isPlainObject } from "./query-compiler";
import type { ItemData } from "./wire";

/**
 * Drafts and publishing (the collections' Publish plugin, docs/platform/data.md §18): in a
 * collection with the plugin every item has a publish status, DRAFT or PUBLISHED, in its
 * `_publishStatus` field. Reads leave drafts out unless the admin key asks for them. A status
 * can be scheduled to change at a given time.
 */

/** The item field that holds the status; items without it are PUBLISHED. */
export const PUBLISH_STATUS_FIELD = "_publishStatus";

/** The collection's Publish plugin options, or undefined when it has none (its items are all published). */
export function publishPlugin(collection: Pick<CollectionDefinition, "plugins">): { defaultStatus: PublishStatus } | undefined {
  const plugin = collection.plugins?.find((candidate) => candidate.type === "PUBLISH");
  return plugin && { defaultStatus: plugin.publishOptions?.defaultStatus ?? "PUBLISHED" };
}

/**
 * Sets the status a written item keeps, in a collection with the plugin: the writer's own choice
 * when it may choose (the admin key, imports), else the item's current status (updates), else the
 * collection's default (new items). Other collections keep the data as sent.
 */
export function settlePublishStatus(collection: CollectionDefinition, data: ItemData, writer: { mayChoose: boolean; current?: ItemData }): void {
  const plugin = publishPlugin(collection);
  if (!plugin) return;
  const asked = data[PUBLISH_STATUS_FIELD];
  if (writer.mayChoose && asked !== undefined) {
    if (!PUBLISH_STATUSES.includes(asked as PublishStatus)) throw invalidValue(`Invalid ${PUBLISH_STATUS_FIELD} [${String(asked)}]: use DRAFT or PUBLISHED.`);
    return;
  }
  const kept = writer.current ? writer.current[PUBLISH_STATUS_FIELD] : plugin.defaultStatus;
  if (kept === undefined) delete data[PUBLISH_STATUS_FIELD];
  else data[PUBLISH_STATUS_FIELD] = kept;
}

/** Whether a read that leaves drafts out must skip this item. */
export function isHiddenDraft(collection: CollectionDefinition, item: ItemData, includeDrafts: boolean): boolean {
  return !includeDrafts && publishPlugin(collection) !== undefined && item[PUBLISH_STATUS_FIELD] === "DRAFT";
}

/** A `_publishStatus` condition as a condition on the stored field, where a missing status means PUBLISHED. */
function statusCondition(operand: unknown): unknown {
  const [operator, value] = isPlainObject(operand) ? (Object.entries(operand)[0] ?? []) : ["$eq", operand];
  const single = !isPlainObject(operand) || Object.keys(operand).length === 1;
  if (!single || (operator !== "$eq" && operator !== "$ne") || !PUBLISH_STATUSES.includes(value as PublishStatus)) throw invalidPublishStatusFilter();
  const draft = (operator === "$eq") === (value === "DRAFT");
  return draft ? "DRAFT" : { $ne: "DRAFT" };
}

/**
 * The filter with its `_publishStatus` conditions rewritten for the stored form (eq/ne with DRAFT
 * or PUBLISHED only, WDE0093 otherwise); other conditions are left to the query compiler.
 */
export function publishStatusFilter(filter: unknown): unknown {
  if (Array.isArray(filter)) return filter.map(publishStatusFilter);
  if (!isPlainObject(filter)) return filter;
  return Object.fromEntries(
    Object.entries(filter).map(([key, operand]) => {
      if (key === PUBLISH_STATUS_FIELD) return [key, statusCondition(operand)];
      if (key === "$and" || key === "$or" || key === "$not") return [key, publishStatusFilter(operand)];
      return [key, operand];
    }),
  );
}
