import { badRequest } from "./errors";
import { fieldKeyProblem, MAX_AGGREGATE_FIELDS } from "./limits";
import { compileFilter, compileSort, jsonPath, sqlText, type SortSpec, type SqlFragment } from "./query-compiler";

/**
 * SQL for the classic aggregation and for distinct values. Both read a relation `(data)` of the
 * matching items and produce a relation `(data)` of result rows, so the same filter and sort
 * compiler then applies `finalFilter`/`having`, sort and paging to the results.
 */

export type AggregateOperation = {
  resultFieldName: string;
  itemCount?: Record<string, never> | object;
  sum?: { itemFieldName: string };
  average?: { itemFieldName: string };
  min?: { itemFieldName: string };
  max?: { itemFieldName: string };
};

export type ResultPage = { limit: number; offset: number; finalFilter?: unknown; sort?: SortSpec[] };

const badAggregate = badRequest;

const numeric = (path: string) => `CASE WHEN json_type(data, '${path}') IN ('integer', 'real') THEN json_extract(data, '${path}') END`;

/** min/max compare numbers, text (code-point order) and dates; null, missing, objects and booleans are ignored. */
function extreme(fn: "min" | "max", path: string): string {
  const value =
    `${fn}(CASE WHEN json_type(data, '${path}') IN ('integer', 'real', 'text') THEN json_extract(data, '${path}')` +
    ` WHEN json_type(data, '${path}."$date"') = 'text' THEN json_extract(data, '${path}."$date"') END)`;
  const holdsDates = `max(json_type(data, '${path}."$date"') = 'text')`;
  return `CASE WHEN ${holdsDates} THEN json_object('$date', ${value}) ELSE ${value} END`;
}

function operationSql(operation: AggregateOperation): string {
  if (operation.itemCount) return "count(*)";
  const [kind, spec] = (["sum", "average", "min", "max"] as const).map((k) => [k, operation[k]] as const).find(([, v]) => v) ?? [];
  if (!kind || !spec?.itemFieldName) throw badAggregate(`Aggregation operation [${operation.resultFieldName}] needs one of itemCount, sum, average, min, max.`);
  const path = jsonPath(spec.itemFieldName);
  switch (kind) {
    case "sum":
      return `COALESCE(sum(${numeric(path)}), 0)`;
    case "average":
      return `avg(${numeric(path)})`;
    case "min":
    case "max":
      return extreme(kind, path);
  }
}

/**
 * Groups of `source`, one `(data)` row each: `{_id: {field: value…} | null, field: value…, <resultFieldName>: value…}`.
 * Grouping values are repeated at the top level, as Velo's results show them, so `having` and
 * sort can name a grouping field directly.
 */
export function groupedRows(source: SqlFragment, groupingFields: string[], operations: AggregateOperation[]): SqlFragment {
  if (groupingFields.length + operations.length > MAX_AGGREGATE_FIELDS) {
    throw badAggregate(`An aggregation takes at most ${MAX_AGGREGATE_FIELDS} grouping fields and operations together.`);
  }
  const names = new Set<string>();
  for (const { resultFieldName } of operations) {
    if (!resultFieldName || resultFieldName.endsWith(".")) throw badAggregate(`Invalid aggregation result field name [${resultFieldName}].`);
    const problem = fieldKeyProblem(resultFieldName);
    if (problem) throw badAggregate(problem);
    if (names.has(resultFieldName) || resultFieldName === "_id") throw badAggregate(`Duplicate aggregation result field name [${resultFieldName}].`);
    names.add(resultFieldName);
  }
  const groups = groupingFields.map((field) => `data -> '${jsonPath(field)}'`);
  const id = groups.length === 0 ? "NULL" : `json_object(${groupingFields.map((field, i) => `${sqlText(field)}, json(${groups[i]})`).join(", ")})`;
  const groupValues = groupingFields
    .filter((field) => !names.has(field) && !field.includes("."))
    .map((field) => `, ${sqlText(field)}, json(data -> '${jsonPath(field)}')`)
    .join("");
  const results = groupValues + operations.map((operation) => `, ${sqlText(operation.resultFieldName)}, ${operationSql(operation)}`).join("");
  return {
    sql: `SELECT json_object('_id', ${id}${results}) AS data FROM (${source.sql}) ${groups.length > 0 ? `GROUP BY ${groups.join(", ")}` : ""}`,
    params: source.params,
  };
}

/** Distinct values of a field; array values count element by element; null and missing are left out. */
export function distinctRows(source: SqlFragment, fieldName: string): SqlFragment {
  const path = jsonPath(fieldName);
  return {
    sql:
      "SELECT json_object('value', json(value)) AS data FROM (SELECT DISTINCT (source.list -> element.fullkey) AS value FROM " +
      `(SELECT CASE WHEN json_type(data, '${path}') = 'array' THEN data -> '${path}' ELSE json_array(data -> '${path}') END AS list FROM (${source.sql}))` +
      " AS source, json_each(source.list) AS element WHERE element.type <> 'null')",
    params: source.params,
  };
}

/** Filters, sorts and pages result rows; also counts them for `returnTotalCount`. */
export function pagedResults(rows: SqlFragment, page: ResultPage): { select: SqlFragment; count: SqlFragment } {
  const where = compileFilter(page.finalFilter);
  const from = `FROM (${rows.sql}) WHERE ${where.sql}`;
  const orderBy = compileSort(page.sort, { tieBreaker: "data ASC" });
  return {
    select: { sql: `SELECT data ${from} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, params: [...rows.params, ...where.params, page.limit + 1, page.offset] },
    count: { sql: `SELECT count(*) ${from}`, params: [...rows.params, ...where.params] },
  };
}
