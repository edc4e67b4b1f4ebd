import { filterTooDeep, invalidQuery, regexNotAllowed } from "./errors";
import { fieldPathProblem, MAX_FILTER_VALUES, MAX_LIST_VALUES, MAX_SEARCH_WORDS, MAX_SORT_KEYS } from "./limits";

/**
 * Compiles the data service's filter and sort JSON into SQL over a row whose fields live in
 * the JSON column `data` (for items, the system fields also have indexed columns). Pure: no
 * database access, so it is tested on its own. Values are always bound as parameters.
 *
 * Semantics (docs/platform/data.md §3): comparisons are type-strict; eq/ne/in/hasSome/hasAll and
 * ranges are case-sensitive in code-point order; contains/startsWith/endsWith fold case; a
 * value operator on an array field matches when any element matches; `null` means empty or
 * missing.
 */

export type SqlFragment = {
  sql: string;
  params: unknown[];
  /** True when the fragment already implies the compile scope, so the caller need not repeat it. */
  scoped?: boolean;
};

export type SortSpec = { fieldName: string; order?: string };

export type CompileOptions = {
  /**
   * ANDed into every branch of an OR the compiler builds itself, so that each branch can be
   * answered from an index that starts with the scope's column (e.g. `collection_id = ?`).
   */
  scope?: SqlFragment;
  /** Map `_id`, `_owner`, `_createdDate`, `_updatedDate` to the items table's own columns. */
  systemColumns?: boolean;
  /**
   * MULTI_REFERENCE fields of the collection: their values are links in `data_references`, so
   * eq/ne/hasSome/hasAll/isEmpty on them compare the referenced item ids.
   */
  multiReferenceFields?: string[];
};

/** Nesting limit of the platform (WDE0169). */
const MAX_FILTER_DEPTH = 50;

/** System fields with their own indexed columns (a Map: field names never reach an object's prototype). */
const SYSTEM_COLUMNS = new Map<string, { column: string; date: boolean }>([
  ["_id", { column: "id", date: false }],
  ["_owner", { column: "owner", date: false }],
  ["_createdDate", { column: "created_date", date: true }],
  ["_updatedDate", { column: "updated_date", date: true }],
]);

export const FOLD_FUNCTION = "wix_fold";
export const MATCHES_FUNCTION = "wix_matches";
export const SEEDED_RANK_FUNCTION = "wix_seeded_rank";

const TRUE: SqlFragment = { sql: "1", params: [] };
/** A `data_references` row (aliased `link`) of the item in scope, through the field given as the first parameter. */
const LINK_OF_ITEM = "link.collection_id = data_items.collection_id AND link.field = ? AND link.referring_id = data_items.id";
const FALSE: SqlFragment = { sql: "0", params: [], scoped: true };

const invalid = invalidQuery;

/** `$."a"."b"` for the dotted field path `a.b`; field names are quoted, never interpolated raw. */
export function jsonPath(fieldName: string): string {
  const problem = fieldPathProblem(fieldName);
  if (problem) throw invalid(problem);
  // The path is always placed inside a SQL text literal, so a quote in a field name is doubled.
  return (
    "$" +
    fieldName
      .split(".")
      .map((part) => `."${part.replaceAll("'", "''")}"`)
      .join("")
  );
}

