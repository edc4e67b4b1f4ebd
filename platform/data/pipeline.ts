import { badRequest } from "./errors";
import { fieldKeyProblem, MAX_AGGREGATE_FIELDS, MAX_EXPRESSION_OPERANDS } from "./limits";
import { compileFilter, compileSort, isPlainObject, jsonPath, sqlText, type SortSpec, type SqlFragment } from "./query-compiler";

/**
 * The aggregation pipeline as a chain of SQL common table expressions. Every stage reads the
 * previous relation `(data, pos)` (`pos` keeps the order) and produces a new one. Supported
 * stages: filter, sort, skip, limit, group (sum, avg, min, max, first, last, push), projection
 * (include, exclude, reshape), unwindArray and objectToArray. Literals in expressions are
 * validated numbers and quoted text; filter values are bound parameters.
 */

type Json = Record<string, unknown>;

function bad(message: string) {
  return badRequest(`Invalid aggregation pipeline: ${message}`);
}

/** A top-level result key; nested paths are not supported in result names. */
function key(name: unknown): string {
  if (typeof name !== "string" || name === "" || name.includes(".") || name.startsWith("$")) throw bad(`invalid field name [${String(name)}]`);
  const problem = fieldKeyProblem(name);
  if (problem) throw bad(problem);
  return name;
}

/** A list of objects of at most `max` entries (`what` names it in the message). */
function objects(list: unknown, what: string, max = MAX_AGGREGATE_FIELDS): Json[] {
  if (!Array.isArray(list) || list.some((entry) => !isPlainObject(entry))) throw bad(`${what} expects a list of objects`);
  if (list.length > max) throw bad(`${what} takes at most ${max} entries`);
  return list as Json[];
}

/** A field path given as a string in a stage's spec. */
function path(spec: unknown, name: string): string {
  const value = isPlainObject(spec) ? spec[name] : undefined;
  if (typeof value !== "string") throw bad(`${name} must be a string`);
  return jsonPath(value);
}

const BINARY: Record<string, string> = { subtract: "-", divide: "/", mod: "%" };
const VARIADIC: Record<string, string> = { add: "+", sum: "+", multiply: "*", concat: "||" };
const UNARY: Record<string, string> = { abs: "abs", floor: "floor", ceil: "ceiling", toLower: "wix_fold", toUpper: "upper", length: "length" };

/** SQL for an expression's scalar value. */
function expressionValue(expression: unknown): string {
  if (!isPlainObject(expression)) throw bad("an expression must be an object");
  const [[kind, spec]] = Object.entries(expression).length === 1 ? Object.entries(expression) : [["", undefined]];
  if (kind === "fieldPath") {
    if (typeof spec !== "string") throw bad("fieldPath expects a string");
    return `json_extract(data, '${jsonPath(spec)}')`;
  }
  if (kind === "text") {
    if (typeof spec !== "string") throw bad("text expects a string");
    return sqlText(spec);
  }
  if (kind === "numeric") {
    if (typeof spec !== "number" || !Number.isFinite(spec)) throw bad("numeric expects a number");
    return String(spec);
  }
  const operands = spec as
    | {
        expressions?: unknown[];
        firstExpression?: unknown;
        secondExpression?: unknown;
        expression?: unknown;
        startExpression?: unknown;
        lengthExpression?: unknown;
      }
    | undefined;
  if (kind in VARIADIC) {
    if (!Array.isArray(operands?.expressions) || operands.expressions.length === 0) throw bad(`${kind} expects expressions`);
    if (operands.expressions.length > MAX_EXPRESSION_OPERANDS) throw bad(`${kind} takes at most ${MAX_EXPRESSION_OPERANDS} expressions`);
    return `(${operands.expressions.map(expressionValue).join(` ${VARIADIC[kind]} `)})`;
  }
  if (kind in BINARY) {
    const first = expressionValue(operands?.firstExpression);
    const second = expressionValue(operands?.secondExpression);
    return kind === "divide" ? `(CAST(${first} AS REAL) / ${second})` : `(${first} ${BINARY[kind]} ${second})`;
  }
  if (kind in UNARY) return `${UNARY[kind]}(${expressionValue(operands?.expression)})`;
  if (kind === "stringify") return `CAST(${expressionValue(operands?.expression)} AS TEXT)`;
  if (kind === "substring") {
    const length = operands?.lengthExpression === undefined ? "" : `, ${expressionValue(operands.lengthExpression)}`;
    return `substr(${expressionValue(operands?.expression)}, ${expressionValue(operands?.startExpression)} + 1${length})`;
  }
  throw bad(`unknown expression [${kind}]`);
}

