/**
 * Request limits of the data service and the one check of field names, shared by items,
 * filters, sorts, projections, patches and aggregations (docs/platform/data.md §8).
 */

/** Any request nested deeper than this is refused before it is read (items and filters stop at 50). */
export const MAX_REQUEST_DEPTH = 200;
/** Sort keys in one sort. */
export const MAX_SORT_KEYS = 100;
/** Values in one `$in` / `$hasSome` / `$hasAll` list. */
export const MAX_LIST_VALUES = 5000;
/** Bound values in one compiled filter; SQLite allows 32,766 per statement. */
export const MAX_FILTER_VALUES = 20_000;
/** Grouping fields plus operations of an aggregation, or fields of a pipeline group or projection. */
export const MAX_AGGREGATE_FIELDS = 50;
/** Operands of one pipeline expression (`add`, `concat`, …). */
export const MAX_EXPRESSION_OPERANDS = 100;
/** Fields of one collection; each scalar field gets an index, built when the collection is saved. */
export const MAX_COLLECTION_FIELDS = 1000;
/** Words in a search expression. */
export const MAX_SEARCH_WORDS = 100;

/** Names that would reach JavaScript's object prototype; no field may be called so. */
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/** Why one key of an item cannot be stored, or undefined when it can. `$` keys are WDE0134, checked apart. */
export function fieldKeyProblem(key: string): string | undefined {
  if (key.includes("\u0000")) return `Field name [${printable(key)}] contains a NUL character.`;
  if (RESERVED_NAMES.has(key)) return `Field name [${key}] is reserved.`;
  return undefined;
}

/** Why a dotted field path (filters, sorts, projections, patches, aggregations) is unusable, or undefined. */
export function fieldPathProblem(path: unknown): string | undefined {
  if (typeof path !== "string" || path === "") return `Invalid field name [${String(path)}].`;
  for (const part of path.split(".")) {
    if (part === "" || part.startsWith("$") || /["\\]/.test(part)) return `Invalid field name [${printable(path)}].`;
    const problem = fieldKeyProblem(part);
    if (problem) return problem;
  }
  return undefined;
}

/** The text with NUL characters shown as `\0`, so messages stay readable. */
function printable(text: string): string {
  return text.replaceAll("\u0000", "\\0");
}

/**
 * Why a parsed request body cannot be read safely, or undefined: arrays and objects nested
 * deeper than `maxDepth`, or a `__proto__` key, which object validation would silently drop.
 * Walks without recursion, so any depth is measured safely.
 */
export function unreadableRequestProblem(value: unknown, maxDepth: number): string | undefined {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (!node || typeof node !== "object") continue;
    if (depth >= maxDepth) return `nesting exceeds ${maxDepth} levels`;
    if (!Array.isArray(node) && Object.hasOwn(node, "__proto__")) return "the name __proto__ is reserved";
    for (const child of Object.values(node)) if (child && typeof child === "object") pending.push([child, depth + 1]);
  }
  return undefined;
}
