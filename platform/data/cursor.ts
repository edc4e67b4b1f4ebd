import type { z } from "zod";
import { incorrectCursor, invalidRequest, limitExceeded } from "./errors";

/**
 * Self-contained cursors: follow-up requests carry only `cursorPaging`, so the cursor holds
 * everything needed to continue (the collection, the endpoint's own query state such as
 * filter, sort and fields, the position and the page size). It is base64url JSON, not a
 * secret: permissions are applied again on every request.
 */
type CursorPayload<State> = { collectionId: string; state: State; offset: number; limit: number };

export type PagingInput = {
  paging?: { limit?: number; offset?: number };
  cursorPaging?: { limit?: number; cursor?: string };
};

export type Page<State> = { limit: number; offset: number; state: State; cursorMode: boolean };

/** Native collections page at most 100 items per cursor page (1000 with offsets): `maxPageSize` of the collections API. */
export const MAX_CURSOR_PAGE_SIZE = 100;

export type PagingLimits<State> = { defaultLimit: number; maxLimit: number; stateSchema: z.ZodType<State> };

export function encodeCursor<State>(payload: CursorPayload<State>): string {
  return Buffer.from(JSON.stringify(payload)).toString("base64url");
}

function decodeCursor<State>(cursor: string, collectionId: string, stateSchema: z.ZodType<State>): CursorPayload<State> {
  let payload: Partial<CursorPayload<unknown>> | null;
  try {
    payload = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Partial<CursorPayload<unknown>> | null;
  } catch {
    throw incorrectCursor();
  }
  const position = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
  if (!payload || typeof payload !== "object" || payload.collectionId !== collectionId || !position(payload.offset) || !position(payload.limit)) {
    throw incorrectCursor();
  }
  const state = stateSchema.safeParse(payload.state);
  if (!state.success || payload.state === undefined) throw incorrectCursor();
  return { collectionId, state: state.data, offset: payload.offset, limit: payload.limit };
}

export function assertLimit(limit: number, maxLimit: number): void {
  if (limit > maxLimit) throw limitExceeded(limit, maxLimit);
}

/**
 * Offset paging, a first cursor page (`cursorPaging` without cursor), or a cursor follow-up. A
 * follow-up may ask for up to 100 items, or up to the page size its cursor was issued with when
 * that is larger (a cursor handed back by an offset page of up to 1000 carries on at that size).
 */
export function resolvePage<State>(input: PagingInput, collectionId: string, state: State, limits: PagingLimits<State>): Page<State> {
  const cursor = input.cursorPaging?.cursor;
  if (cursor) {
    if (input.paging?.offset) throw invalidRequest("WDE0080: Skip is not supported in cursor paging.");
    const payload = decodeCursor(cursor, collectionId, limits.stateSchema);
    const limit = input.cursorPaging?.limit ?? payload.limit;
    assertLimit(limit, Math.min(limits.maxLimit, Math.max(MAX_CURSOR_PAGE_SIZE, payload.limit)));
    return { limit, offset: payload.offset, state: payload.state, cursorMode: true };
  }
  if (input.cursorPaging) {
    if (input.paging) throw invalidRequest("WDE0080: paging and cursorPaging cannot be used together.");
    const limit = input.cursorPaging.limit ?? limits.defaultLimit;
    assertLimit(limit, Math.min(limits.maxLimit, MAX_CURSOR_PAGE_SIZE));
    return { limit, offset: 0, state, cursorMode: true };
  }
  const limit = input.paging?.limit ?? limits.defaultLimit;
  assertLimit(limit, limits.maxLimit);
  return { limit, offset: input.paging?.offset ?? 0, state, cursorMode: false };
}

/**
 * `pagingMetadata` for a page. Every page carries self-contained `cursors` (`next` when a page
 * follows, `prev` past the start), offset pages too: the SDK continues by cursor whenever the
 * previous reply had one, sending neither filter nor sort. `offset`, `total` (when counted) and
 * `tooManyToCount` belong to offset pages.
 */
export function pagingMetadata<State>(page: Page<State>, collectionId: string, count: number, hasNext: boolean, total?: number) {
  const at = (offset: number) => encodeCursor({ collectionId, state: page.state, offset, limit: page.limit });
  const cursors = {
    ...(hasNext && { next: at(page.offset + page.limit) }),
    ...(page.offset > 0 && { prev: at(Math.max(0, page.offset - page.limit)) }),
  };
  if (page.cursorMode) return { count, cursors, hasNext };
  return { count, offset: page.offset, ...(total !== undefined && { total }), tooManyToCount: false, cursors, hasNext };
}