/** A SQL text literal, for names the SQL must spell out (result keys of aggregations). */
export function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export function isDateValue(value: unknown): value is { $date: string } {
  return isPlainObject(value) && typeof value.$date === "string";
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

export function normaliseDate(text: string, field: string): string {
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw invalid(`Invalid date value [${text}] for field [${field}].`);
  return new Date(time).toISOString();
}

type Operand = { type: "text"; value: string } | { type: "number"; value: number } | { type: "boolean"; value: boolean } | { type: "date"; value: string };

function operandOf(value: unknown, field: string, operator: string): Operand {
  if (typeof value === "string") return { type: "text", value };
  if (typeof value === "number" && Number.isFinite(value)) return { type: "number", value };
  if (typeof value === "boolean") return { type: "boolean", value };
  if (isDateValue(value)) return { type: "date", value: normaliseDate(value.$date, field) };
  throw invalid(`Invalid ${operator} value for field [${field}]: expected a string, number, boolean or {"$date"}.`, "WDE0058");
}

/** How one stored value is reached: a field in `data`, an element of an array, or a system column. */
type Accessor = { type: string; value: string; dateType: string; date: string };

function fieldAccessor(path: string): Accessor {
  return {
    type: `json_type(data, '${path}')`,
    value: `json_extract(data, '${path}')`,
    dateType: `json_type(data, '${path}."$date"')`,
    date: `json_extract(data, '${path}."$date"')`,
  };
}

const ELEMENT: Accessor = {
  type: "element.type",
  value: "element.value",
  dateType: `(CASE WHEN element.type = 'object' THEN json_type(element.value, '$."$date"') END)`,
  date: `(CASE WHEN element.type = 'object' THEN json_extract(element.value, '$."$date"') END)`,
};

function columnAccessor(column: string, date: boolean): Accessor {
  return date
    ? { type: `'object'`, value: "NULL", dateType: `'text'`, date: column }
    : { type: `(CASE WHEN ${column} IS NULL THEN NULL ELSE 'text' END)`, value: column, dateType: "NULL", date: "NULL" };
}

const COMPARATORS: Record<string, string> = { $eq: "=", $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" };
const RANGE_OPERATORS = new Set(["$gt", "$gte", "$lt", "$lte"]);

/** SQL true when the value reached by `a` compares to the operand with `comparator`, same type only. */
function compare(a: Accessor, comparator: string, operand: Operand): SqlFragment {
  switch (operand.type) {
    case "text":
      return { sql: `${a.type} = 'text' AND ${a.value} ${comparator} ?`, params: [operand.value] };
    case "number":
      return { sql: `${a.type} IN ('integer', 'real') AND ${a.value} ${comparator} ?`, params: [operand.value] };
    case "boolean":
      // false < true, as in every ordering of booleans.
      return { sql: `${a.type} IN ('true', 'false') AND (${a.type} = 'true') ${comparator} ?`, params: [operand.value ? 1 : 0] };
    case "date":
      return { sql: `${a.dateType} = 'text' AND ${a.date} ${comparator} ?`, params: [operand.value] };
  }
}

/** Case-folded text matching for contains/startsWith/endsWith. */
function textMatch(a: Accessor, operator: string, operand: unknown, field: string): SqlFragment {
  if (typeof operand !== "string") throw invalid(`${operator} on field [${field}] expects a string.`, "WDE0059");
  const folded = `${FOLD_FUNCTION}(${a.value})`;
  const condition =
    operator === "$contains"
      ? `instr(${folded}, ${FOLD_FUNCTION}(?)) > 0`
      : operator === "$startsWith"
        ? `substr(${folded}, 1, length(${FOLD_FUNCTION}(?))) = ${FOLD_FUNCTION}(?)`
        : `substr(${folded}, -length(${FOLD_FUNCTION}(?))) = ${FOLD_FUNCTION}(?)`;
  const params = operator === "$contains" ? [operand] : [operand, operand];
  // substr(x, -0) is the whole string, so an empty operand matches every text value, as `contains ""` does.
  return { sql: `${a.type} = 'text' AND ${condition}`, params };
}

/** `$matches` (urlized dynamic-page lookups): a case-insensitive whole-value pattern. */
function matchesPattern(operand: unknown, field: string): string {
  if (!isPlainObject(operand) || !Array.isArray(operand.spec)) throw invalid(`$matches on field [${field}] expects {ignoreCase, spec}.`, "WDE0062");
  return (
    "^" +
    operand.spec
      .map((part: unknown) => {
        if (!isPlainObject(part) || typeof part.value !== "string") throw invalid(`Invalid $matches spec on field [${field}].`, "WDE0064");
        const escaped = part.value.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
        if (part.type === "literal") return escaped;
        if (part.type === "anyOf") return `[${escaped}]+`;
        throw invalid(`Invalid $matches spec type [${String(part.type)}] on field [${field}].`, "WDE0064");
      })
      .join("") +
    "$"
  );
}

type ValuePredicate = (a: Accessor) => SqlFragment;

/** Operands joined per SQL level; longer lists are grouped so SQLite's expression depth (1000) stays far away. */
const JOIN_FAN_OUT = 64;

function joined(parts: SqlFragment[], operator: "AND" | "OR"): SqlFragment {
  if (parts.length > JOIN_FAN_OUT) {
    const groups: SqlFragment[] = [];
    for (let i = 0; i < parts.length; i += JOIN_FAN_OUT) groups.push(joined(parts.slice(i, i + JOIN_FAN_OUT), operator));
    return joined(groups, operator);
  }
  const scoped = operator === "AND" ? parts.some((p) => p.scoped) : parts.every((p) => p.scoped);
  return { sql: parts.map((p) => `(${p.sql})`).join(` ${operator} `), params: parts.flatMap((p) => p.params), scoped };
}

function and(parts: SqlFragment[]): SqlFragment {
  if (parts.length === 0) return TRUE;
  if (parts.length === 1) return parts[0];
  return joined(parts, "AND");
}

function or(parts: SqlFragment[]): SqlFragment {
  if (parts.length === 0) return FALSE;
  if (parts.length === 1) return parts[0];
  return joined(parts, "OR");
}

/** NOT that treats an unknown (NULL) condition as false, so negation never drops rows by accident. */
function not(part: SqlFragment): SqlFragment {
  return { sql: `NOT COALESCE((${part.sql}), 0)`, params: part.params };
}

class FieldCompiler {
  constructor(
    private readonly field: string,
    private readonly options: CompileOptions,
  ) {}

  private get system() {
    return this.options.systemColumns ? SYSTEM_COLUMNS.get(this.field) : undefined;
  }

  /** The scope ANDed in, which lets each branch seek an index that starts with the scope's column. */
  private scoped(part: SqlFragment): SqlFragment {
    return this.options.scope ? and([{ ...this.options.scope, scoped: true }, part]) : part;
  }

  /** The field's value, or any element of it when it holds an array, satisfies the predicate. */
  private anyValue(predicate: ValuePredicate): SqlFragment {
    const system = this.system;
    if (system) return this.scoped(predicate(columnAccessor(system.column, system.date)));
    const path = jsonPath(this.field);
    const direct = this.scoped(predicate(fieldAccessor(path)));
    const element = predicate(ELEMENT);
    const inArray = this.scoped({
      sql: `json_type(data, '${path}') = 'array' AND EXISTS (SELECT 1 FROM json_each(data, '${path}') AS element WHERE ${element.sql})`,
      params: element.params,
    });
    return or([direct, inArray]);
  }

  isEmpty(): SqlFragment {
    const system = this.system;
    if (system) return this.scoped({ sql: `${system.column} IS NULL`, params: [] });
    const path = jsonPath(this.field);
    return this.scoped({ sql: `json_type(data, '${path}') IS NULL OR json_type(data, '${path}') = 'null'`, params: [] });
  }

  /** True when the item links to `referencedId` through this MULTI_REFERENCE field (`data_items` row in scope). */
  private linked(referencedId: unknown): SqlFragment {
    if (typeof referencedId !== "string") throw invalid(`Multi-reference field [${this.field}] compares item ids (strings).`);
    return {
      sql: `EXISTS (SELECT 1 FROM data_references AS link WHERE ${LINK_OF_ITEM} AND link.referenced_id = ?)`,
      params: [this.field, referencedId],
    };
  }

  private get multiReference(): boolean {
    return this.options.multiReferenceFields?.includes(this.field) ?? false;
  }

  equals(operand: unknown): SqlFragment {
    if (this.multiReference) {
      if (operand === null || operand === undefined) {
        return {
          sql: `NOT EXISTS (SELECT 1 FROM data_references AS link WHERE ${LINK_OF_ITEM})`,
          params: [this.field],
        };
      }
      return this.linked(operand);
    }
    if (operand === null || operand === undefined) return this.isEmpty();
    if (Array.isArray(operand) || (isPlainObject(operand) && !isDateValue(operand))) {
      // A whole array or object operand matches the stored value exactly (element order and key order included).
      if (this.system) return FALSE;
      const path = jsonPath(this.field);
      return this.scoped({
        sql: `json_type(data, '${path}') IN ('array', 'object') AND json_extract(data, '${path}') = json(?)`,
        params: [JSON.stringify(operand)],
      });
    }
    const value = operandOf(operand, this.field, "$eq");
    return this.anyValue((a) => compare(a, "=", value));
  }

  operator(operator: string, operand: unknown): SqlFragment {
    switch (operator) {
      case "$eq":
        return this.equals(operand);
      case "$ne":
        return not(this.equals(operand));
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte": {
        const value = operandOf(operand, this.field, operator);
        return this.anyValue((a) => compare(a, COMPARATORS[operator], value));
      }
      case "$contains":
      case "$startsWith":
      case "$endsWith":
        return this.anyValue((a) => textMatch(a, operator, operand, this.field));
      case "$in":
      case "$hasSome":
        return or(this.list(operator, operand).map((value) => this.equals(value)));
      case "$hasAll":
        return and(this.list(operator, operand).map((value) => this.equals(value)));
      case "$exists":
        if (typeof operand !== "boolean") throw invalid(`$exists on field [${this.field}] expects true or false.`);
        return operand ? not(this.equals(null)) : this.equals(null);
      case "$not":
        if (!isPlainObject(operand)) throw invalid(`$not on field [${this.field}] expects an object of operators.`, "WDE0056");
        return not(this.operators(operand));
      case "$matches": {
        const pattern = matchesPattern(operand, this.field);
        return this.anyValue((a) => ({ sql: `${a.type} = 'text' AND ${MATCHES_FUNCTION}(${a.value}, ?)`, params: [pattern] }));
      }
      case "$regex":
        throw regexNotAllowed();
      default:
        throw invalid(`Unknown filter operator ${operator} on field [${this.field}].`);
    }
  }

  private list(operator: string, operand: unknown): unknown[] {
    if (!Array.isArray(operand)) throw invalid(`${operator} on field [${this.field}] expects an array of values.`, "WDE0057");
    if (operand.length > MAX_LIST_VALUES) throw invalid(`${operator} on field [${this.field}] takes at most ${MAX_LIST_VALUES} values.`);
    for (const value of operand) {
      if (value === null || Array.isArray(value) || (isPlainObject(value) && !isDateValue(value))) {
        throw invalid(`${operator} on field [${this.field}] supports only Number, String or Date items.`, "WDE0060");
      }
    }
    return operand;
  }

  /**
   * An object of operators on one field; several operators are ANDed. Bounds of one type
   * (`{$gte: a, $lt: b}`) become one range on the same value, so the field index serves both
   * ends; on an array field that range must hold for one element.
   */
  operators(operand: Record<string, unknown>): SqlFragment {
    const entries = Object.entries(operand);
    if (entries.length === 0) throw invalid(`Empty operator object on field [${this.field}].`);
    const bounds = entries.filter(([operator]) => RANGE_OPERATORS.has(operator));
    const values = bounds.map(([operator, value]) => operandOf(value, this.field, operator));
    if (bounds.length < 2 || values.some((value) => value.type !== values[0].type)) {
      return and(entries.map(([operator, value]) => this.operator(operator, value)));
    }
    const range = this.anyValue((a) => and(values.map((value, i) => compare(a, COMPARATORS[bounds[i][0]], value))));
    const others = entries.filter(([operator]) => !RANGE_OPERATORS.has(operator)).map(([operator, value]) => this.operator(operator, value));
    return and([range, ...others]);
  }

  condition(operand: unknown): SqlFragment {
    if (isPlainObject(operand) && !isDateValue(operand) && Object.keys(operand).some((key) => key.startsWith("$"))) {
      if (!Object.keys(operand).every((key) => key.startsWith("$"))) {
        throw invalid(`Field [${this.field}] mixes operators with plain keys.`);
      }
      return this.operators(operand);
    }
    return this.equals(operand);
  }
}

function compileNode(filter: unknown, options: CompileOptions, depth: number): SqlFragment {
  if (depth > MAX_FILTER_DEPTH) throw filterTooDeep(MAX_FILTER_DEPTH);
  if (!isPlainObject(filter)) throw invalid("Filter must be an object.", "WDE0016");
  const parts: SqlFragment[] = [];
  for (const [key, operand] of Object.entries(filter)) {
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(operand)) throw invalid(`${key} expects an array of filters.`, "WDE0057");
      // `{}` inside `$and` means match-all; an empty `$and` or `$or` adds no condition.
      if (operand.length === 0) continue;
      const children = operand.map((child) => compileNode(child, options, depth + 1));
      parts.push(key === "$and" ? and(children) : or(children));
    } else if (key === "$not") {
      const children = Array.isArray(operand) ? operand : [operand];
      if (children.length !== 1) throw invalid("$not expects exactly one filter.", "WDE0057");
      parts.push(not(compileNode(children[0], options, depth + 1)));
    } else if (key === "$regex") {
      throw regexNotAllowed();
    } else if (key.startsWith("$")) {
      throw invalid(`Unknown filter operator ${key}.`);
    } else {
      parts.push(new FieldCompiler(key, options).condition(operand));
    }
  }
  return and(parts);
}

