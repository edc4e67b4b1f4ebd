import { isDeepStrictEqual } from "node:util";
import { invalidRequest } from "./errors";
import { fieldPathProblem } from "./limits";

/** One field modification as the data service receives it (`/items/patch`, `/bulk/items/patch`). */
export type FieldModification = {
  fieldPath: string;
  action: "SET_FIELD" | "REMOVE_FIELD" | "INCREMENT_FIELD" | "APPEND_TO_ARRAY" | "REMOVE_FROM_ARRAY";
  setFieldOptions?: { value?: unknown };
  incrementFieldOptions?: { value?: unknown };
  appendToArrayOptions?: { value?: unknown };
  removeFromArrayOptions?: { value?: unknown };
};

/** Fields the platform keeps; `_publishStatus` changes through updates by the admin key, tasks and schedules. */
const SYSTEM_FIELDS = new Set(["_id", "_owner", "_createdDate", "_updatedDate", "_publishStatus"]);

const badPatch = invalidRequest;

/** The parent object of a dotted path and the last key, creating intermediate objects as Mongo does. */
function locate(data: Record<string, unknown>, fieldPath: string, create: boolean): [Record<string, unknown>, string] | undefined {
  const keys = fieldPath.split(".");
  const problem = fieldPathProblem(fieldPath);
  if (problem) throw badPatch(problem);
  let node = data;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (next === undefined || next === null) {
      if (!create) return undefined;
      node[key] = {};
    } else if (typeof next !== "object" || Array.isArray(next)) {
      throw badPatch(`Cannot patch [${fieldPath}]: [${key}] is not an object.`);
    }
    node = node[key] as Record<string, unknown>;
  }
  return [node, keys[keys.length - 1]];
}

/**
 * Applies modifications in order to a copy of an item's data. Increment of a missing field
 * sets it, append to a missing field creates the array (MongoDB `$inc`/`$push`), and
 * removeFromArray removes the first equal element only.
 */
export function applyFieldModifications(data: Record<string, unknown>, modifications: FieldModification[]): Record<string, unknown> {
  if (modifications.length === 0) throw badPatch("fieldModifications must not be empty.");
  const result = structuredClone(data);
  for (const modification of modifications) {
    const { fieldPath, action } = modification;
    if (SYSTEM_FIELDS.has(fieldPath.split(".")[0])) throw badPatch(`System field [${fieldPath}] cannot be patched.`);
    switch (action) {
      case "SET_FIELD": {
        const [parent, key] = locate(result, fieldPath, true)!;
        parent[key] = modification.setFieldOptions?.value ?? null;
        break;
      }
      case "REMOVE_FIELD": {
        const target = locate(result, fieldPath, false);
        if (target) delete target[0][target[1]];
        break;
      }
      case "INCREMENT_FIELD": {
        const by = modification.incrementFieldOptions?.value;
        if (typeof by !== "number" || !Number.isFinite(by)) throw badPatch(`INCREMENT_FIELD on [${fieldPath}] needs a numeric value.`);
        const [parent, key] = locate(result, fieldPath, true)!;
        const current = parent[key] ?? 0;
        if (typeof current !== "number") throw badPatch(`Cannot increment [${fieldPath}]: it is not a number.`);
        parent[key] = current + by;
        break;
      }
      case "APPEND_TO_ARRAY": {
        const [parent, key] = locate(result, fieldPath, true)!;
        const current = parent[key] ?? [];
        if (!Array.isArray(current)) throw badPatch(`Cannot append to [${fieldPath}]: it is not an array.`);
        parent[key] = [...current, modification.appendToArrayOptions?.value ?? null];
        break;
      }
      case "REMOVE_FROM_ARRAY": {
        const target = locate(result, fieldPath, false);
        const current = target ? target[0][target[1]] : undefined;
        if (current === undefined || current === null) break;
        if (!Array.isArray(current)) throw badPatch(`Cannot remove from [${fieldPath}]: it is not an array.`);
        const index = current.findIndex((element) => isDeepStrictEqual(element, modification.removeFromArrayOptions?.value));
        if (index >= 0) target![0][target![1]] = current.filter((_, i) => i !== index);
        break;
      }
      default:
        throw badPatch(`Unknown patch action [${String(action)}].`);
    }
  }
  return result;
}
