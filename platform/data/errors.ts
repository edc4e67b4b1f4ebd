import { PlatformError } from "../http/errors";

/**
 * Every error the data service answers, one constructor per platform code, with the platform's
 * status and wording; docs/platform/data-errors.md gives each path, its code and where the code
 * comes from. Data code throws only through these, so a code's text and status are decided in
 * one place.
 */

/** WDE0004: an item body that is not an object. */
export function itemNotObject(item: unknown, collectionId: string): PlatformError {
  return new PlatformError(
    400,
    "WDE0004",
    `Failed to save [${JSON.stringify(item) ?? String(item)}] into [${collectionId}]. Items must be JavaScript objects.`,
  );
}

/** WDE0007: an `_id` that is not a usable string. */
export function invalidItemId(maxLength?: number): PlatformError {
  const limit = maxLength === undefined ? "" : ` of at most ${maxLength} characters`;
  return new PlatformError(400, "WDE0007", `Invalid update. Updated object must have a string _id property${limit}.`);
}

/** WDE0009: an item over the size limit. */
export function documentTooLarge(): PlatformError {
  return new PlatformError(400, "WDE0009", "Document is too large.");
}

/**
 * The codes the `@wix/data` client gives its own filter-model and sort-model checks (WDE0016 and
 * WDE0056–WDE0067, spec §8): a filter or sort the platform refuses for the same fault answers
 * the same code.
 */
export type QueryModelCode = "WDE0016" | "WDE0056" | "WDE0057" | "WDE0058" | "WDE0059" | "WDE0060" | "WDE0062" | "WDE0064" | "WDE0065" | "WDE0066" | "WDE0067";

/**
 * A filter, sort or search the platform cannot run: the client's code for the same fault, else
 * WDE0075 (an unknown operator, a reserved field name, the platform's size limits), Wix's
 * generic bad request. Never WDE0020, which means "not a multi-reference field".
 */
export function invalidQuery(message: string, code: QueryModelCode | "WDE0075" = "WDE0075"): PlatformError {
  return new PlatformError(400, code, message);
}

/** WDE0020: a relationship call naming a field that is not a multi-reference field. */
export function notMultiReference(field: string): PlatformError {
  return new PlatformError(400, "WDE0020", `Provided relationship attribute [${field}] is not a multi-reference field.`, { field });
}

/** WDE0025: an unknown collection. */
export function collectionNotFound(id: string): PlatformError {
  return new PlatformError(404, "WDE0025", `WDE0025: The ${id} collection does not exist. You cannot work with a collection using its display name.`, {
    collectionId: id,
  });
}

/** WDE0027: the caller lacks the collection's role for the action. */
export function permissionDenied(collectionId: string, action: string): PlatformError {
  return new PlatformError(403, "WDE0027", `WDE0027: The current user does not have permissions to ${action} on the ${collectionId} collection.`, {
    collectionId,
    action,
  });
}

/** WDE0027 for the site-wide admin services (backups, tasks, data-movement jobs), which need the admin key. */
export function adminRequired(action: string): PlatformError {
  return new PlatformError(403, "WDE0027", `WDE0027: The current user does not have permissions to ${action}.`, { action });
}

/** ALREADY_EXISTS (the permissions API's code): a second set of special permissions for one member of a collection. */
export function specialPermissionsExist(collectionId: string, userId: string): PlatformError {
  return new PlatformError(409, "ALREADY_EXISTS", `Special permissions for user [${userId}] already exist in collection [${collectionId}].`, {
    collectionId,
    userId,
  });
}

/** NOT_FOUND (the permissions API's code): a set of special permissions the platform does not have. */
export function specialPermissionsNotFound(id: string): PlatformError {
  return new PlatformError(404, "NOT_FOUND", `Special permissions [${id}] do not exist.`, { id });
}

/** WDE0029: a multi-reference link that already exists. */
export function referenceExists(collectionId: string, field: string, referringId: string, referencedId: string): PlatformError {
  return new PlatformError(409, "WDE0029", `Reference ${collectionId}.${field} from ${referringId} to ${referencedId} already exists.`, {
    collectionId,
    field,
    referringItemId: referringId,
    referencedItemId: referencedId,
  });
}

