/**
 * What one entry of the request log holds and how the log is filtered by status: shared by the
 * log (request-log.ts) and the Studio's page, so this file imports nothing Node-only.
 */

export type CallerRole = "none" | "visitor" | "member" | "app" | "admin key" | "unknown token";

export type LoggedRequest = {
  /** `<boot>:<sequence>`: unique in this process, and a platform restarted under an open Studio is told apart. */
  id: string;
  time: string;
  method: string;
  path: string;
  /** The query string with secrets replaced, without the `?`; empty when there was none. */
  query: string;
  status: number;
  durationMs: number;
  caller: CallerRole;
  requestId: string;
  /** Failed calls only (4xx and 5xx): the error's code and the two bodies, redacted and cut to a readable size. */
  errorCode?: string;
  requestBody?: string;
  responseBody?: string;
};

/** Which status filter an entry passes: a class (`4xx`), `errors` (4xx and 5xx), or an exact status. */
export function statusMatches(status: number, filter: string): boolean {
  if (!filter || filter === "all") return true;
  if (filter === "errors") return status >= 400;
  if (/^[1-5]xx$/.test(filter)) return Math.floor(status / 100) === Number(filter[0]);
  return String(status) === filter;
}

/** Whether an entry passes the log's filters: a part of its path, and a status filter as above. */
export function entryMatches(entry: Pick<LoggedRequest, "path" | "status">, filter: { path: string; status: string }): boolean {
  return entry.path.includes(filter.path) && statusMatches(entry.status, filter.status);
}
