import { createRequire } from "node:module";
import { ApiKeyStrategy, AppStrategy, createClient, OAuthStrategy } from "@wix/sdk";
import * as data from "@wix/data";
import * as siteAssets from "@wix/headless-site-assets";
import * as identity from "@wix/identity";
import * as members from "@wix/members";

/**
 * Walks every function the installed `@wix/*` clients expose and records the HTTP requests each
 * one really sends (docs/platform/client-coverage.md). Each function is called through the real
 * package with the global fetch replaced by a recorder that answers 200 `{}`: what reaches the
 * wire is what the package builds, whatever its version, so a newer version is checked by
 * installing it and running this again. No request leaves the process.
 */

/** One request as a function sent it: the path with the walk's sample values named, and a token request's grant. */
export type WalkedRequest = { method: string; path: string; grant?: string };

/** What a function is: it sends requests, or it is a webhook event, or it sends none at all (a local helper). */
export type WalkedFunction = {
  /** `package module.function`, e.g. `@wix/members members.joinCommunity`. */
  key: string;
  packageName: string;
  module: string;
  name: string;
  kind: "requests" | "event" | "local";
  requests: WalkedRequest[];
  /** A webhook event's type, the string its handlers are registered for (`wix.data.v2.data_item_created`). */
  eventType?: string;
};

/**
 * The values the walk passes; they are replaced by names in the recorded paths. A function's first
 * argument is a collection for the data items module and an id for the generated ones, so both read `{id}`.
 */
const SAMPLE = { collection: "walk-sample-a", id: "walk-sample-b", otherId: "walk-sample-c", field: "walk-sample-key" } as const;
const PLACEHOLDERS: Array<[string, string]> = [
  [SAMPLE.collection, "{id}"],
  [SAMPLE.id, "{id}"],
  [SAMPLE.otherId, "{id2}"],
  [SAMPLE.field, "{key}"],
];

/** The path with a sample value in place of each name, to look it up among the platform's routes. */
export function samplePath(path: string): string {
  return path.replace(/\{[a-z0-9]+\}/g, "sample");
}

/** Functions with a second form that sends another request: `aggregate(collection)` returns a builder, `aggregate(collection, pipeline)` runs a pipeline. */
const OTHER_FORMS: Record<string, unknown[][]> = {
  "@wix/data items.aggregate": [[SAMPLE.collection]],
};

/**
 * Argument lists tried in turn until one makes the function send a request: the generated modules
 * take ids, entities and options; the data items module checks its arguments before sending.
 */
const ARGUMENT_SETS: unknown[][] = [
  [SAMPLE.collection, SAMPLE.id, SAMPLE.otherId, SAMPLE.field],
  [SAMPLE.collection, SAMPLE.id],
  [SAMPLE.collection, SAMPLE.id, SAMPLE.field],
  [SAMPLE.collection, [SAMPLE.id]],
  [SAMPLE.collection, SAMPLE.field],
  [SAMPLE.collection, { _id: SAMPLE.id, title: "t" }, {}],
  [SAMPLE.collection, [{ _id: SAMPLE.id, title: "t" }], {}],
  [SAMPLE.collection, [SAMPLE.id], {}],
  [SAMPLE.collection, SAMPLE.field, SAMPLE.id, SAMPLE.otherId],
  [SAMPLE.collection, {}, [{ fieldPath: "f", action: "SET_FIELD" }]],
  [{ _id: SAMPLE.id }, {}],
  [{}],
  // A raw HTTP call (`oauth.token`) carries its body as bytes.
  [{ body: new Uint8Array([1]) }],
  [],
];

/** What a builder a function returns is finished with; each may send its own request. */
const BUILDER_ENDS: Array<[string, unknown[]]> = [
  ["find", []],
  ["count", []],
  ["distinct", [SAMPLE.field]],
  ["run", []],
];

/** Builders that need one step before they run (a patch needs a change). */
const BUILDER_STEPS: Array<[string, unknown[]]> = [["setField", ["f", 1]]];

type Recorder = { requests: WalkedRequest[] };

/** The grant a token request asks for; the SDK's bodies say it in camelCase or snake_case. */
function grantOf(body: unknown): string | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const parsed = JSON.parse(body) as { grant_type?: unknown; grantType?: unknown };
    const grant = parsed.grant_type ?? parsed.grantType;
    return typeof grant === "string" ? grant : undefined;
  } catch {
    return undefined;
  }
}

