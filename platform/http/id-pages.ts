import { z } from "zod";
import { invalidArgument } from "./errors";

/**
 * Cursor pages over a list of ids, for the members modules that list ids (followers, blocks): a
 * cursor is the number of ids before its page, as opaque text.
 */

export const DEFAULT_PAGE_SIZE = 50;

/** `{limit, cursor}` as the clients send it, in a query (strings) or a body. */
export const cursorPagingSchema = z.object({ limit: z.coerce.number().int().min(1).max(100).optional(), cursor: z.string().max(100).optional() }).optional();

const encodeCursor = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString("base64url");

function decodeCursor(cursor: string): number {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { offset: unknown };
    if (typeof offset === "number" && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // Falls through to the refusal below.
  }
  throw invalidArgument("The cursor is not one this list gave.");
}

/** One page of the ids, with `pagingMetadata: {count, cursors: {next, prev}}`. */
export function pageOf<T>(
  all: T[],
  paging: z.infer<typeof cursorPagingSchema>,
): { page: T[]; pagingMetadata: { count: number; cursors: { next: string | null; prev: string | null } } } {
  const offset = paging?.cursor ? decodeCursor(paging.cursor) : 0;
  const page = all.slice(offset, offset + (paging?.limit ?? DEFAULT_PAGE_SIZE));
  const end = offset + page.length;
  const prev = offset > 0 ? encodeCursor(Math.max(0, offset - (paging?.limit ?? DEFAULT_PAGE_SIZE))) : null;
  return { page, pagingMetadata: { count: page.length, cursors: { next: end < all.length ? encodeCursor(end) : null, prev } } };
}
