// `npm run check:site`: checks the site's configuration against the platform it points at and
// prints a checklist, a fix under every failure; exits 1 when anything fails. `--suggest` also
// prints a starting site config for the collections the config does not name yet.
// docs/deployment.md, "Check the set-up", says what each check asks of the platform.
import { createPublicKey } from "node:crypto";
import { pathToFileURL } from "node:url";
import nextEnv from "@next/env";
import { collections } from "@wix/data";
import { createClient } from "@wix/sdk";
import { AUTH_ROUTES } from "@/lib/auth/routes";
import { getConfig, siteEnvSchema, type SiteConfig } from "@/lib/config";
import { collectionByRoute, outingCollectionByRoute, outingCollections, siteCollections, type CollectionConfig } from "@/lib/site-config";
import { sessionClient } from "@/lib/wix/client";
import { GrantRejectedError, refusalOf } from "@/lib/wix/errors";
import { checkPlatform } from "@/lib/wix/health";
import { installLocalPlatformRouting } from "@/lib/wix/local-platform-fetch";
import { grantVisitorTokens, startAuthorization, type TokenPair } from "@/lib/wix/oauth";
import { platformFetch } from "@/lib/wix/platform-fetch";

export type CheckRow = { status: "pass" | "fail" | "skip"; title: string; detail?: string; fix?: string };

const pass = (title: string, detail?: string): CheckRow => ({ status: "pass", title, detail });
const fail = (title: string, detail: string, fix: string): CheckRow => ({ status: "fail", title, detail, fix });
const skip = (title: string, detail: string): CheckRow => ({ status: "skip", title, detail });

type Env = Record<string, string | undefined>;

/**
 * What a failed call says, in one line: the platform's description of its refusal as the SDK
 * passes it on (its message is then the whole reply as JSON), else the message's first line.
 */
function firstLine(error: unknown): string {
  const description = (error as { details?: { applicationError?: { description?: unknown } } } | null)?.details?.applicationError?.description;
  if (typeof description === "string" && description) return description;
  const message = error instanceof Error ? error.message : String(error);
  try {
    const reply = JSON.parse(message) as { message?: unknown };
    if (typeof reply.message === "string") return reply.message;
  } catch {
    // Not the SDK's JSON: the message as it is.
  }
  return message.split("\n")[0];
}

// ---------------------------------------------------------------------------------------------
// What the environment alone says.

const isLocalHost = (hostname: string) => ["localhost", "127.0.0.1", "[::1]"].includes(hostname) || hostname.endsWith(".localhost");

function sessionSecretRow(env: Env, real: boolean): CheckRow {
  const title = "SESSION_SECRET is set, 32+ characters";
  const fix = "Set SESSION_SECRET to 32 or more random characters (openssl rand -base64 32) in .env.local or the host's environment.";
  if (env.SESSION_SECRET === undefined) {
    return real ? fail(title, "it is not set; a real site needs its own", fix) : pass(title, "unset: local mode generates one in the data folder");
  }
  const parsed = siteEnvSchema.shape.SESSION_SECRET.safeParse(env.SESSION_SECRET);
  return parsed.success ? pass(title) : fail(title, `it ${parsed.error.issues[0].message}`, fix);
}

function siteUrlRow(env: Env): CheckRow {
  const title = "SITE_URL is https (plain http only on localhost)";
  const fix = "Set SITE_URL to the site's public https address, like https://www.example.com.";
  const parsed = siteEnvSchema.shape.SITE_URL.safeParse(env.SITE_URL);
  if (!parsed.success) return fail(title, `it ${parsed.error.issues[0].message}`, fix);
  const url = new URL(parsed.data);
  if (url.protocol === "https:" || isLocalHost(url.hostname)) return pass(title, url.origin);
  return fail(title, `${url.origin} is plain http on a public host: the session cookie would not be Secure and would cross the network readable`, fix);
}

/**
 * What `@wix/sdk`'s AppStrategy does with a public key: a value with a line break is the PEM
 * itself, any other is base64 of one; it imports it as SPKI and verifies RS256, so an RSA key.
 */