export function compileFilter(filter: unknown, options: CompileOptions = {}): SqlFragment {
  if (filter === undefined || filter === null) return TRUE;
  const compiled = compileNode(filter, options, 0);
  if (compiled.params.length > MAX_FILTER_VALUES) throw invalid(`The filter is too large: it compares more than ${MAX_FILTER_VALUES} values.`);
  return compiled;
}

/**
 * Search: every word of the expression (AND mode) or any of them (OR mode) occurs, case-folded,
 * in some text value of the item other than its id and owner.
 */
export function compileSearch(expression: string | undefined, mode: "AND" | "OR" = "OR"): SqlFragment | undefined {
  const words = (expression ?? "").split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  if (words.length > MAX_SEARCH_WORDS) throw invalid(`A search expression takes at most ${MAX_SEARCH_WORDS} words.`);
  const conditions = words.map((word) => ({
    sql:
      "EXISTS (SELECT 1 FROM json_tree(data) WHERE type = 'text' AND key NOT IN ('_id', '_owner', '$date') " +
      `AND instr(${FOLD_FUNCTION}(value), ${FOLD_FUNCTION}(?)) > 0)`,
    params: [word],
  }));
  return mode === "AND" ? and(conditions) : or(conditions);
}

/**
 * Why a value is not a sort (a list of `{fieldName, order}`), with the client's sort-model code
 * for the same fault (WDE0065–WDE0067); undefined when it is one. Requests are checked with it
 * as they are parsed, and the compiler checks again for sorts that come from elsewhere (pipelines).
 */