/** The expression as a JSON value to put into a result object (field values keep their JSON type). */
function expressionJson(expression: unknown): string {
  if (isPlainObject(expression) && typeof expression.fieldPath === "string") return `json(data -> '${jsonPath(expression.fieldPath)}')`;
  return expressionValue(expression);
}

const NUMERIC = (value: string) => `CASE WHEN typeof(${value}) IN ('integer', 'real') THEN ${value} END`;

function accumulator(spec: Json): [string, string] {
  const entries = Object.entries(spec).filter(([name]) => name !== "resultFieldName");
  if (entries.length !== 1 || !isPlainObject(entries[0][1])) throw bad("an accumulator needs one operation");
  const [operation, { expression }] = entries[0] as [string, { expression?: unknown }];
  const value = expressionValue(expression);
  const json = expressionJson(expression);
  const sql: Record<string, string> = {
    sum: `COALESCE(sum(${NUMERIC(value)}), 0)`,
    avg: `avg(${NUMERIC(value)})`,
    min: `min(${value})`,
    max: `max(${value})`,
    first: `json(json_group_array(${json} ORDER BY pos) -> '$[0]')`,
    last: `json(json_group_array(${json} ORDER BY pos) -> '$[#-1]')`,
    push: `json(json_group_array(${json} ORDER BY pos))`,
  };
  if (!(operation in sql)) throw bad(`unknown accumulator [${operation}]`);
  return [key(spec.resultFieldName), sql[operation]];
}

/**
 * The JSON object a projection builds from the fields under `parent` (the root for the stage
 * itself, a field's path for `projectNested`). Includes and excludes name fields relative to
 * the parent; reshape expressions read the whole item. Only excludes: a copy without them.
 */
function projectedObject(fields: Json[], parent: string[]): string {
  if (fields.length === 0) throw bad("projection expects fields");
  const pathOf = (name: string) => jsonPath([...parent, name].join("."));
  const excluded = fields.filter((f) => isPlainObject(f.exclude)).map((f) => key((f.exclude as Json).fieldName));
  const kept = fields.filter((f) => !isPlainObject(f.exclude));
  const source = parent.length === 0 ? "data" : `data -> '${jsonPath(parent.join("."))}'`;
  if (kept.length === 0) return `json_remove(${source}, ${excluded.map((name) => `'$."${name}"'`).join(", ")})`;
  const pairs = kept.map((f) => {
    if (isPlainObject(f.include)) {
      const name = key(f.include.fieldName);
      return `${sqlText(name)}, json(data -> '${pathOf(name)}')`;
    }
    if (isPlainObject(f.reshape)) return `${sqlText(key(f.reshape.resultFieldName))}, ${expressionJson(f.reshape.expression)}`;
    if (isPlainObject(f.projectNested)) {
      const name = key(f.projectNested.resultFieldName);
      return `${sqlText(name)}, ${projectedObject(objects(f.projectNested.fields, "projectNested fields"), [...parent, name])}`;
    }
    throw bad("projection fields are include, exclude, reshape or projectNested");
  });
  if (parent.length === 0 && !excluded.includes("_id")) pairs.unshift(`'_id', json(data -> '$."_id"')`);
  return `json_object(${pairs.join(", ")})`;
}

