/**
 * Requests refused before anything renders, with a clear 4xx instead of whatever Next.js would
 * make of them (a 500 for some). Pure: tested on its own.
 */

const ALLOWED_METHODS = new Set(["GET", "HEAD", "POST", "OPTIONS"]);
/** Next.js reads this header on client navigations and fails on one it cannot parse. */
const ROUTER_STATE_HEADER = "next-router-state-tree";
const MAX_ROUTER_STATE_LENGTH = 16_384;

/** Next.js's own limit on a server action's body (`serverActions.bodySizeLimit`); past it, it throws a 500. */
export const MAX_ACTION_BODY_BYTES = 1024 * 1024;
/** The action ids Next.js makes are hex digests; anything else names no action. */
const ACTION_ID = /^[0-9a-f]{32,64}$/i;

export type Refused = { status: 400 | 403 | 405 | 413; message: string; headers?: Record<string, string> };

/** The field names a no-JavaScript form uses to name its server action (React's progressive enhancement). */
const FORM_ACTION_ID_FIELD = /^\$ACTION_ID_(.+)$/;
const FORM_ACTION_REF_FIELD = /^\$ACTION_\d+:0$/;

function formActionIds(form: FormData): string[] {
  const ids: string[] = [];
  for (const [name, value] of form.entries()) {
    const direct = FORM_ACTION_ID_FIELD.exec(name);
    if (direct) ids.push(direct[1]);
    else if (FORM_ACTION_REF_FIELD.test(name) && typeof value === "string") {
      try {
        const id = (JSON.parse(value) as { id?: unknown }).id;
        ids.push(typeof id === "string" ? id : "");
      } catch {
        ids.push("");
      }
    }
  }
  return ids;
}

/**
 * A server action's body, read in full by the server (server/request-body.ts), before Next.js
 * parses it and answers 500 for what it cannot read: an action call's arguments that are not
 * JSON, a multipart body that is cut short or malformed, or a no-JavaScript form naming an
 * action this build does not have (400). A script's call to an unknown action is left to
 * Next.js, whose 404 tells its client to reload the page.
 */
export async function refuseActionBody(headers: Headers, body: Buffer, actionIds: ReadonlySet<string>): Promise<Refused | null> {
  const type = headers.get("content-type") ?? "";
  const bad: Refused = { status: 400, message: "Bad request." };
  if (type.toLowerCase().startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData();
    } catch {
      return bad;
    }
    if (headers.has("next-action")) return null;
    return formActionIds(form).every((id) => actionIds.has(id))
      ? null
      : { status: 400, message: "This form is out of date: reload the page and send it again." };
  }
  if (!headers.has("next-action")) return null;
  try {
    JSON.parse(body.toString("utf8"));
    return null;
  } catch {
    return bad;
  }
}

/**
 * What a POST's headers already show to be unreadable for Next.js, which would otherwise answer
 * 500 ("Body exceeded 1 MB", an unparsable action request): a declared body over the limit
 * (413), a Next-Action header that is no action id, or an action body in a type Next.js does not
 * read, or multipart without its boundary (400). A body sent without a length, and a body that
 * lies about its type (bad JSON, truncated multipart), can only be caught while reading it.
 */
function unreadablePost(method: string, headers: Headers): Refused | null {
  if (method !== "POST") return null;
  const length = headers.get("content-length");
  if (length !== null && (!/^\d{1,15}$/.test(length) || Number(length) > MAX_ACTION_BODY_BYTES)) {
    return /^\d{1,15}$/.test(length) ? { status: 413, message: "The request is too large." } : { status: 400, message: "Bad request." };
  }
  const action = headers.get("next-action");
  if (action === null) return null;
  if (!ACTION_ID.test(action)) return { status: 400, message: "Bad request." };
  const type = (headers.get("content-type") ?? "").toLowerCase();
  const multipart = type.startsWith("multipart/form-data");
  if (multipart ? !/;\s*boundary=[^;\s]+/.test(type) : !type.startsWith("text/plain") && !type.startsWith("application/x-www-form-urlencoded")) {
    return { status: 400, message: "Bad request." };
  }
  return null;
}

function isReadableRouterState(value: string): boolean {
  if (value.length > MAX_ROUTER_STATE_LENGTH) return false;
  try {
    return Array.isArray(JSON.parse(decodeURIComponent(value)));
  } catch {
    return false;
  }
}

/**
 * A state-changing request is accepted from the site's own pages only. The site's origin comes
 * from configuration, never from Host or X-Forwarded-Host, which a client or proxy can set.
 * A server action without an Origin header is refused too: browsers always send one on POST.
 */
function isForeignPost(method: string, headers: Headers, siteOrigin: string): boolean {
  if (method !== "POST") return false;
  const origin = headers.get("origin");
  if (origin) return origin !== siteOrigin;
  if (headers.has("next-action")) return true;
  const fetchSite = headers.get("sec-fetch-site");
  return fetchSite !== null && fetchSite !== "same-origin" && fetchSite !== "none";
}

export function refuseRequest(method: string, headers: Headers, siteOrigin: string): Refused | null {
  if (!ALLOWED_METHODS.has(method)) return { status: 405, message: "Method not allowed.", headers: { allow: [...ALLOWED_METHODS].join(", ") } };
  const routerState = headers.get(ROUTER_STATE_HEADER);
  if (routerState !== null && !isReadableRouterState(routerState)) return { status: 400, message: "Bad request." };
  if (isForeignPost(method, headers, siteOrigin)) return { status: 403, message: "This request did not come from this site." };
  return unreadablePost(method, headers);
}