/** WDE0070: `$regex` in a filter. */
export function regexNotAllowed(): PlatformError {
  return new PlatformError(400, "WDE0070", "WDE0070: $regex keyword is not allowed.");
}

/** WDE0073: a missing item (also what an item the caller may not see reads as). */
export function itemNotFound(collectionId: string, id: string): PlatformError {
  return new PlatformError(404, "WDE0073", `Item [${id}] does not exist in collection [${collectionId}].`, { itemId: id, collectionId });
}

/**
 * WDE0073 too: an item a write's `condition` filter does not match. The client treats the
 * two alike (a conditional `remove` answers `null`, a bulk entry counts as skipped), as a
 * condition narrows which items the write reaches.
 */
export function conditionNotMet(collectionId: string, id: string): PlatformError {
  return new PlatformError(404, "WDE0073", `Item [${id}] does not exist in collection [${collectionId}] or does not meet the condition.`, {
    itemId: id,
    collectionId,
  });
}

/** WDE0074: inserting an id that exists. */
export function itemAlreadyExists(collectionId: string, id: string): PlatformError {
  return new PlatformError(409, "WDE0074", `Item [${id}] already exists in collection [${collectionId}].`, { itemId: id, collectionId });
}

/** WDE0075 (WD_BAD_REQUEST): a malformed request (bad body, bad aggregation, request limits). */
export function badRequest(message: string, data: Record<string, unknown> = {}): PlatformError {
  return new PlatformError(400, "WDE0075", message, data);
}

/**
 * WDE0075 with 404: an async job, backup, task, data-movement job or file the platform does not have
 * (the references name no code for it).
 */
export function recordNotFound(kind: "Async job" | "Backup" | "Task" | "Job" | "File" | "Scheduled workflow", id: string): PlatformError {
  return new PlatformError(404, "WDE0075", `${kind} [${id}] does not exist.`, { id });
}

/** WDE0075 with 409: creating a scheduled workflow under an id that is taken (the caller names it). */
export function recordExists(kind: "Scheduled workflow", id: string): PlatformError {
  return new PlatformError(409, "WDE0075", `${kind} [${id}] already exists.`, { id });
}

/** WDE0076: a value the collection cannot store (e.g. an unreadable date). */
export function invalidValue(message: string): PlatformError {
  return new PlatformError(400, "WDE0076", message);
}

/**
 * WDE0076 too: values outside the limits their fields declare (`stringLengthRange`,
 * `numberRange`, `arraySizeRange`), each listed as a field violation.
 */
export function fieldOutOfRange(collectionId: string, violations: { field: string; description: string }[]): PlatformError {
  const broken = violations.map((violation) => `[${violation.field}] ${violation.description}`).join("; ");
  return new PlatformError(400, "WDE0076", `Validation failed for an item of collection [${collectionId}]: ${broken}.`, {
    collectionId,
    fieldViolations: violations,
  });
}

/** WDE0006 / WDE0069: a bulk call over the cap, with the codes the client gives the same cap (WDE0069 for removals). */
export function tooManyBulkItems(code: "WDE0006" | "WDE0069", maximum: number): PlatformError {
  const verb = code === "WDE0069" ? "remove" : "insert or change";
  return new PlatformError(400, code, `${code}: Cannot ${verb} more than ${maximum} items in one request.`, { maximum });
}

/** WDE0023: an `includeReferences` limit over the maximum of referenced items per field. */
export function includeLimitExceeded(limit: number, maximum: number): PlatformError {
  return new PlatformError(400, "WDE0023", `WDE0023: Cannot fetch more than ${maximum} elements when include is being used on a reference field.`, {
    limit,
    maximum,
  });
}

/** WDE0077: a page size over the maximum. */
export function limitExceeded(limit: number, maximum: number): PlatformError {
  return new PlatformError(400, "WDE0077", `WDE0077: 'limit' cannot exceed ${maximum}`, { limit, maximum });
}

