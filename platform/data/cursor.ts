import { PlatformError } from "../http/errors";

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

export type PagingLimits = { defaultLimit: number; maxLimit: number };

function badCursor(): PlatformError {
  return new PlatformError(400, "WDE0151", "Incorrect cursor provided.");
}

export function encodeCursor<State>(payload: CursorPayload<State>): string {
  return Buffer.from(JSON.stringify(payload)).toString("base64url");
}

function decodeCursor<State>(cursor: string, collectionId: string): CursorPayload<State> {
  let payload: CursorPayload<State>;
  try {
    payload = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as CursorPayload<State>;
  } catch {
    throw badCursor();
  }
  if (!payload || typeof payload !== "object" || payload.collectionId !== collectionId || !Number.isInteger(payload.offset) || !Number.isInteger(payload.limit)) {
    throw badCursor();
  }
  return payload;
}

export function assertLimit(limit: number, maxLimit: number): void {
  if (limit > maxLimit) throw new PlatformError(400, "WDE0077", `WDE0077: 'limit' cannot exceed ${maxLimit}`, { limit, maximum: maxLimit });
}

/** Offset paging, a first cursor page (`cursorPaging` without cursor), or a cursor follow-up. */
export function resolvePage<State>(input: PagingInput, collectionId: string, state: State, limits: PagingLimits): Page<State> {
  const cursor = input.cursorPaging?.cursor;
  if (cursor) {
    if (input.paging?.offset) throw new PlatformError(400, "WDE0080", "WDE0080: Skip is not supported in cursor paging.");
    const payload = decodeCursor<State>(cursor, collectionId);
    const limit = input.cursorPaging?.limit ?? payload.limit;
    assertLimit(limit, limits.maxLimit);
    return { limit, offset: payload.offset, state: payload.state, cursorMode: true };
  }
  if (input.cursorPaging) {
    if (input.paging) throw new PlatformError(400, "WDE0080", "WDE0080: paging and cursorPaging cannot be used together.");
    const limit = input.cursorPaging.limit ?? limits.defaultLimit;
    assertLimit(limit, limits.maxLimit);
    return { limit, offset: 0, state, cursorMode: true };
  }
  const limit = input.paging?.limit ?? limits.defaultLimit;
  assertLimit(limit, limits.maxLimit);
  return { limit, offset: input.paging?.offset ?? 0, state, cursorMode: false };
}

/** `pagingMetadata` for a page; cursors only in cursor mode, `total` only when counted. */
export function pagingMetadata<State>(page: Page<State>, collectionId: string, count: number, hasNext: boolean, total?: number) {
  if (page.cursorMode) {
    const at = (offset: number) => encodeCursor({ collectionId, state: page.state, offset, limit: page.limit });
    return {
      count,
      cursors: {
        ...(hasNext && { next: at(page.offset + page.limit) }),
        ...(page.offset > 0 && { prev: at(Math.max(0, page.offset - page.limit)) }),
      },
      hasNext,
    };
  }
  return { count, offset: page.offset, ...(total !== undefined && { total }), tooManyToCount: false, hasNext };
}
