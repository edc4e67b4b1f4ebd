import { Fragment, useCallback, useEffect, useRef, useState } from "react";
import { entryMatches, type LoggedRequest } from "../../../http/request-entry";
import type { AreaProps } from "../area-props";
import { AreaHeading, ErrorMessage, StatusMessage, Table } from "../components";
import { navigate, studioHref, useDebounced } from "../router";

type Connection = "connecting" | "live" | "reconnecting" | "stopped";

const COLUMNS = ["Time", "Method", "Path", "Status", "Duration", "Caller", "Details"] as const;

const STREAM_URL = "/_local/studio/api/requests/stream";
const DEFAULT_CAPACITY = 500;

const STATUS_FILTERS = [
  { value: "all", label: "Any status" },
  { value: "errors", label: "Errors (4xx and 5xx)" },
  { value: "2xx", label: "2xx success" },
  { value: "3xx", label: "3xx redirect" },
  { value: "4xx", label: "4xx refused" },
  { value: "5xx", label: "5xx failed" },
];

const CONNECTION_TEXT: Record<Connection, string> = {
  connecting: "Connecting to the platform…",
  live: "Live: new calls appear at the top.",
  reconnecting: "The platform does not answer; trying again…",
  stopped: "",
};

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

const statusClass = (status: number) => (status >= 500 ? "badge bad" : status >= 400 ? "badge warn" : "badge");

/**
 * The log's entries, newest first, kept current through the platform's event stream. The
 * browser's EventSource reconnects by itself and sends the last id it saw, so a dropped
 * connection resumes where it left off; a stream refused outright (a Studio session that ended)
 * stops, and `reconnect` starts a new one.
 */
function useRequestLog() {
  const [entries, setEntries] = useState<LoggedRequest[]>([]);
  const [capacity, setCapacity] = useState(DEFAULT_CAPACITY);
  const [connection, setConnection] = useState<Connection>("connecting");
  const [attempt, setAttempt] = useState(0);
  const kept = useRef(DEFAULT_CAPACITY);

  useEffect(() => {
    const source = new EventSource(STREAM_URL);
    source.addEventListener("open", () => setConnection("live"));
    source.addEventListener("error", () => setConnection(source.readyState === EventSource.CLOSED ? "stopped" : "reconnecting"));
    source.addEventListener("reset", (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as { requests: LoggedRequest[]; capacity: number };
      kept.current = data.capacity;
      setCapacity(data.capacity);
      setEntries(data.requests.reverse());
    });
    source.addEventListener("request", (event) => {
      const entry = JSON.parse((event as MessageEvent<string>).data) as LoggedRequest;
      setEntries((previous) => [entry, ...previous].slice(0, kept.current));
    });
    return () => source.close();
  }, [attempt]);

  const reconnect = useCallback(() => {
    setConnection("connecting");
    setAttempt((value) => value + 1);
  }, []);
  return { entries, capacity, connection, reconnect };
}

function Details({ entry, id }: { entry: LoggedRequest; id: string }) {
  return (
    <div id={id} className="request-details">
      <p>
        Request id <code>{entry.requestId}</code>
        {entry.errorCode && (
          <>
            {" "}
            · error code <code>{entry.errorCode}</code>
          </>
        )}
      </p>
      {entry.query && (
        <>
          <h2>Query string</h2>
          <pre>{entry.query}</pre>
        </>
      )}
      <h2>Request body</h2>
      <pre>{entry.requestBody ?? "(none)"}</pre>
      <h2>Response body</h2>
      <pre>{entry.responseBody ?? "(none)"}</pre>
    </div>
  );
}

export function RequestsArea({ search }: AreaProps) {
  const [path, setPath] = useState(search.get("path") ?? "");
  const [status, setStatus] = useState(search.get("status") ?? "all");
  const [open, setOpen] = useState<string | null>(null);
  const pathFilter = useDebounced(path.trim(), 200);
  const { entries, capacity, connection, reconnect } = useRequestLog();

  useEffect(() => {
    navigate(studioHref(["requests"], { path: pathFilter, status: status === "all" ? undefined : status }), { replace: true });
  }, [pathFilter, status]);

  const shown = entries.filter((entry) => entryMatches(entry, { path: pathFilter, status }));
  return (
    <>
      <AreaHeading>Requests</AreaHeading>
      <p className="muted">
        The last {capacity} calls the platform answered, newest first: what your app&apos;s <code>@wix/*</code> clients sent and why a call failed. Passwords,
        tokens, codes and keys are replaced with <code>[redacted]</code>; the Authorization header is never kept. Bodies are kept for failed calls only.
      </p>
      <form className="toolbar" role="search" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="requests-path">Path contains</label>
        <input id="requests-path" type="search" value={path} onChange={(event) => setPath(event.target.value)} placeholder="/wix-data/v2/items" />
        <label htmlFor="requests-status">Status</label>
        <select id="requests-status" value={status} onChange={(event) => setStatus(event.target.value)}>
          {STATUS_FILTERS.map((filter) => (
            <option key={filter.value} value={filter.value}>
              {filter.label}
            </option>
          ))}
        </select>
      </form>
      <StatusMessage>{CONNECTION_TEXT[connection]}</StatusMessage>
      {connection === "stopped" && (
        <div className="toolbar">
          <ErrorMessage error="The live log stopped: the platform refused the stream (has the Studio's session ended?)." />
          <button type="button" className="secondary" onClick={reconnect}>
            Reconnect
          </button>
        </div>
      )}
      <p className="muted">
        Showing {shown.length} of {entries.length} {entries.length === 1 ? "call" : "calls"}.
      </p>
      {shown.length === 0 ? (
        <p>{entries.length === 0 ? "No calls yet. Use your app, and they appear here." : "No call matches the filter."}</p>
      ) : (
        <Table caption="Calls the platform answered, newest first" region="Calls" className="requests" columns={COLUMNS}>
          {shown.map((entry) => {
            const detailsId = `request-${entry.id.replace(":", "-")}`;
            const expanded = open === entry.id;
            return (
              <Fragment key={entry.id}>
                <tr>
                  <td>{timeOf(entry.time)}</td>
                  <td>{entry.method}</td>
                  <td className="request-path">
                    {entry.path}
                    {entry.query && <span className="muted">?{entry.query}</span>}
                  </td>
                  <td>
                    <span className={statusClass(entry.status)}>{entry.status}</span>
                    {entry.errorCode && <span className="request-code"> {entry.errorCode}</span>}
                  </td>
                  <td>{entry.durationMs} ms</td>
                  <td>{entry.caller}</td>
                  <td>
                    {entry.status >= 400 && (
                      <button
                        type="button"
                        className="secondary small"
                        aria-label={`${expanded ? "Hide" : "Show"} details of ${entry.method} ${entry.path}`}
                        aria-expanded={expanded}
                        aria-controls={expanded ? detailsId : undefined}
                        onClick={() => setOpen(expanded ? null : entry.id)}
                      >
                        {expanded ? "Hide" : "Show"}
                      </button>
                    )}
                  </td>
                </tr>
                {expanded && (
                  <tr>
                    <td colSpan={COLUMNS.length}>
                      <Details entry={entry} id={detailsId} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </Table>
      )}
    </>
  );
}
