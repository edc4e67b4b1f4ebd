import { z } from "zod";
import { runQuery, sortSchema } from "../members/query";
import { invalidArgument } from "./errors";

/**
 * Queries with cursor paging over records in their wire shape (members' About sections, member
 * reports): filter and sort as the members query does them (docs/platform/members.md §4). The
 * next page's request sends only the cursor, so a cursor carries the filter and sort it came from.
 */

const filterSchema = z.record(z.string(), z.unknown()).nullish();
const cursorSchema = z.object({ offset: z.number().int().min(0), filter: filterSchema, sort: sortSchema });
type Cursor = z.infer<typeof cursorSchema>;

/** `{filter, sort, cursorPaging: {limit, cursor}}`; `sorting` and `paging` are the typings' names for the last two. */
export const cursorQuerySchema = z
  .object({
    filter: filterSchema,
    sort: sortSchema.optional(),
    sorting: sortSchema.optional(),
    cursorPaging: z.object({ limit: z.coerce.number().int().min(1).max(1000).nullish(), cursor: z.string().max(16000).nullish() }).nullish(),
    paging: z.object({ limit: z.coerce.number().int().min(1).max(1000).nullish(), cursor: z.string().max(16000).nullish() }).nullish(),
  })
  .prefault({});

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString("base64url");

function decodeCursor(text: string): Cursor {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
    if (parsed.success) return parsed.data;
  } catch {
    // Falls through to the refusal below.
  }
  throw invalidArgument("The cursor is not one this query gave.");
}

/** One page of the records the query matches, with `count`, `cursors: {next, prev}` and `hasNext`. */
export function cursorQueryPage<T>(
  records: T[],
  query: z.infer<typeof cursorQuerySchema>,
  { defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number },
) {
  const paging = query.cursorPaging ?? query.paging;
  const limit = paging?.limit ?? defaultLimit;
  if (limit > maxLimit) throw invalidArgument(`paging.limit: at most ${maxLimit}.`);
  const cursor = paging?.cursor ? decodeCursor(paging.cursor) : { offset: 0, filter: query.filter, sort: query.sort ?? query.sorting ?? [] };
  const matching = runQuery(records, cursor.filter, cursor.sort, { offset: 0, limit: records.length }).items;
  const items = matching.slice(cursor.offset, cursor.offset + limit);
  const end = cursor.offset + items.length;
  const hasNext = end < matching.length;
  return {
    items,
    count: items.length,
    cursors: {
      next: hasNext ? encodeCursor({ ...cursor, offset: end }) : null,
      prev: cursor.offset > 0 ? encodeCursor({ ...cursor, offset: Math.max(0, cursor.offset - limit) }) : null,
    },
    hasNext,
  };
}
