import { z } from "zod";
import type { CollectionConfig, SortConfig } from "./site-config";

/** `?page=` for paged lists: absent means 1; anything but a whole number from 1 up is invalid. */
const pageParam = z.union([
  z.undefined(),
  z
    .string()
    .regex(/^[1-9]\d{0,5}$/)
    .transform(Number),
]);

export function parsePageParam(value: string | string[] | undefined): number | null {
  const parsed = pageParam.safeParse(value);
  return parsed.success ? (parsed.data ?? 1) : null;
}

/** `?reports=` on item and member pages: which page of members' reports they show, read like `?page=`. */
export const REPORTS_PAGE_PARAM = "reports";

export function parseReportsPage(params: SearchParams): number | null {
  return parsePageParam(params[REPORTS_PAGE_PARAM]);
}

/** A page of an item's or a member's reports; the first is the page's plain address. */
export function reportsPageHref(path: string, page: number): string {
  return page > 1 ? `${path}?${REPORTS_PAGE_PARAM}=${page}` : path;
}

/** A path segment as the page sees it; a malformed escape is just a slug nothing has, never an error. */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export type SearchParams = Record<string, string | string[] | undefined>;

/** A query string's parameters as Next.js gives them to a page: a repeated name becomes a list. */
export function searchParamsOf(params: URLSearchParams): SearchParams {
  const record: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    record[name] = values.length > 1 ? values : values[0];
  }
  return record;
}

/** What a list page shows, read from its URL. */
export type ListState = {
  page: number;
  query: string;
  sort: SortConfig;
  pageSize: number;
  filters: FilterState[];
};

export type FilterState =
  | { kind: "values"; field: string; values: string[] }
  | { kind: "range"; field: string; type: "NUMBER" | "DATE" | "DATETIME"; from?: number | string; to?: number | string }
  | { kind: "yes-no"; field: string; value: boolean };

/** URL parameter names for a filter's parts; one place so reading and writing agree. */
export const filterParam = {
  values: (field: string) => field,
  from: (field: string) => `${field}.from`,
  to: (field: string) => `${field}.to`,
};

const single = z.string().optional().catch(undefined);
const many = z.union([z.string().transform((value) => [value]), z.array(z.string())]).catch([]);
const queryText = z.string().trim().max(100).catch("");
const wholeNumber = z.coerce.number().finite();
const calendarDay = z.iso.date();

/** The member directory's URL: a name (or part of one) to look for, and the page of the answer. */
export type DirectoryState = { query: string; page: number };

const directoryParams = z.object({
  // One search box: a repeated `q` is read as its first value, as a list's is.
  q: z.union([z.string(), z.array(z.string()).transform((values) => values[0])]).optional(),
  page: z.union([z.string(), z.array(z.string())]).optional(),
});

/** The directory's state from its URL; null when the page asked for is not a page (the page answers 404). */
export function parseDirectoryState(params: SearchParams): DirectoryState | null {
  const parsed = directoryParams.safeParse(params);
  if (!parsed.success) return null;
  const page = parsePageParam(parsed.data.page);
  if (page === null) return null;
  return { query: queryText.parse(parsed.data.q ?? "").replace(/\s+/g, " "), page };
}

/** The directory's canonical URL: `q` first, then `page` from 2 up. */
export function directoryHref(state: DirectoryState): string {
  const params = new URLSearchParams();
  if (state.query) params.set("q", state.query);
  if (state.page > 1) params.set("page", String(state.page));
  const query = params.toString();
  return query ? `/members?${query}` : "/members";
}

function rangeBound(type: "NUMBER" | "DATE" | "DATETIME", raw: string | undefined): number | string | undefined {
  if (raw === undefined || raw === "") return undefined;
  const parsed = (type === "NUMBER" ? wholeNumber : calendarDay).safeParse(raw);
  if (!parsed.success) return undefined;
  // `-0` is 0: the URL the state is written back to says "0" (found by tests/properties.test.ts).
  return parsed.data === 0 ? 0 : parsed.data;
}

/**
 * Reads a list page's state from its URL. A malformed page number is `null` (the page answers
 * 404); any other parameter that does not parse falls back to its default, so a hand-edited
 * URL still shows a sensible list.
 */