/** WDE0080: a request that fails validation (patches, paging combinations, ids that disagree). */
export function invalidRequest(message: string): PlatformError {
  return new PlatformError(400, "WDE0080", message);
}

/** WDE0093: a `_publishStatus` filter other than eq/ne with DRAFT or PUBLISHED. */
export function invalidPublishStatusFilter(): PlatformError {
  return new PlatformError(400, "WDE0093", "Invalid _publishStatus filter: only eq and ne with DRAFT or PUBLISHED are allowed.");
}

/** WDE0104: creating a collection whose id is taken. */
export function collectionAlreadyExists(id: string): PlatformError {
  return new PlatformError(409, "WDE0104", `Collection [${id}] already exists.`, { collectionId: id });
}

/**
 * Why background work (a task or a data-movement job) ended FAILED, as its failure entry (not
 * thrown). The tasks module names `CANCELLED` for cancelled work; `INTERRUPTED` (the platform
 * stopped while it ran), `ITEMS_REJECTED` (a job moved no item) and `INTERNAL_ERROR` (an
 * unexpected error, logged) are the platform's own.
 */
export function workFailure(code: "CANCELLED" | "INTERRUPTED" | "ITEMS_REJECTED" | "INTERNAL_ERROR", description: string) {
  return { code, description };
}

/** WDE0109 with 413: an uploaded file over the platform's limit. */
export function fileTooLarge(maxBytes: number): PlatformError {
  return new PlatformError(413, "WDE0109", `Payload is too large: files take at most ${maxBytes / 1024 / 1024} MB.`, { maxBytes });
}

/** WDE0112 / WDE0113: why an index build failed, as the index's `failure` (not thrown). */
export function indexBuildFailed(code: "WDE0112" | "WDE0113", itemId: string | null) {
  const description = code === "WDE0113" ? "Duplicate key error while building collection index." : "Unknown error while building collection index.";
  return { code, description, itemId };
}

/** WDE0123: a write that would give two items the same values in a unique index. */
export function uniqueIndexViolation(collectionId: string, itemId: string): PlatformError {
  return new PlatformError(409, "WDE0123", "Duplicated values cannot be added to a field with a unique index.", { collectionId, itemId });
}

/** WDE0164: an index whose name or fields another index of the collection already has. */
export function indexExists(collectionId: string, name: string): PlatformError {
  return new PlatformError(409, "WDE0164", `Index [${name}] already exists in collection [${collectionId}], by name or by fields.`, {
    collectionId,
    indexName: name,
  });
}

/** WDE0075 with 404: an index the collection does not have (the references name no code for it). */
export function indexNotFound(collectionId: string, name: string): PlatformError {
  return new PlatformError(404, "WDE0075", `Index [${name}] does not exist in collection [${collectionId}].`, { collectionId, indexName: name });
}

/** WDE0134: a field name starting with `$`. */
export function dollarFieldName(key: string): PlatformError {
  return new PlatformError(400, "WDE0134", `Field names with dollar ($) prefix are not allowed: [${key}].`);
}

/** WDE0151: a cursor the platform did not issue for this request. */
export function incorrectCursor(): PlatformError {
  return new PlatformError(400, "WDE0151", "Incorrect cursor provided.");
}

/** WDE0168: an item nested deeper than the limit. */
export function documentTooDeep(levels: number): PlatformError {
  return new PlatformError(400, "WDE0168", `Document nesting exceeds ${levels} levels.`);
}

/** WDE0169: a filter nested deeper than the limit. */
export function filterTooDeep(levels: number): PlatformError {
  return new PlatformError(400, "WDE0169", `Filter nesting exceeds ${levels} levels.`);
}

/** WDE0178: a collection update carrying a stale revision. */
export function staleRevision(given: number, current: number): PlatformError {
  return new PlatformError(409, "WDE0178", `Invalid document revision [${given}]; the collection is at revision ${current}.`);
}
