/**
 * Requests refused before anything renders, with a clear 4xx instead of whatever Next.js would
 * make of them (a 500 for some). Pure: tested on its own.
 */
import { parseAndValidateFlightRouterState } from "next/dist/server/app-render/parse-and-validate-flight-router-state.js";
import { z } from "zod";
import { readReply, streamedNamesReadable, type ReplyParts } from "./action-reply";

const ALLOWED_METHODS = new Set(["GET", "HEAD", "POST", "OPTIONS"]);
/** Next.js reads this header on client navigations and fails (a 500) on one it cannot parse. */
const ROUTER_STATE_HEADER = "next-router-state-tree";

/** Next.js's own limit on a server action's body (`serverActions.bodySizeLimit`); past it, it throws a 500. */
export const MAX_ACTION_BODY_BYTES = 1024 * 1024;
/** The action ids Next.js makes are hex digests; anything else names no action. */
const ACTION_ID = /^[0-9a-f]{32,64}$/i;

export type Refused = { status: 400 | 403 | 405 | 408 | 413 | 416; message: string; headers?: Record<string, string> };

const BAD_REQUEST: Refused = { status: 400, message: "Bad request." };
/** Next.js's own limit on a call's arguments; past it, it throws (a 500). */
const MAX_ACTION_ARGUMENTS = 1000;
const actionArguments = z.array(z.unknown()).max(MAX_ACTION_ARGUMENTS);
/** What `$ACTION_<n>:0` holds for an action with bound arguments: its id, and the bound arguments as a reference. */
const boundActionDescriptor = z.object({ id: z.string(), bound: z.unknown() });
/** A form action's call from a script: the previous state, then the form's data (`$K`, FormData). */
const formActionArguments = z.tuple([z.unknown(), z.string().regex(/^\$K[0-9a-f]+$/)]);
/** Where a form's bound arguments are: a promise of the part that lists them. */
const BOUND_ARGUMENTS = /^\$@([0-9a-f]+)$/;

/** "pass": Next.js may read the body. "stale-form": a no-JavaScript form of a page from another build. */
export type ActionBodyVerdict = "pass" | "stale-form" | Refused;

/** The field names a no-JavaScript form uses to name its server action (React's progressive enhancement). */
const FORM_ACTION_ID_PREFIX = "$ACTION_ID_";
const FORM_ACTION_REF_PREFIX = "$ACTION_REF_";

/** The fields whose names start with `prefix`, without it, in the body's order; React reads the last of several of one name. */
function replyParts(form: FormData, prefix = ""): ReplyParts {
  const parts = new Map<string, FormDataEntryValue>();
  for (const [name, value] of form) if (name.startsWith(prefix)) parts.set(name.slice(prefix.length), value);
  return parts;
}

/**
 * The build's server actions (its server-reference manifest): their ids, and those of its form
 * actions, which `useActionState` calls with the previous state and the form's data and which
 * fail on anything else (the site names them `…Action`; tests/server-action-shapes.test.ts).
 */
export type BuildActions = { ids: ReadonlySet<string>; formActionIds: ReadonlySet<string> };

/** The site's rule for its server actions' names: a form action's ends in `Action`, no other's does. */
export const isFormActionName = (exportedName: string) => exportedName.endsWith("Action");

/**
 * A call's arguments, as the browser's script encodes them: a reply whose root is the list of
 * arguments, and for a form action the previous state and the form's data. A server function
 * passed as one must be of this build: Next.js answers 500 for another. A streamed (multipart)
 * body's field names are checked as React reads them (`names`).
 */
function argumentsVerdict(parts: ReplyParts, action: string, actions: BuildActions, names?: readonly string[]): ActionBodyVerdict {
  const reply = readReply(parts, { streamed: names !== undefined });
  const readable =
    reply.readable &&
    actionArguments.safeParse(reply.root).success &&
    reply.serverFunctionIds.every((id) => actions.ids.has(id)) &&
    (names === undefined || streamedNamesReadable(names, reply.streamParts)) &&
    (!actions.formActionIds.has(action) || formActionArguments.safeParse(reply.root).success);
  return readable ? "pass" : BAD_REQUEST;
}

/** Whether a form's bound arguments, given to a form action before the form's data, are the one previous state it takes. */
function boundToFormAction(bound: unknown, parts: ReplyParts): boolean {
  const reference = typeof bound === "string" ? BOUND_ARGUMENTS.exec(bound) : null;
  const list = reference ? parts.get(String(parseInt(reference[1], 16))) : undefined;
  // readReply has read every part the descriptor names as JSON already.
  return typeof list === "string" && z.array(z.unknown()).length(1).safeParse(JSON.parse(list)).success;
}

/**
 * A no-JavaScript form names its action in a field, as React renders it: `$ACTION_ID_<id>`, or for
 * an action with bound arguments `$ACTION_REF_<n>` beside `$ACTION_<n>:0`, a reply of its own that
 * holds the id. An id that is no id is a malformed request (400); a well-formed one this build
 * lacks comes from a page loaded before a deploy.
 */