function stageSql(stage: unknown, previous: string): SqlFragment {
  if (!isPlainObject(stage) || Object.keys(stage).length !== 1) throw bad("each stage has exactly one key");
  const [[kind, spec]] = Object.entries(stage);
  const from = `FROM ${previous}`;
  switch (kind) {
    case "filter": {
      const where = compileFilter(spec);
      return { sql: `SELECT data, pos ${from} WHERE ${where.sql}`, params: where.params };
    }
    case "sort": {
      const values = (spec as { values?: SortSpec[] })?.values;
      if (!Array.isArray(values)) throw bad("sort expects values");
      return { sql: `SELECT data, row_number() OVER (ORDER BY ${compileSort(values, { tieBreaker: "pos" })}) AS pos ${from}`, params: [] };
    }
    case "skip":
    case "limit": {
      if (!Number.isSafeInteger(spec) || (spec as number) < 0) throw bad(`${kind} expects a non-negative integer`);
      const clause = kind === "skip" ? `LIMIT -1 OFFSET ${spec}` : `LIMIT ${spec}`;
      return { sql: `SELECT data, pos ${from} ORDER BY pos ${clause}`, params: [] };
    }
    case "group": {
      const { groupIds = [], accumulators = [] } = (isPlainObject(spec) ? spec : {}) as { groupIds?: unknown; accumulators?: unknown };
      const ids = objects(groupIds, "groupIds").map((id) => [key(id.key), expressionJson(id.expression)] as const);
      const id = ids.length === 0 ? "NULL" : `json_object(${ids.map(([name, value]) => `${sqlText(name)}, ${value}`).join(", ")})`;
      const results = objects(accumulators, "accumulators")
        .map(accumulator)
        .map(([name, value]) => `, ${sqlText(name)}, ${value}`)
        .join("");
      const groupBy = ids.length === 0 ? "" : `GROUP BY ${ids.map(([, value]) => value).join(", ")}`;
      return { sql: `SELECT json_object('_id', ${id}${results}) AS data, row_number() OVER (ORDER BY min(pos)) AS pos ${from} ${groupBy}`, params: [] };
    }
    case "projection": {
      const fields = objects(isPlainObject(spec) ? spec.fields : undefined, "projection fields");
      // json_patch onto {} drops absent (null) values, so fields an item lacks stay absent, nested ones too.
      return { sql: `SELECT json_patch('{}', ${projectedObject(fields, [])}) AS data, pos ${from}`, params: [] };
    }
    case "unwindArray": {
      const array = path(spec, "arrayFieldName");
      return {
        sql:
          `SELECT json_set(source.data, '${array}', json(source.data -> element.fullkey)) AS data, ` +
          `row_number() OVER (ORDER BY source.pos, element.id) AS pos ` +
          `FROM ${previous} AS source, json_each(source.data, '${array}') AS element WHERE json_type(source.data, '${array}') = 'array'`,
        params: [],
      };
    }
    case "objectToArray": {
      const source = path(spec, "objectFieldName");
      const destination = path(spec, "destinationFieldName");
      return {
        sql:
          // json() around the subquery: a subquery's value loses its JSON subtype (SQLite 3.45 on),
          // and json_set would store the array as a string.
          `SELECT json_set(data, '${destination}', json((SELECT json_group_array(json_object('k', entry.key, 'v', json(data -> entry.fullkey))) ` +
          `FROM json_each(data, '${source}') AS entry))) AS data, pos ${from} WHERE json_type(data, '${source}') = 'object'`,
        params: [],
      };
    }
    default:
      throw bad(`unsupported stage [${kind}]`);
  }
}

/** The pipeline over `source` (a relation `(data)`): one page of result rows in order, and their count. */
export function pipelineRows(source: SqlFragment, stages: unknown[], page: { limit: number; offset: number }): { select: SqlFragment; count: SqlFragment } {
  if (stages.length > 100) throw bad("at most 100 stages");
  const parts = [`stage0 AS (SELECT data, row_number() OVER () AS pos FROM (${source.sql}))`];
  const params = [...source.params];
  stages.forEach((stage, index) => {
    const { sql, params: stageParams } = stageSql(stage, `stage${index}`);
    parts.push(`stage${index + 1} AS (${sql})`);
    params.push(...stageParams);
  });
  const chain = `WITH ${parts.join(", ")}`;
  return {
    select: { sql: `${chain} SELECT data FROM stage${stages.length} ORDER BY pos LIMIT ? OFFSET ?`, params: [...params, page.limit + 1, page.offset] },
    count: { sql: `${chain} SELECT count(*) FROM stage${stages.length}`, params },
  };
}
