import { documentTooDeep, documentTooLarge, dollarFieldName, invalidItemId, invalidValue, itemNotObject } from "./errors";
import { fieldKeyProblem } from "./limits";
import { isDateValue, isPlainObject } from "./query-compiler";

/** Reshaping between stored rows and the data service's wire envelope (`{id, dataCollectionId, data}`). */

export type StoredItem = {
  collection_id: string;
  id: string;
  data: string;
};

export type ItemData = Record<string, unknown>;

export type WireDataItem = { id: string; dataCollectionId: string; data: ItemData };

/** Items are capped at 500 KB (WDE0009) and 50 levels of nesting (WDE0168). */
export const MAX_ITEM_BYTES = 500 * 1024;
const MAX_ITEM_DEPTH = 50;
export const MAX_ID_LENGTH = 128;

export function toWireItem(row: StoredItem, fields?: string[]): WireDataItem {
  const data = JSON.parse(row.data) as ItemData;
  return { id: row.id, dataCollectionId: row.collection_id, data: fields && fields.length > 0 ? project(data, fields) : data };
}

/** Field projection keeps `_id` always (docs/platform/data.md §3); dotted paths pick nested values. */
export function project(data: ItemData, fields: string[]): ItemData {
  const result: ItemData = { _id: data._id };
  for (const field of fields) {
    const keys = field.split(".");
    let source: unknown = data;
    for (const key of keys) source = isPlainObject(source) ? source[key] : undefined;
    if (source === undefined) continue;
    let target = result;
    for (const key of keys.slice(0, -1)) {
      if (!isPlainObject(target[key])) target[key] = {};
      target = target[key] as ItemData;
    }
    target[keys[keys.length - 1]] = source;
  }
  return result;
}

export function dateValue(date: Date | string): { $date: string } {
  return { $date: new Date(date).toISOString() };
}

/**
 * Checks an item body as the platform does and returns a copy with every `{"$date"}` value in
 * canonical ISO form, so stored dates compare and sort like the filter operands they meet.
 */
export function normaliseItemData(input: unknown, collectionId: string): ItemData {
  if (!isPlainObject(input)) throw itemNotObject(input, collectionId);
  if (
    "_id" in input &&
    input._id !== undefined &&
    (typeof input._id !== "string" || input._id === "" || input._id.length > MAX_ID_LENGTH || input._id.includes("\u0000"))
  ) {
    throw invalidItemId(MAX_ID_LENGTH);
  }
  // Depth first: the walk stops at the limit, so the size is then measured on a bounded value.
  const normalised = normaliseValue(input, 0) as ItemData;
  if (Buffer.byteLength(JSON.stringify(normalised)) > MAX_ITEM_BYTES) throw documentTooLarge();
  return normalised;
}

function normaliseValue(value: unknown, depth: number): unknown {
  if (depth > MAX_ITEM_DEPTH) throw documentTooDeep(MAX_ITEM_DEPTH);
  if (Array.isArray(value)) return value.map((element) => normaliseValue(element, depth + 1));
  if (!isPlainObject(value)) return value;
  if (isDateValue(value)) {
    const time = Date.parse(value.$date);
    if (Number.isNaN(time)) throw invalidValue(`Invalid date value [${value.$date}].`);
    return { $date: new Date(time).toISOString() };
  }
  const result: ItemData = {};
  for (const [key, nested] of Object.entries(value)) {
    if (key.startsWith("$")) throw dollarFieldName(key);
    const problem = fieldKeyProblem(key);
    if (problem) throw invalidValue(problem);
    if (nested !== undefined) result[key] = normaliseValue(nested, depth + 1);
  }
  return result;
}