export function sortProblem(sort: unknown): { message: string; code: "WDE0065" | "WDE0066" | "WDE0067" } | undefined {
  if (!Array.isArray(sort)) return { message: "sort must be a list of {fieldName, order}", code: "WDE0065" };
  for (const key of sort) {
    if (!isPlainObject(key)) return { message: "sort must be a list of {fieldName, order}", code: "WDE0066" };
    const { fieldName, order } = key;
    if (typeof fieldName !== "string" || fieldName === "") return { message: "every sort entry needs a fieldName", code: "WDE0067" };
    const normalised = String(order ?? "ASC").toUpperCase();
    if (normalised !== "ASC" && normalised !== "DESC") return { message: `invalid sort order [${String(order)}] for field [${fieldName}]`, code: "WDE0067" };
  }
  return undefined;
}

/**
 * ORDER BY terms for a sort list. Values of one field rank by type first, BSON-like:
 * missing/null < numbers < text < objects < arrays < booleans < dates; then by value, text in
 * code-point order (SQLite compares UTF-8 bytes). `defaultSort` applies when `sort` is empty,
 * and `tieBreaker` (e.g. `id ASC`) keeps offset paging stable.
 */
export function compileSort(sort: SortSpec[] | undefined, options: CompileOptions & { defaultSort?: SortSpec[]; tieBreaker?: string } = {}): string {
  const keys = sort && sort.length > 0 ? sort : (options.defaultSort ?? []);
  const problem = sortProblem(keys);
  if (problem) throw invalid(`Invalid sort: ${problem.message}.`, problem.code);
  if (keys.length > MAX_SORT_KEYS) throw invalid(`A sort takes at most ${MAX_SORT_KEYS} fields.`);
  const terms = keys.flatMap(({ fieldName, order }) => {
    const normalised = String(order ?? "ASC").toUpperCase();
    const system = options.systemColumns ? SYSTEM_COLUMNS.get(fieldName) : undefined;
    // Only `_owner` can be missing; the date and id columns never are, which keeps the index order usable.
    if (system) return system.column === "owner" ? [`${system.column} IS NOT NULL ${normalised}`, `owner ${normalised}`] : [`${system.column} ${normalised}`];
    const path = jsonPath(fieldName);
    const type = `json_type(data, '${path}')`;
    const rank =
      `CASE WHEN ${type} IS NULL OR ${type} = 'null' THEN 0 WHEN ${type} IN ('integer', 'real') THEN 1 WHEN ${type} = 'text' THEN 2 ` +
      `WHEN json_type(data, '${path}."$date"') = 'text' THEN 6 WHEN ${type} = 'object' THEN 3 WHEN ${type} = 'array' THEN 4 ELSE 5 END`;
    const value = `COALESCE(json_extract(data, '${path}."$date"'), json_extract(data, '${path}'))`;
    return [`${rank} ${normalised}`, `${value} ${normalised}`];
  });
  if (options.tieBreaker) terms.push(options.tieBreaker);
  return terms.length > 0 ? terms.join(", ") : "NULL";
}

/** The (collection_id, type, value) index expressions that let equality and range filters on a field seek. */
export function fieldIndexExpressions(fieldName: string, isDate: boolean): [string, string] {
  const path = isDate ? `${jsonPath(fieldName)}."$date"` : jsonPath(fieldName);
  return [`json_type(data, '${path}')`, `json_extract(data, '${path}')`];
}
