import { z } from "zod";
import { invalidArgument } from "../http/errors";

/**
 * Filters, sorts and pages members in memory (docs/platform/members.md §4). A local site has a
 * handful of members, and evaluating over the wire shape means a filter sees exactly the fields
 * the caller may see: a visitor filtering on `loginEmail` matches nothing.
 */

type Json = unknown;
type Filter = Record<string, Json>;

function valueAt(record: Json, path: string): Json {
  let node = record;
  for (const key of path.split(".")) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
    node = (node as Record<string, Json>)[key];
  }
  return node;
}

/** Dates may arrive as ISO strings or `{$date}`; both compare as their ISO text. */
function plain(value: Json): Json {
  if (value instanceof Object && !Array.isArray(value) && typeof (value as { $date?: unknown }).$date === "string") {
    return (value as { $date: string }).$date;
  }
  return value;
}

function same(a: Json, b: Json): boolean {
  if (a === undefined || a === null) return b === undefined || b === null;
  return a === plain(b);
}

function ordered(a: Json, b: Json): number | null {
  const right = plain(b);
  if (typeof a === "number" && typeof right === "number") return a - right;
  if (typeof a === "string" && typeof right === "string") return a < right ? -1 : a > right ? 1 : 0;
  return null;
}

function asArray(operand: Json, operator: string): Json[] {
  if (!Array.isArray(operand)) throw invalidArgument(`${operator} needs an array.`);
  return operand;
}

function matchesCondition(value: Json, operator: string, operand: Json): boolean {
  switch (operator) {
    case "$eq":
      return same(value, operand);
    case "$ne":
      return !same(value, operand);
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte": {
      const order = ordered(value, operand);
      if (order === null) return false;
      return operator === "$gt" ? order > 0 : operator === "$gte" ? order >= 0 : operator === "$lt" ? order < 0 : order <= 0;
    }
    case "$in":
      return asArray(operand, operator).some((candidate) => same(value, candidate));
    case "$startsWith":
    case "$endsWith":
    case "$contains": {
      if (typeof operand !== "string") throw invalidArgument(`${operator} needs a string.`);
      if (typeof value !== "string") return false;
      const [text, part] = [value.toLowerCase(), operand.toLowerCase()];
      return operator === "$startsWith" ? text.startsWith(part) : operator === "$endsWith" ? text.endsWith(part) : text.includes(part);
    }
    case "$exists":
      return (value !== undefined && value !== null) === Boolean(operand);
    case "$hasSome":
    case "$hasAll": {
      const wanted = asArray(operand, operator);
      const held = Array.isArray(value) ? value : [];
      const has = (candidate: Json) => held.some((item) => same(item, candidate));
      return operator === "$hasSome" ? wanted.some(has) : wanted.every(has);
    }
    default:
      throw invalidArgument(`Unsupported filter operator ${operator}.`);
  }
}

function isOperatorObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).some((key) => key.startsWith("$"));
}

export function matchesFilter(record: Json, filter: Json): boolean {
  if (filter === undefined || filter === null) return true;
  if (typeof filter !== "object" || Array.isArray(filter)) throw invalidArgument("A filter must be an object.");
  return Object.entries(filter as Filter).every(([key, condition]) => {
    if (key === "$and") return asArray(condition, key).every((part) => matchesFilter(record, part));
    if (key === "$or") return asArray(condition, key).some((part) => matchesFilter(record, part));
    if (key === "$not") return !matchesFilter(record, condition);
    if (key.startsWith("$")) throw invalidArgument(`Unsupported filter operator ${key}.`);
    const value = valueAt(record, key);
    if (!isOperatorObject(condition)) return same(value, condition);
    return Object.entries(condition).every(([operator, operand]) => matchesCondition(value, operator, operand));
  });
}

export const sortSchema = z
  .array(z.object({ fieldName: z.string().min(1).max(200), order: z.enum(["ASC", "DESC"]).default("ASC") }))
  .max(10)
  .default([]);

export const pagingSchema = z
  .object({ limit: z.coerce.number().int().min(0).max(1000).default(50), offset: z.coerce.number().int().min(0).default(0) })
  .prefault({});

/** The fields `queryMembers`' plain-text search may look in; the nickname when none is named. */
export const SEARCH_FIELDS = ["loginEmail", "contact.firstName", "contact.lastName", "profile.title", "profile.nickname", "profile.slug"] as const;

export const searchSchema = z
  .object({
    expression: z.string().trim().min(1).max(100),
    fields: z.array(z.enum(SEARCH_FIELDS)).min(1).max(4).default(["profile.nickname"]),
  })
  .optional();

export type Sort = z.infer<typeof sortSchema>;
export type Search = z.infer<typeof searchSchema>;
export type Paging = z.infer<typeof pagingSchema>;

function compareValues(a: Json, b: Json): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  return ordered(a, b) ?? String(a).localeCompare(String(b));
}

/**
 * Plain-text search: every word of the expression appears, in any case, in one of the fields
 * (a word may match inside a field: "ridge" finds "Ridgeline"). A field the record does not
 * carry (the login email, for a caller who may not read it) matches nothing.
 */
export function matchesSearch(record: Json, search: Search): boolean {
  if (!search) return true;
  const texts = search.fields
    .map((field) => valueAt(record, field))
    .filter((value): value is string => typeof value === "string")
    .map((text) => text.toLowerCase());
  return search.expression
    .toLowerCase()
    .split(/\s+/)
    .every((word) => texts.some((text) => text.includes(word)));
}

/** Filters (and searches), sorts (stable, newest last by default) and pages; `total` counts every match. */
export function runQuery<T>(records: T[], filter: Json, sort: Sort, paging: Paging, search?: Search) {
  const matches = records.filter((record) => matchesFilter(record, filter) && matchesSearch(record, search));
  const sorted = matches
    .map((record, index) => ({ record, index }))
    .sort((left, right) => {
      for (const { fieldName, order } of sort) {
        const difference = compareValues(valueAt(left.record, fieldName), valueAt(right.record, fieldName));
        if (difference !== 0) return order === "DESC" ? -difference : difference;
      }
      return left.index - right.index;
    })
    .map(({ record }) => record);
  const page = sorted.slice(paging.offset, paging.offset + paging.limit);
  return { items: page, metadata: { count: page.length, offset: paging.offset, total: matches.length, tooManyToCount: false } };
}