export function parseListState(collection: CollectionConfig, params: SearchParams): ListState | null {
  const page = parsePageParam(params.page);
  if (page === null) return null;
  const sortId = single.parse(params.sort);
  const size = Number(single.parse(params.size));
  const filters = collection.filters.flatMap((filter): FilterState[] => {
    if (filter.kind === "any-of" || filter.kind === "choice") {
      const values = many.parse(params[filterParam.values(filter.field)]).filter((value) => filter.options.includes(value));
      return values.length ? [{ kind: "values", field: filter.field, values: [...new Set(values)] }] : [];
    }
    if (filter.kind === "range") {
      const from = rangeBound(filter.type, single.parse(params[filterParam.from(filter.field)]));
      const to = rangeBound(filter.type, single.parse(params[filterParam.to(filter.field)]));
      return from !== undefined || to !== undefined ? [{ kind: "range", field: filter.field, type: filter.type, from, to }] : [];
    }
    const value = single.parse(params[filterParam.values(filter.field)]);
    return value === "yes" || value === "no" ? [{ kind: "yes-no", field: filter.field, value: value === "yes" }] : [];
  });
  return {
    page,
    query: queryText.parse(single.parse(params.q) ?? ""),
    sort: collection.sorts.find((sort) => sort.id === sortId) ?? collection.sorts[0],
    pageSize: collection.pageSizes.find((allowed) => allowed === size) ?? collection.pageSizes[0],
    filters,
  };
}

/** The URL of a list state; defaults are left out so the plain list has the plain URL. */
export function listHref(collection: CollectionConfig, state: ListState): string {
  const params = new URLSearchParams();
  if (state.query) params.set("q", state.query);
  for (const filter of state.filters) {
    if (filter.kind === "values") for (const value of filter.values) params.append(filterParam.values(filter.field), value);
    else if (filter.kind === "yes-no") params.set(filterParam.values(filter.field), filter.value ? "yes" : "no");
    else {
      if (filter.from !== undefined) params.set(filterParam.from(filter.field), String(filter.from));
      if (filter.to !== undefined) params.set(filterParam.to(filter.field), String(filter.to));
    }
  }
  if (state.sort.id !== collection.sorts[0].id) params.set("sort", state.sort.id);
  if (state.pageSize !== collection.pageSizes[0]) params.set("size", String(state.pageSize));
  if (state.page > 1) params.set("page", String(state.page));
  const search = params.toString();
  return `/${collection.route}${search ? `?${search}` : ""}`;
}

/** A filter in use, as the list shows it: what it says, and the list's URL without it. */
export type FilterInUse = { label: string; removeHref: string };

function rangeText(filter: Extract<FilterState, { kind: "range" }>): string {
  if (filter.from !== undefined && filter.to !== undefined) return `${filter.from} to ${filter.to}`;
  return filter.from !== undefined ? `${filter.from} or more` : `up to ${filter.to}`;
}

/**
 * The search and each filter value in use, each with the URL that drops just it (back to the
 * first page). The other filters keep their order, so the URL stays the canonical one.
 */
export function filtersInUse(collection: CollectionConfig, state: ListState): FilterInUse[] {
  const without = (change: Partial<ListState>) => listHref(collection, { ...state, ...change, page: 1 });
  const inUse: FilterInUse[] = state.query ? [{ label: `“${state.query}”`, removeHref: without({ query: "" }) }] : [];
  for (const filter of state.filters) {
    const name = collection.filters.find((config) => config.field === filter.field)?.label ?? filter.field;
    const replaced = (replacement: FilterState[]) => without({ filters: state.filters.flatMap((other) => (other === filter ? replacement : [other])) });
    if (filter.kind === "values") {
      for (const value of filter.values) {
        const rest = filter.values.filter((other) => other !== value);
        inUse.push({ label: `${name}: ${value}`, removeHref: replaced(rest.length ? [{ ...filter, values: rest }] : []) });
      }
    } else {
      inUse.push({ label: `${name}: ${filter.kind === "yes-no" ? (filter.value ? "yes" : "no") : rangeText(filter)}`, removeHref: replaced([]) });
    }
  }
  return inUse;
}

/** The labels of range filters whose start is past their end: such a list can match nothing, and the page says why. */
export function backwardRanges(collection: CollectionConfig, state: ListState): string[] {
  return state.filters.flatMap((filter) => {
    if (filter.kind !== "range" || filter.from === undefined || filter.to === undefined || filter.from <= filter.to) return [];
    return [collection.filters.find((config) => config.field === filter.field)?.label ?? filter.field];
  });
}