function formActionVerdict(form: FormData, actions: BuildActions): ActionBodyVerdict {
  let verdict: ActionBodyVerdict = "pass";
  for (const name of new Set(form.keys())) {
    let id: string;
    // Next.js calls the action with the form's data after the bound arguments, if any.
    let formActionCallable: boolean;
    if (name.startsWith(FORM_ACTION_ID_PREFIX)) {
      id = name.slice(FORM_ACTION_ID_PREFIX.length);
      formActionCallable = false;
    } else if (name.startsWith(FORM_ACTION_REF_PREFIX)) {
      const parts = replyParts(form, `$ACTION_${name.slice(FORM_ACTION_REF_PREFIX.length)}:`);
      // React decodes these with the whole form at hand, not as it arrives.
      const reply = readReply(parts, { streamed: false });
      if (!reply.readable) return BAD_REQUEST;
      const descriptor = boundActionDescriptor.safeParse(reply.root);
      if (!descriptor.success || reply.serverFunctionIds.some((bound) => !actions.ids.has(bound))) return BAD_REQUEST;
      id = descriptor.data.id;
      formActionCallable = boundToFormAction(descriptor.data.bound, parts);
    } else continue;
    if (!ACTION_ID.test(id)) return BAD_REQUEST;
    if (!actions.ids.has(id)) verdict = "stale-form";
    else if (actions.formActionIds.has(id) && !formActionCallable) return BAD_REQUEST;
  }
  return verdict;
}

/**
 * A possible server action's body, read in full by the server (server/request-body.ts) before
 * Next.js parses it and answers 500 for what it cannot read: multipart that is cut short or
 * malformed, a call's arguments React cannot decode (lib/security/action-reply.ts) or more of
 * them than Next.js takes, a form naming its action by something that is no action id (400).
 * A form naming an action this build lacks is "stale-form". A script's call to an unknown
 * action is left to Next.js: its 409 tells its client the action is gone.
 */
export async function checkActionBody(headers: Headers, body: Buffer, actions: BuildActions): Promise<ActionBodyVerdict> {
  const type = headers.get("content-type") ?? "";
  const action = headers.get("next-action");
  if (type.toLowerCase().startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData();
    } catch {
      return BAD_REQUEST;
    }
    return action !== null ? argumentsVerdict(replyParts(form), action, actions, [...form.keys()]) : formActionVerdict(form, actions);
  }
  if (action === null) return "pass";
  return argumentsVerdict(new Map([["0", body.toString("utf8")]]), action, actions);
}

/**
 * Next.js refuses a server action whose Origin names another host than the one the request
 * was addressed to (X-Forwarded-Host, else Host), with a 500. The Origin has been checked
 * against the site's own already (`refuseRequest`), so this refuses a request that reached the
 * server under another name. Only pages run actions: route handlers are not asked.
 */
export function refuseMisdirectedAction(headers: Headers, siteOrigin: string): Refused | null {
  if (!headers.has("origin")) return null;
  const addressedTo = headers.get("x-forwarded-host")?.split(",")[0].trim() || headers.get("host");
  return addressedTo === new URL(siteOrigin).host ? null : { status: 400, message: "This request was not addressed to this site." };
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
    return /^\d{1,15}$/.test(length) ? { status: 413, message: "The request is too large." } : BAD_REQUEST;
  }
  const action = headers.get("next-action");
  if (action === null) return null;
  if (!ACTION_ID.test(action)) return BAD_REQUEST;
  const type = (headers.get("content-type") ?? "").toLowerCase();
  const multipart = type.startsWith("multipart/form-data");
  if (multipart ? !/;\s*boundary=[^;\s]+/.test(type) : !type.startsWith("text/plain") && !type.startsWith("application/x-www-form-urlencoded")) {
    return BAD_REQUEST;
  }
  return null;
}

/** Read by Next.js's own parser, the one that would fail: its shape changes between releases. */
function isReadableRouterState(value: string): boolean {
  try {
    parseAndValidateFlightRouterState(value);
    return true;
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

/** A path whose percent-encoding does not decode (`/trails/%E0%A4%A`): Next.js's router throws on it, a 500 for any method. */
export function refuseUndecodablePath(target: string): Refused | null {
  try {
    decodeURIComponent(target.split("?")[0]);
    return null;
  } catch {
    return BAD_REQUEST;
  }
}

export function refuseRequest(method: string, headers: Headers, siteOrigin: string): Refused | null {
  if (!ALLOWED_METHODS.has(method)) return { status: 405, message: "Method not allowed.", headers: { allow: [...ALLOWED_METHODS].join(", ") } };
  const routerState = headers.get(ROUTER_STATE_HEADER);
  if (routerState !== null && !isReadableRouterState(routerState)) return BAD_REQUEST;
  if (isForeignPost(method, headers, siteOrigin)) return { status: 403, message: "This request did not come from this site." };
  return unreadablePost(method, headers);
}