function describeRequest(input: RequestInfo | URL, init?: RequestInit): WalkedRequest {
  const url = new URL(input instanceof Request ? input.url : String(input));
  let path = decodeURIComponent(url.pathname);
  for (const [value, name] of PLACEHOLDERS) path = path.split(value).join(name);
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  const grant = path === "/oauth2/token" ? grantOf(init?.body) : undefined;
  return { method, path, ...(grant !== undefined && { grant }) };
}

function installRecorder(): { recorder: Recorder; restore: () => void } {
  const original = globalThis.fetch;
  const recorder: Recorder = { requests: [] };
  globalThis.fetch = async (input, init) => {
    recorder.requests.push(describeRequest(input, init));
    return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
  };
  return { recorder, restore: () => void (globalThis.fetch = original) };
}

/** Settles a call within a short time: a function waiting for a browser or a webhook never ends. */
async function settle(value: unknown): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, 1500, undefined)));
  try {
    return await Promise.race([Promise.resolve(value).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null;
}

/** Finishes what a builder-returning function gave back, so its requests are sent too. */
async function finishBuilder(result: unknown): Promise<void> {
  if (!isObject(result) || typeof result.then === "function") return;
  let builder: Record<string, unknown> = result;
  for (const [step, args] of BUILDER_STEPS) {
    if (typeof builder[step] === "function") builder = (builder[step] as (...a: unknown[]) => Record<string, unknown>)(...args);
  }
  for (const [end, args] of BUILDER_ENDS) {
    if (typeof builder[end] === "function") await settle((builder[end] as (...a: unknown[]) => unknown).call(builder, ...args));
  }
}

/** Calls a function with each argument set until one sends a request; every request sent is kept. */
async function walkFunction(
  fn: (...args: unknown[]) => unknown,
  recorder: Recorder,
  argumentSets: unknown[][],
  otherForms: unknown[][] = [],
): Promise<WalkedRequest[]> {
  recorder.requests = [];
  for (const args of otherForms) await finishBuilder(await settle(fn(...args)));
  const before = recorder.requests.length;
  for (const args of argumentSets) {
    let result: unknown;
    try {
      result = fn(...args);
    } catch {
      continue;
    }
    await finishBuilder(await settle(result));
    if (recorder.requests.length > before) break;
  }
  const unique = new Map(recorder.requests.map((request) => [`${request.method} ${request.path} ${request.grant ?? ""}`, request]));
  return [...unique.values()];
}

const isEvent = (value: unknown): value is { type: string } => isObject(value) && value.__type === "event-definition";
/** Enums, classes and argument builders (`Filter`, `QueryBuilder`, …) are not calls to make. */
const isCallable = (name: string, value: unknown) => typeof value === "function" && /^[a-z]/.test(name) && name !== "default";

/** The namespaces a package exports (`items`, `members`, …), each a module of functions. */
function modulesOf(pkg: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
  return Object.entries(pkg).filter((entry): entry is [string, Record<string, unknown>] => {
    const [name, value] = entry;
    return /^[a-z]/.test(name) && isObject(value) && typeof value !== "function" && Object.values(value).some((v) => typeof v === "function");
  });
}

/** A client whose module calls carry a fixed token, so no token request mixes into what a function sends. */
function moduleClient(name: string, module: Record<string, unknown>) {
  const client = createClient({ modules: { [name]: module }, auth: { getAuthHeaders: async () => ({ headers: { Authorization: "walk-token" } }) } });
  return (client as unknown as Record<string, Record<string, unknown>>)[name];
}

const PACKAGES: Array<[string, Record<string, unknown>]> = [
  ["@wix/data", data as unknown as Record<string, unknown>],
  ["@wix/members", members as unknown as Record<string, unknown>],
  ["@wix/identity", identity as unknown as Record<string, unknown>],
  // Not the site's: what Wix's Astro integration calls for every page (docs/platform/site-assets.md).
  ["@wix/headless-site-assets", siteAssets as unknown as Record<string, unknown>],
];

const LIVE_TOKENS = {
  accessToken: { value: "walk-access", expiresAt: Math.floor(Date.now() / 1000) + 3600 },
  refreshToken: { value: "walk-refresh", role: "member" as never },
};

/**
 * `@wix/sdk`'s auth strategies, and how to call their methods so they reach the wire: their
 * arguments are checked before sending (a code needs the state it was issued with), so each gets
 * its own. A method not named here is still walked with the generic arguments.
 */
function sdkAuthStrategies(): Array<[string, Record<string, unknown>, Record<string, unknown[][]>]> {
  const oauth = OAuthStrategy({ clientId: "walk-client", tokens: LIVE_TOKENS });
  const oauthData = oauth.generateOAuthData("http://localhost/callback");
  const oauthCalls: Record<string, unknown[][]> = {
    getMemberTokens: [["code", oauthData.state, oauthData]],
    getAuthUrl: [[oauthData]],
    logout: [["http://localhost/"]],
    login: [[{ email: "a@b.example", password: "p" }]],
    register: [[{ email: "a@b.example", password: "p" }]],
    processVerification: [[{ verificationCode: "123456" }, { loginState: "EMAIL_VERIFICATION_REQUIRED", data: { stateToken: "walk-state" } }]],
    sendPasswordResetEmail: [["a@b.example", "http://localhost/"]],
    getMemberTokensForExternalLogin: [[SAMPLE.id, "walk-api-key"]],
    getMemberTokensForExternalLoginWithSession: [["a@b.example", "walk-api-key"]],
    getMemberTokensForDirectLogin: [["session-token"]],
    renewToken: [[LIVE_TOKENS.refreshToken]],
  };
  const app = AppStrategy({ appId: "walk-app", appSecret: "walk-secret", instanceId: SAMPLE.id });
  const appWithToken = AppStrategy({ appId: "walk-app", appSecret: "walk-secret", accessToken: "walk-access" });
  const appWithRefresh = AppStrategy({ appId: "walk-app", appSecret: "walk-secret", refreshToken: "walk-refresh" });
  const appCalls: Record<string, unknown[][]> = {
    handleOAuthCallback: [["http://localhost/callback?code=c&instanceId=i"]],
    getAuthHeaders: [[]],
  };
  return [
    ["OAuthStrategy", oauth as unknown as Record<string, unknown>, oauthCalls],
    ["AppStrategy({instanceId})", app as unknown as Record<string, unknown>, appCalls],
    ["AppStrategy({accessToken})", appWithToken as unknown as Record<string, unknown>, appCalls],
    ["AppStrategy({refreshToken})", appWithRefresh as unknown as Record<string, unknown>, appCalls],
    ["ApiKeyStrategy", ApiKeyStrategy({ apiKey: "walk-api-key", siteId: "walk-site" }) as unknown as Record<string, unknown>, {}],
  ];
}

/** The installed version of a package, read from its own package.json. */
export function installedVersion(packageName: string): string {
  const require = createRequire(import.meta.url);
  return (require(`${packageName}/package.json`) as { version: string }).version;
}

/** The client packages walked, in the order of the table. */
export const WALKED_PACKAGES = ["@wix/data", "@wix/members", "@wix/identity", "@wix/headless-site-assets", "@wix/sdk"] as const;

/** Every function of the walked packages with the requests it sends, in a stable order. */
export async function walkClients(): Promise<WalkedFunction[]> {
  const { recorder, restore } = installRecorder();
  const walked: WalkedFunction[] = [];
  try {
    for (const [packageName, pkg] of PACKAGES) {
      for (const [moduleName, module] of modulesOf(pkg)) {
        const client = moduleClient(moduleName, module);
        for (const [name, value] of Object.entries(module).sort(([a], [b]) => a.localeCompare(b))) {
          const base = { key: `${packageName} ${moduleName}.${name}`, packageName, module: moduleName, name };
          if (isEvent(value)) walked.push({ ...base, kind: "event", requests: [], eventType: value.type });
          else if (isCallable(name, value)) {
            const requests = await walkFunction(client[name] as (...args: unknown[]) => unknown, recorder, ARGUMENT_SETS, OTHER_FORMS[base.key]);
            walked.push({ ...base, kind: requests.length > 0 ? "requests" : "local", requests });
          }
        }
      }
    }
    for (const [strategyName, strategy, calls] of sdkAuthStrategies()) {
      for (const [name, value] of Object.entries(strategy).sort(([a], [b]) => a.localeCompare(b))) {
        if (typeof value !== "function") continue;
        const fn = (value as (...args: unknown[]) => unknown).bind(strategy);
        const requests = await walkFunction(fn, recorder, calls[name] ?? ARGUMENT_SETS);
        walked.push({
          key: `@wix/sdk ${strategyName}.${name}`,
          packageName: "@wix/sdk",
          module: strategyName,
          name,
          kind: requests.length > 0 ? "requests" : "local",
          requests,
        });
      }
    }
  } finally {
    restore();
  }
  return walked;
}
