import { useCallback, useEffect, useState } from "react";

/** Calls to the Studio's JSON API, with the page's CSRF token on every change. */

const API_BASE = "/_local/studio/api";

const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "";
export const csrfToken = () => meta("studio-csrf");
export const signedIn = () => meta("studio-sign-out") === "yes";

/** A refusal from the platform: its message, and its code (`WDE0073`, `INVALID_ARGUMENT`, …) when it sent one. */
export class StudioApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** What the refusal names, e.g. `fieldViolations` of a value outside its field's range. */
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

type ErrorBody = { message?: string; details?: { applicationError?: { code?: string; description?: string; data?: Record<string, unknown> } } };

export async function studioApi<T>(
  path: string,
  init: { method?: string; body?: unknown; query?: Record<string, string | number | undefined> } = {},
): Promise<T> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(init.query ?? {})) if (value !== undefined && value !== "") query.set(name, String(value));
  const method = init.method ?? "GET";
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}${query.size ? `?${query}` : ""}`, {
      method,
      headers: {
        ...(init.body !== undefined && { "content-type": "application/json" }),
        ...(method !== "GET" && { "x-studio-csrf": csrfToken() }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
    });
  } catch {
    throw new StudioApiError(0, "The platform does not answer. Is it still running?");
  }
  const text = await response.text();
  const body = text ? (JSON.parse(text) as unknown) : {};
  if (!response.ok) {
    const error = body as ErrorBody;
    throw new StudioApiError(
      response.status,
      error.message ?? `The platform answered ${response.status}.`,
      error.details?.applicationError?.code,
      error.details?.applicationError?.data,
    );
  }
  return body as T;
}

export type Loaded<T> = { data?: T; error?: StudioApiError; loading: boolean; reload: () => void };

/** GET data for a component: loaded on mount and whenever `path` or `query` change; `reload` after a change. */
export function useStudioData<T>(path: string | null, query?: Record<string, string | number | undefined>): Loaded<T> {
  const [version, setVersion] = useState(0);
  const key = JSON.stringify(query ?? {});
  const request = `${path}?${key}#${version}`;
  // The last answer and the request it answers: loading until the current request has one.
  const [state, setState] = useState<{ data?: T; error?: StudioApiError; answers?: string }>({});
  useEffect(() => {
    if (path === null) return;
    let current = true;
    studioApi<T>(path, { query: JSON.parse(key) as Record<string, string> }).then(
      (data) => current && setState({ data, answers: request }),
      (error: StudioApiError) => current && setState((previous) => ({ data: previous.data, error, answers: request })),
    );
    return () => {
      current = false;
    };
  }, [path, key, request]);
  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: path !== null && state.answers !== request, reload };
}

/** A change made through the API: busy while it runs, then its confirmation (from `done`) or its refusal. */
export function useChange() {
  const [error, setError] = useState<StudioApiError>();
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  async function run<T>(call: () => Promise<T>, done: (result: T) => string): Promise<boolean> {
    setBusy(true);
    setError(undefined);
    setMessage("");
    try {
      setMessage(done(await call()));
      return true;
    } catch (caught) {
      setError(caught as StudioApiError);
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { error, message, busy, run };
}
