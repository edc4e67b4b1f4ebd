import { PlatformError } from "../http/errors";

/**
 * Compiles the data service's filter and sort JSON into SQL over the `data_items` table,
 * where each item's fields live in the JSON column `data` and the system fields also have
 * indexed columns. Pure: no database access, so it is tested on its own.
 */

export type SqlFragment = { sql: string; params: unknown[] };

export type SortSpec = { fieldName: string; order?: "ASC" | "DESC" | string };

/** System fields with their own indexed columns. */
const SYSTEM_COLUMNS: Record<string, string> = {
  _id: "id",
  _createdDate: "created_date",
  _updatedDate: "updated_date",
  _owner: "owner",
};
const DATE_COLUMNS = new Set(["created_date", "updated_date"]);

export function jsonPath(fieldName: string): string {
  if (!fieldName || fieldName.split(".").some((part) => part === "" || /["\\]/.test(part) || part.startsWith("$"))) {
    throw new PlatformError(400, "WDE0004", `Invalid field name [${fieldName}].`);
  }
  return "$" + fieldName.split(".").map((part) => `."${part}"`).join("");
}

type Scalar = { type: "text" | "number" | "boolean" | "date" | "null"; value: unknown };

/** The type of a filter operand as the platform compares it: same type only. */
function scalarOf(value: unknown, field: string): Scalar {
  if (value === null) return { type: "null", value: null };
  if (typeof value === "string") return { type: "text", value };
  if (typeof value === "number" && Number.isFinite(value)) return { type: "number", value };
  if (typeof value === "boolean") return { type: "boolean", value: value ? 1 : 0 };
  if (isDateValue(value)) return { type: "date", value: normaliseDate(value.$date, field) };
  throw new PlatformError(400, "WDE0020", `Invalid filter value for field [${field}].`);
}

export function isDateValue(value: unknown): value is { $date: string } {
  return !!value && typeof value === "object" && !Array.isArray(value) && typeof (value as { $date?: unknown }).$date === "string";
}

export function normaliseDate(text: string, field: string): string {
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new PlatformError(400, "WDE0020", `Invalid date value for field [${field}].`);
  return new Date(time).toISOString();
}

/** SQL that is true when the stored value at `path` equals the operand, type included. */
function scalarEquals(column: string, path: string, operand: Scalar): SqlFragment {
  const type = `json_type(${column}, '${path}')`;
  const value = `json_extract(${column}, '${path}')`;
  switch (operand.type) {
    case "text":
      return { sql: `(${type} = 'text' AND ${value} = ?)`, params: [operand.value] };
    case "number":
      return { sql: `(${type} IN ('integer', 'real') AND ${value} = ?)`, params: [operand.value] };
    case "boolean":
      return { sql: `${type} = '${operand.value ? "true" : "false"}'`, params: [] };
    case "date":
      return { sql: `json_extract(${column}, '${path}."$date"') = ?`, params: [operand.value] };
    case "null":
      return { sql: `(${type} IS NULL OR ${type} = 'null')`, params: [] };
  }
}

function equality(field: string, operand: unknown): SqlFragment {
  const column = SYSTEM_COLUMNS[field];
  const scalar = scalarOf(operand, field);
  if (column) {
    if (scalar.type === "null") return { sql: `${column} IS NULL`, params: [] };
    const expected = DATE_COLUMNS.has(column) ? "date" : "text";
    if (scalar.type !== expected) return { sql: "0", params: [] };
    return { sql: `${column} = ?`, params: [scalar.value] };
  }
  const path = jsonPath(field);
  const direct = scalarEquals("data", path, scalar);
  if (scalar.type === "null") return direct;
  // An array field matches when one of its elements equals the value.
  const element = scalarEquals("value", "$", scalar);
  return {
    sql: `(${direct.sql} OR (json_type(data, '${path}') = 'array' AND EXISTS (SELECT 1 FROM json_each(data, '${path}') WHERE ${element.sql.replaceAll("json_type(value, '$')", "type").replaceAll("json_extract(value, '$')", "value")})))`,
    params: [...direct.params, ...element.params],
  };
}

export function compileFilter(filter: unknown): SqlFragment {
  if (filter === undefined || filter === null) return { sql: "1", params: [] };
  if (typeof filter !== "object" || Array.isArray(filter)) {
    throw new PlatformError(400, "WDE0020", "Filter must be an object.");
  }
  const parts: SqlFragment[] = [];
  for (const [key, operand] of Object.entries(filter)) {
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(operand)) throw new PlatformError(400, "WDE0020", `${key} expects an array.`);
      const children = operand.map(compileFilter);
      if (children.length === 0) continue;
      parts.push({
        sql: `(${children.map((c) => c.sql).join(key === "$and" ? " AND " : " OR ")})`,
        params: children.flatMap((c) => c.params),
      });
    } else if (key.startsWith("$")) {
      throw new PlatformError(400, "WDE0020", `Unsupported filter operator ${key}.`);
    } else if (operand && typeof operand === "object" && !Array.isArray(operand) && !isDateValue(operand)) {
      const ops = Object.entries(operand);
      for (const [op, value] of ops) {
        if (op !== "$eq") throw new PlatformError(400, "WDE0020", `Unsupported filter operator ${op}.`);
        parts.push(equality(key, value));
      }
    } else {
      parts.push(equality(key, operand));
    }
  }
  if (parts.length === 0) return { sql: "1", params: [] };
  return { sql: parts.map((p) => p.sql).join(" AND "), params: parts.flatMap((p) => p.params) };
}

/**
 * ORDER BY for a sort list. Values of one field are ranked by type first (missing and null
 * lowest), then by value; text compares byte-wise, which for UTF-8 is code-point order.
 * The default is `_createdDate` descending; `id` breaks ties so paging is stable.
 */
export function compileSort(sort: SortSpec[] | undefined): string {
  const keys = sort && sort.length > 0 ? sort : [{ fieldName: "_createdDate", order: "DESC" }];
  const terms = keys.flatMap(({ fieldName, order }) => {
    const direction = String(order ?? "ASC").toUpperCase() === "DESC" ? "DESC" : "ASC";
    const column = SYSTEM_COLUMNS[fieldName];
    if (column) return [`${column} ${direction}`];
    const path = jsonPath(fieldName);
    const type = `json_type(data, '${path}')`;
    const rank = `CASE WHEN ${type} IS NULL OR ${type} = 'null' THEN 0 WHEN ${type} IN ('integer', 'real') THEN 1 WHEN ${type} = 'text' THEN 2 WHEN json_type(data, '${path}."$date"') = 'text' THEN 6 WHEN ${type} = 'object' THEN 3 WHEN ${type} = 'array' THEN 4 ELSE 5 END`;
    const value = `COALESCE(json_extract(data, '${path}."$date"'), json_extract(data, '${path}'))`;
    return [`${rank} ${direction}`, `${value} ${direction}`];
  });
  if (!keys.some((k) => k.fieldName === "_id")) terms.push("id ASC");
  return terms.join(", ");
}