function publicKeyProblem(key: string): string | null {
  const pem = /[\r\n]/.test(key) ? key.trim() : Buffer.from(key, "base64").toString("utf8");
  if (!pem.includes("-----BEGIN PUBLIC KEY-----")) return "it is neither a PEM public key (-----BEGIN PUBLIC KEY-----) nor base64 of one";
  try {
    const type = createPublicKey(pem).asymmetricKeyType;
    return type === "rsa" ? null : `it is an ${type} key; webhooks are signed RS256, which needs an RSA key`;
  } catch {
    return "its PEM does not parse as a public key";
  }
}

function webhookRows(env: Env, real: boolean): CheckRow[] {
  const title = "the webhook app's id and public key are set (WIX_APP_ID, WIX_APP_PUBLIC_KEY)";
  const keyTitle = "WIX_APP_PUBLIC_KEY parses as a public key";
  const appId = env.WIX_APP_ID?.trim();
  const key = env.WIX_APP_PUBLIC_KEY?.trim();
  if (!real && !appId && !key)
    return [skip(title, "local mode: the local platform registers the site as its app and signs its events with the data folder's key")];
  const missing = [!appId && "WIX_APP_ID", !key && "WIX_APP_PUBLIC_KEY"].filter(Boolean);
  const rows = [
    missing.length === 0
      ? pass(title)
      : fail(
          title,
          `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set: cached pages learn of edits only when they expire`,
          "Copy the app's id and public key from your app's page in Wix's app dashboard (docs/deployment.md, \"Webhooks\").",
        ),
  ];
  if (key) {
    const problem = publicKeyProblem(key);
    rows.push(problem ? fail(keyTitle, problem, "Paste the public key as Wix shows it: the PEM, or the PEM in base64 on one line.") : pass(keyTitle));
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// What the site's config expects of each collection it names.

type Access = {
  /** Who must be able to read: anyone (public pages), members only (and no visitor), or each member their own items (organisers' rosters). */
  read: "ANYONE" | "SITE_MEMBER" | "SITE_MEMBER_AUTHOR";
  /** Members write items, and only an item's author may update or remove it. */
  authorWrites: boolean;
};

/** A field's types (null: any), what it references, and whether the site does without it (checked only when present). */
type ExpectedField = { types: readonly string[] | null; references?: string; optional?: true };

type ExpectedCollection = { id: string; usedBy: string; fields: Map<string, ExpectedField>; access: Access };

/**
 * Every collection the site's config names, with the fields it reads and the access its pages
 * rely on: the public collections are read with the server's visitor token; outings collections
 * outside them are read with a member's session; reports and sign-ups are written by members.
 */
function expectedCollections(): ExpectedCollection[] {
  const byId = new Map<string, ExpectedCollection>();
  const entry = (id: string, usedBy: string, access: Access) => {
    const found = byId.get(id);
    if (found) return found;
    const created = { id, usedBy, fields: new Map<string, ExpectedField>(), access };
    byId.set(id, created);
    return created;
  };
  const expect = (collection: ExpectedCollection, key: string | undefined, types: readonly string[] | null, more: Omit<ExpectedField, "types"> = {}) => {
    if (key && !collection.fields.has(key)) collection.fields.set(key, { types, ...more });
  };
  const routeTarget = (route: string | undefined) => (route ? (collectionByRoute(route) ?? outingCollectionByRoute(route))?.collectionId : undefined);

  const named: CollectionConfig[] = [...siteCollections, ...outingCollections.filter((outing) => !siteCollections.includes(outing))];
  for (const config of named) {
    const publicPages = siteCollections.includes(config);
    const collection = entry(config.collectionId, `/${config.route}`, { read: publicPages ? "ANYONE" : "SITE_MEMBER", authorWrites: false });
    for (const field of config.fields) expect(collection, field.key, [field.type], { references: routeTarget(field.references) });
    expect(collection, config.titleField, ["TEXT"]);
    expect(collection, config.slugField, ["TEXT", "SLUG"]);
    expect(collection, config.imageField, ["IMAGE"]);
    expect(collection, config.datedBy, ["DATE", "DATETIME"]);
    // Without the field no item is members-only, and the public queries still work.
    expect(collection, config.membersOnlyField, ["BOOLEAN"], { optional: true });
    for (const search of config.searchFields) if (typeof search === "string") expect(collection, search, null);
    if (config.outing) {
      const { outing } = config;
      expect(collection, outing.startsField, ["DATETIME"]);
      expect(collection, outing.timeZoneField, ["TEXT"]);
      expect(collection, outing.capacityField, ["NUMBER"]);
      expect(collection, outing.hoursField, ["NUMBER"]);
      expect(collection, outing.placeField, ["REFERENCE"]);
      entry(outing.signupsCollectionId, `sign-ups for /${config.route}`, { read: outing.membersOnlySignups ? "SITE_MEMBER" : "ANYONE", authorWrites: true });
      if (outing.organiser) {
        // Without the field no outing has an organiser; without the roster, joining fails (it writes there first).
        expect(collection, outing.organiser.field, ["TEXT"], { optional: true });
        const roster = entry(outing.organiser.rosterCollectionId, `organisers' rosters for /${config.route}`, {
          read: "SITE_MEMBER_AUTHOR",
          authorWrites: true,
        });
        expect(roster, "name", ["TEXT"]);
      }
    }
    if (config.memberReports) {
      const reports = entry(config.memberReports.collectionId, `reports on /${config.route}`, { read: "ANYONE", authorWrites: true });
      expect(reports, config.memberReports.itemField, ["REFERENCE"], { references: config.collectionId });
    }
  }
  return [...byId.values()];
}

// ---------------------------------------------------------------------------------------------
// What the platform says.

type PlatformField = { key?: string; type?: string; typeMetadata?: Record<string, { referencedCollectionId?: string } | undefined> | null };
type Permissions = { read?: string; insert?: string; update?: string; remove?: string };

function collectionsClient(visitor: TokenPair) {
  return createClient({
    modules: { collections },
    auth: { getAuthHeaders: async () => ({ headers: { Authorization: visitor.accessToken } }) },
    fetch: platformFetch,
  });
}

function fieldProblems(expected: ExpectedCollection, fields: readonly PlatformField[]): string[] {
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const problems: string[] = [];
  for (const [key, want] of expected.fields) {
    const field = byKey.get(key);
    if (!field) {
      if (!want.optional) problems.push(`no field "${key}"${want.types ? ` (${want.types.join(" or ")})` : ""}`);
      continue;
    }
    if (want.types && !want.types.includes(field.type ?? "")) problems.push(`"${key}" is ${field.type}, the config reads it as ${want.types.join(" or ")}`);
    const target = field.typeMetadata?.reference?.referencedCollectionId ?? field.typeMetadata?.multiReference?.referencedCollectionId;
    if (want.references && target && target !== want.references) problems.push(`"${key}" references ${target}, the config expects ${want.references}`);
  }
  return problems;
}

const READERS: Record<Access["read"], string> = { ANYONE: "anyone", SITE_MEMBER: "site members", SITE_MEMBER_AUTHOR: "the item's author" };

const READ_TITLES: Record<Access["read"], string> = {
  ANYONE: "anyone may read it",
  SITE_MEMBER: "members may read it, visitors may not",
  SITE_MEMBER_AUTHOR: "each member reads only their own",
};

function accessTitle(expected: ExpectedCollection): string {
  const read = READ_TITLES[expected.access.read];
  return `${expected.id}: ${read}${expected.access.authorWrites ? "; members write, only the author updates and removes" : ""}`;
}

function accessFix(expected: ExpectedCollection): string {
  const levels = [`read: ${READERS[expected.access.read]}`];
  if (expected.access.authorWrites) levels.push("insert: site members", "update and delete: the item's author");
  const organisers = expected.access.read === "SITE_MEMBER_AUTHOR" ? " Then let each outing's organiser read every item (a special permission)." : "";
  return `Set the permissions of ${expected.id} (in the CMS, the collection's Permissions & privacy): ${levels.join("; ")}.${organisers}`;
}

/** The collection's levels against the access its pages rely on; Wix's own names in the detail. */
function permissionProblems(expected: ExpectedCollection, permissions: Permissions): string[] {
  const problems: string[] = [];
  if (permissions.read !== expected.access.read) problems.push(`read is ${permissions.read}, needs ${expected.access.read}`);
  if (expected.access.authorWrites) {
    if (!["SITE_MEMBER", "SITE_MEMBER_AUTHOR"].includes(permissions.insert ?? "")) problems.push(`insert is ${permissions.insert}, needs SITE_MEMBER`);
    for (const action of ["update", "remove"] as const) {
      if (permissions[action] !== "SITE_MEMBER_AUTHOR") problems.push(`${action} is ${permissions[action]}, needs SITE_MEMBER_AUTHOR`);
    }
  }
  return problems;
}

/**
 * Wix shows a visitor a collection's fields but not its permissions (the collections API's
 * typings, from August 2026); then what a visitor may do is tried instead. That members may
 * read, and that only authors change items, would need members of the site to try, so those
 * are left to the owner and said so.
 */
async function accessByBehaviour(expected: ExpectedCollection, visitor: TokenPair): Promise<CheckRow> {
  const title = accessTitle(expected);
  const read = await sessionClient(visitor.accessToken)
    .items.query(expected.id)
    .limit(1)
    .find()
    .then(
      () => null,
      (error: unknown) => error,
    );
  // Under the author's level a visitor is answered too, with nothing of anyone's; a refusal there means a level above members.
  if (expected.access.read !== "SITE_MEMBER" && read) return fail(title, `a visitor's read was refused: ${firstLine(read)}`, accessFix(expected));
  if (expected.access.read === "SITE_MEMBER" && !read) return fail(title, "a visitor could read it: members-only items would be public", accessFix(expected));
  const unchecked = [
    expected.access.read === "SITE_MEMBER" && "that members may read it",
    expected.access.read === "SITE_MEMBER_AUTHOR" && "that a member reads only their own",
    expected.access.authorWrites && "that only the author updates and removes",
  ];
  const left = unchecked.filter(Boolean).join(" and ");
  const seen = `a visitor's read is ${read ? "refused" : "answered"}, as it should be`;
  return left
    ? skip(title, `${seen}; the platform hides the permissions from a visitor, so check ${left} in the CMS`)
    : pass(title, "a visitor's read is answered");
}

async function collectionRows(expected: ExpectedCollection, visitor: TokenPair): Promise<CheckRow[]> {
  const title = `${expected.id} (${expected.usedBy}) exists with the fields the config reads`;
  let collection: Awaited<ReturnType<ReturnType<typeof collectionsClient>["collections"]["getDataCollection"]>>;
  try {
    collection = await collectionsClient(visitor).collections.getDataCollection(expected.id);
  } catch (error) {
    const missing = refusalOf(error)?.code === "WDE0025";
    return [
      fail(
        title,
        missing ? `there is no collection ${expected.id}` : `the platform did not show it to a visitor: ${firstLine(error)}`,
        missing
          ? `Create ${expected.id} in the CMS, or point lib/site-config at your own collection's id (npm run check:site -- --suggest).`
          : "Check the platform's answer above; the site's pages read the collection the same way.",
      ),
    ];
  }
  const problems = fieldProblems(expected, collection.fields as PlatformField[]);
  const fieldsRow = problems.length
    ? fail(
        title,
        problems.join("; "),
        `Add or change the fields in the CMS (${expected.id}), or make lib/site-config name the collection's own fields (npm run check:site -- --suggest).`,
      )
    : pass(title, expected.fields.size ? "the fields it names are there, of the types it reads" : "the config names none of its fields");
  const permissions = collection.permissions as Permissions | undefined;
  if (!permissions?.read) return [fieldsRow, await accessByBehaviour(expected, visitor)];
  const wrong = permissionProblems(expected, permissions);
  return [fieldsRow, wrong.length ? fail(accessTitle(expected), wrong.join("; "), accessFix(expected)) : pass(accessTitle(expected))];
}

/** The platform's checks, and the visitor they used when the client id was accepted. */
async function platformRows(config: SiteConfig, real: boolean): Promise<{ rows: CheckRow[]; visitor?: TokenPair }> {
  const where = config.localPlatformUrl ?? "www.wixapis.com";
  const health = await checkPlatform();
  if (!health.ok) {
    const row = fail(
      `the platform answers (${where})`,
      health.reason,
      real
        ? "Check that this machine reaches https://www.wixapis.com (a proxy, a firewall)."
        : "Start the local platform first (npm run dev, or npm run platform); LOCAL_PLATFORM_HOST and LOCAL_PLATFORM_PORT say where the site looks.",
    );
    return { rows: [row] };
  }
  const rows = [pass(`the platform answers (${where})`)];

  const clientTitle = `the client id ${config.wixClientId} is accepted (a visitor token is minted)`;
  let visitor: TokenPair;
  try {
    visitor = await grantVisitorTokens();
  } catch (error) {
    const refused = error instanceof GrantRejectedError;
    rows.push(
      fail(
        clientTitle,
        refused ? `the token endpoint refused it (${error.oauthError})` : firstLine(error),
        real
          ? "Set WIX_CLIENT_ID to the client id of your headless project's OAuth app (Wix dashboard: Settings → Headless Settings)."
          : "The local platform registers this client itself: is another server listening on LOCAL_PLATFORM_PORT?",
      ),
    );
    return { rows };
  }
  rows.push(pass(clientTitle));

  const callback = new URL(AUTH_ROUTES.callback, config.siteUrl).href;
  const redirectTitle = `the callback ${callback} is an allowed redirect URI on an allowed domain (a redirect session for it is accepted)`;
  try {
    await startAuthorization(visitor, callback, { prompt: "login" });
    rows.push(pass(redirectTitle));
  } catch (error) {
    rows.push(
      fail(
        redirectTitle,
        firstLine(error),
        real
          ? `In the OAuth app's settings, add ${config.siteUrl.origin} to the allowed domains and ${callback} to the allowed redirect URIs.`
          : `The local platform allows its own SITE_URL's callback: start it with this SITE_URL, or add ${callback} in the Studio (Settings).`,
      ),
    );
  }

  for (const expected of expectedCollections()) rows.push(...(await collectionRows(expected, visitor)));

  const membersTitle = "the members area answers (a visitor lists public members)";
  try {
    await sessionClient(visitor.accessToken).members.listMembers({ paging: { limit: 1 } });
    rows.push(pass(membersTitle));
  } catch (error) {
    rows.push(
      fail(
        membersTitle,
        firstLine(error),
        "Add the Members Area app to your Wix site (Apps → Add apps → Members Area): members, logins and profiles live there.",
      ),
    );
  }
  return { rows, visitor };
}

// ---------------------------------------------------------------------------------------------
// A starting config for collections the site does not name yet.

const SEARCHABLE = new Set(["TEXT", "RICH_TEXT", "ARRAY_STRING"]);

/** A config entry to start from, in lib/site-config's own shape, for a collection the platform shows a visitor. */
function suggestionFor(collection: { _id?: string | null; displayName?: string | null; displayField?: string | null; fields?: PlatformField[] }): string {
  const id = collection._id ?? "";
  const fields = (collection.fields ?? []).filter((field) => field.key && !field.key.startsWith("_"));
  const text = fields.filter((field) => field.type === "TEXT");
  const titleField = collection.displayField ?? text[0]?.key ?? "title";
  const slug = fields.find((field) => field.type === "SLUG") ?? text.find((field) => /slug/i.test(field.key ?? ""));
  const route = id
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .toLowerCase();
  const shown = fields.filter((field) => field.key !== titleField && field.key !== slug?.key);
  const references = (field: PlatformField) => {
    const target = field.typeMetadata?.reference?.referencedCollectionId ?? field.typeMetadata?.multiReference?.referencedCollectionId;
    const known = target ? [...siteCollections, ...outingCollections].find((c) => c.collectionId === target) : undefined;
    return target ? `, references: ${JSON.stringify(known?.route ?? target)}${known ? "" : " /* the route of its collection's entry */"}` : "";
  };
  const name = collection.displayName ?? id;
  return [
    `{`,
    `  route: ${JSON.stringify(route)},`,
    `  collectionId: ${JSON.stringify(id)},`,
    `  title: ${JSON.stringify(name)},`,
    `  singular: ${JSON.stringify(name)},`,
    `  plural: ${JSON.stringify(name.toLowerCase())},`,
    `  description: "",`,
    `  titleField: ${JSON.stringify(titleField)},`,
    slug ? `  slugField: ${JSON.stringify(slug.key)},` : `  slugField: "slug", // no slug field found: add a TEXT field with a unique, URL-safe value per item`,
    `  fields: [`,
    ...shown.map(
      (field) => `    { key: ${JSON.stringify(field.key)}, label: ${JSON.stringify(field.key)}, type: ${JSON.stringify(field.type)}${references(field)} },`,
    ),
    `  ],`,
    `  listFields: ${JSON.stringify(shown.slice(0, 4).map((field) => field.key))},`,
    `  detailFields: ${JSON.stringify(shown.map((field) => field.key))},`,
    `  searchFields: ${JSON.stringify([titleField, ...shown.filter((field) => SEARCHABLE.has(field.type ?? "")).map((field) => field.key)])},`,
    `  filters: [],`,
    `  sorts: [{ id: "name", label: "Name A–Z", field: ${JSON.stringify(titleField)}, order: "asc" }],`,
    `  pageSizes: [12],`,
    `  related: [],`,
    `},`,
  ].join("\n");
}

async function suggestions(visitor: TokenPair): Promise<string> {
  const named = new Set(expectedCollections().map((collection) => collection.id));
  const client = collectionsClient(visitor);
  const found = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.collections.listDataCollections({ paging: { limit: 100, offset } });
    const listed = page.collections ?? [];
    found.push(...listed);
    if (listed.length < 100) break;
  }
  // Wix's business apps keep collections of their own (WIX_APP); only the site's own are content to show.
  const own = found.flatMap((collection) => (collection.collectionType === "NATIVE" && collection._id && !named.has(collection._id) ? [collection._id] : []));
  if (own.length === 0) return "// Every collection of the site is named in lib/site-config already.";
  // The list's typings promise less of each collection than a get does (its fields among it): each is read whole.
  const full = await Promise.all(own.map((id) => client.collections.getDataCollection(id)));
  return [
    "// Collections the site's config does not name yet: entries to start from in lib/site-config/demo-collections.ts.",
    ...full.map((collection) => suggestionFor(collection as Parameters<typeof suggestionFor>[0])),
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------

/** The variables with rows of their own above; the site's rules for the others are reported together. */
const OWN_ROWS = ["SESSION_SECRET", "SITE_URL", "WIX_APP_ID", "WIX_APP_PUBLIC_KEY"];

export type SiteCheck = { rows: CheckRow[]; failed: boolean; suggestion?: string };

/**
 * Every check, on the site's configuration as the site reads it (process.env). The platform's
 * checks need a configuration the site would start with; a bad one skips them.
 */
export async function checkSite(options: { suggest?: boolean } = {}): Promise<SiteCheck> {
  const env = process.env;
  const real = Boolean(env.WIX_CLIENT_ID?.trim());
  const rows = [sessionSecretRow(env, real), siteUrlRow(env), ...webhookRows(env, real)];
  const parsed = siteEnvSchema.safeParse(env);
  let suggestion: string | undefined;
  if (parsed.success) {
    const platform = await platformRows(getConfig(), real);
    rows.push(...platform.rows);
    if (options.suggest) {
      suggestion = platform.visitor
        ? await suggestions(platform.visitor).catch((error: unknown) => `// No suggestion: the platform did not list the collections (${firstLine(error)}).`)
        : "// No suggestion: the platform's checks stopped before a visitor token was minted.";
    }
  } else {
    const others = parsed.error.issues.filter((issue) => !OWN_ROWS.includes(String(issue.path[0])));
    if (others.length) {
      rows.push(
        fail(
          "the other variables are valid",
          others.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; "),
          "Fix them in .env.local or the host's environment (.env.example describes each).",
        ),
      );
    }
    rows.push(skip("the platform's checks", "they need a configuration the site would start with: fix the failures above first"));
  }
  return { rows, failed: rows.some((row) => row.status === "fail"), ...(suggestion !== undefined && { suggestion }) };
}

const MARKS = { pass: "PASS", fail: "FAIL", skip: "SKIP" } as const;

function formatChecklist(rows: readonly CheckRow[]): string {
  const lines = rows.flatMap((row) => [
    `${MARKS[row.status]}  ${row.title}`,
    ...(row.detail ? [`      ${row.detail}`] : []),
    ...(row.fix ? [`      Fix: ${row.fix}`] : []),
  ]);
  const failures = rows.filter((row) => row.status === "fail").length;
  lines.push("", failures ? `${failures} check${failures > 1 ? "s" : ""} failed.` : "Every check passed.");
  return lines.join("\n");
}

async function main() {
  // The variables as `npm start` reads them: the environment first, then .env.production.local, .env.local, .env.
  nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
  const local = !process.env.WIX_CLIENT_ID?.trim();
  if (local && siteEnvSchema.safeParse(process.env).success) installLocalPlatformRouting();
  console.log(local ? "Checking the site in local mode, on the local platform.\n" : "Checking the site against Wix.\n");
  const result = await checkSite({ suggest: process.argv.includes("--suggest") });
  console.log(formatChecklist(result.rows));
  if (result.suggestion) console.log(`\n${result.suggestion}`);
  process.exitCode = result.failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
