import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { collections, permissions } from "@wix/data";
import { siteOwnerClient, startTestPlatform, type TestPlatform } from "@/platform/testing";
import type { CheckRow, SiteCheck } from "@/scripts/check-site";

/**
 * `npm run check:site` against a real local platform, set up right and then wrong in each way
 * the platform's settings and admin API can make it. The site's configuration is the
 * environment, as in the site: each run sets it and loads the check (and lib/config) afresh.
 * The site is set up as a real one would be: its own OAuth client (LOCAL_PLATFORM_OAUTH_CLIENTS
 * here, an OAuth app on Wix), an https SITE_URL, its own secret and the webhook app's key.
 */
const SITE = "https://ridgeline.example";
const CLIENTS = [
  { id: "ridgeline-site", redirectUris: [`${SITE}/api/auth/callback`, "http://ridgeline.example/api/auth/callback"] },
  // A client whose redirect URIs do not include the site's callback (as if it had been removed).
  { id: "elsewhere-site", redirectUris: ["https://elsewhere.example/api/auth/callback"] },
];
const VARIABLES = ["WIX_CLIENT_ID", "SITE_URL", "SESSION_SECRET", "WIX_APP_ID", "WIX_APP_PUBLIC_KEY", "LOG_LEVEL"] as const;
type SiteEnv = Partial<Record<(typeof VARIABLES)[number], string>>;

let platform: TestPlatform;
let rightEnv: SiteEnv;
const owner = () => siteOwnerClient(platform.config.apiKey, { collections, permissions });

beforeAll(async () => {
  platform = await startTestPlatform({ oauthClientsJson: JSON.stringify(CLIENTS) });
  rightEnv = {
    WIX_CLIENT_ID: "ridgeline-site",
    SITE_URL: SITE,
    SESSION_SECRET: "a-site-secret-of-at-least-32-characters",
    WIX_APP_ID: "ridgeline-site",
    WIX_APP_PUBLIC_KEY: platform.ctx.webhookKeys.publicKeyBase64(),
  };
});
afterAll(() => platform.close());

/** Runs the check with exactly these site variables (the others as the tests' environment has them). */
async function runCheck(env: SiteEnv, options: { suggest?: boolean } = {}): Promise<SiteCheck> {
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of VARIABLES) {
    if (env[name] === undefined) delete process.env[name];
    else process.env[name] = env[name];
  }
  try {
    // lib/config reads the environment once per process, as the site does: a fresh copy per run.
    vi.resetModules();
    const { checkSite } = await import("@/scripts/check-site");
    return await checkSite(options);
  } finally {
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
}

const failures = (check: SiteCheck) => check.rows.filter((row) => row.status === "fail");
const titles = (rows: CheckRow[]) => rows.map((row) => row.title);

/** The check fails, on exactly one row whose title has these words, and says how to fix it. */
async function expectOneFailure(env: SiteEnv, words: string): Promise<CheckRow> {
  const check = await runCheck(env);
  expect(check.failed).toBe(true);
  expect(titles(failures(check))).toEqual([expect.stringContaining(words)]);
  const [row] = failures(check);
  expect(row.fix).toBeTruthy();
  return row;
}

describe("the site check", () => {
  it("passes a site set up right, checking the client, the callback, every named collection, its access, members and the webhook key", async () => {
    const check = await runCheck(rightEnv);
    expect(failures(check)).toEqual([]);
    expect(check.failed).toBe(false);
    const passed = titles(check.rows.filter((row) => row.status === "pass"));
    for (const words of [
      "SESSION_SECRET",
      "SITE_URL is https",
      "WIX_APP_ID, WIX_APP_PUBLIC_KEY",
      "WIX_APP_PUBLIC_KEY parses",
      "the client id ridgeline-site is accepted",
      `the callback ${SITE}/api/auth/callback is an allowed redirect URI`,
      "Trails (/trails) exists",
      "Trails: anyone may read it",
      "MembersOutings: members may read it, visitors may not",
      "TrailReports: anyone may read it; members write, only the author updates and removes",
      "MembersOutingSignups: members may read it, visitors may not; members write",
      "OutingRosters (organisers' rosters for /outings) exists",
      "OutingRosters: each member reads only their own; members write, only the author updates and removes",
      "the members area answers",
    ]) {
      expect(passed).toContainEqual(expect.stringContaining(words));
    }
    expect(check.rows.filter((row) => row.status === "skip")).toEqual([]);
  });

  it("passes the local mode, where the secret is generated and the webhook key is not needed", async () => {
    const check = await runCheck({});
    expect(failures(check)).toEqual([]);
    expect(titles(check.rows)).toContainEqual(expect.stringContaining("the client id local-site-client is accepted"));
  });

  it("fails a client id the platform does not know", async () => {
    const row = await expectOneFailure({ ...rightEnv, WIX_CLIENT_ID: "no-such-client" }, "the client id no-such-client is accepted");
    expect(row.detail).toContain("invalid_client");
  });

  it("fails a client whose redirect URIs do not include SITE_URL's callback", async () => {
    const row = await expectOneFailure({ ...rightEnv, WIX_CLIENT_ID: "elsewhere-site" }, "is an allowed redirect URI");
    expect(row.detail).toBe(`redirectUri "${SITE}/api/auth/callback" is not registered for client "elsewhere-site".`);
    expect(row.fix).toContain(`${SITE}/api/auth/callback`);
  });

  it("fails a collection that lost a field the config reads", async () => {
    const trails = await owner().collections.getDataCollection("Trails");
    const distance = trails.fields!.find((field) => field.key === "distanceKm")!;
    await owner().collections.deleteDataCollectionField("Trails", { fieldKey: "distanceKm" });
    try {
      const row = await expectOneFailure(rightEnv, "Trails (/trails) exists with the fields the config reads");
      expect(row.detail).toBe('no field "distanceKm" (NUMBER)');
    } finally {
      await owner().collections.createDataCollectionField("Trails", { field: { key: distance.key, displayName: distance.displayName, type: distance.type } });
    }
  });

  it("fails a field of another type, and a reference into another collection", async () => {
    await owner().collections.patchDataCollectionField("Journal", { key: "author", type: "NUMBER" });
    const region = { key: "region", type: "REFERENCE" as const };
    await owner().collections.patchDataCollectionField("Trails", { ...region, typeMetadata: { reference: { referencedCollectionId: "Journal" } } });
    try {
      const check = await runCheck(rightEnv);
      expect(failures(check).map((row) => [row.title, row.detail])).toEqual([
        ["Trails (/trails) exists with the fields the config reads", '"region" references Journal, the config expects Regions'],
        ["Journal (/journal) exists with the fields the config reads", '"author" is NUMBER, the config reads it as TEXT'],
      ]);
    } finally {
      await owner().collections.patchDataCollectionField("Journal", { key: "author", type: "TEXT" });
      await owner().collections.patchDataCollectionField("Trails", { ...region, typeMetadata: { reference: { referencedCollectionId: "Regions" } } });
    }
  });

  it("fails a missing collection", async () => {
    const signups = await owner().collections.getDataCollection("OutingSignups");
    await owner().collections.deleteDataCollection("OutingSignups");
    try {
      const check = await runCheck(rightEnv);
      expect(titles(failures(check))).toEqual([expect.stringContaining("OutingSignups (sign-ups for /outings) exists")]);
      expect(failures(check)[0].detail).toBe("there is no collection OutingSignups");
    } finally {
      await owner().collections.createDataCollection({
        _id: signups._id,
        displayName: signups.displayName,
        fields: signups.fields,
        permissions: signups.permissions,
      });
    }
  });

  it("fails member-written reports that any member may update, and members-only outings anyone may read", async () => {
    const levels = (itemRead: string, itemInsert: string, itemUpdate: string, itemRemove: string) =>
      ({ itemRead, itemInsert, itemUpdate, itemRemove }) as Parameters<ReturnType<typeof owner>["permissions"]["updatePermissions"]>[0];
    await owner().permissions.updatePermissions({ _id: "TrailReports", ...levels("ANYONE", "SITE_MEMBER", "SITE_MEMBER", "SITE_MEMBER_AUTHOR") });
    await owner().permissions.updatePermissions({ _id: "MembersOutings", ...levels("ANYONE", "PRIVILEGED", "PRIVILEGED", "PRIVILEGED") });
    // Rosters anyone may read would give away the names of private profiles.
    await owner().permissions.updatePermissions({
      _id: "OutingRosters",
      ...levels("ANYONE", "SITE_MEMBER_AUTHOR", "SITE_MEMBER_AUTHOR", "SITE_MEMBER_AUTHOR"),
    });
    try {
      const check = await runCheck(rightEnv);
      expect(failures(check).map((row) => [row.title, row.detail])).toEqual([
        ["TrailReports: anyone may read it; members write, only the author updates and removes", "update is SITE_MEMBER, needs SITE_MEMBER_AUTHOR"],
        ["OutingRosters: each member reads only their own; members write, only the author updates and removes", "read is ANYONE, needs SITE_MEMBER_AUTHOR"],
        ["MembersOutings: members may read it, visitors may not", "read is ANYONE, needs SITE_MEMBER"],
      ]);
      expect(failures(check)[0].fix).toContain("update and delete: the item's author");
      expect(failures(check)[1].fix).toContain("let each outing's organiser read every item (a special permission)");
    } finally {
      await owner().permissions.updatePermissions({ _id: "TrailReports", ...levels("ANYONE", "SITE_MEMBER", "SITE_MEMBER_AUTHOR", "SITE_MEMBER_AUTHOR") });
      await owner().permissions.updatePermissions({ _id: "MembersOutings", ...levels("SITE_MEMBER", "PRIVILEGED", "PRIVILEGED", "PRIVILEGED") });
      await owner().permissions.updatePermissions({
        _id: "OutingRosters",
        ...levels(...(Array(4).fill("SITE_MEMBER_AUTHOR") as [string, string, string, string])),
      });
    }
  });

  it("where a visitor is not shown the permissions (Wix since August 2026), tries a visitor's read instead and says what it cannot try", async () => {
    // Wix's answer to a visitor: the local platform's, less the permissions (the collections API's typings).
    const routed = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const response = await routed(input, init);
      if (!/\/wix-data\/v2\/collections\/[^/]+$/.test(new URL(String(input instanceof Request ? input.url : input)).pathname)) return response;
      const body = (await response.json()) as { collection?: Record<string, unknown> };
      delete body.collection?.permissions;
      return Response.json(body, { status: response.status });
    };
    try {
      const right = await runCheck(rightEnv);
      expect(failures(right)).toEqual([]);
      const byTitle = new Map(right.rows.map((row) => [row.title, row]));
      expect(byTitle.get("Trails: anyone may read it")).toMatchObject({ status: "pass", detail: "a visitor's read is answered" });
      expect(byTitle.get("MembersOutings: members may read it, visitors may not")).toMatchObject({
        status: "skip",
        detail: expect.stringContaining(
          "a visitor's read is refused, as it should be; the platform hides the permissions from a visitor, so check that members may read it",
        ),
      });
      expect(byTitle.get("TrailReports: anyone may read it; members write, only the author updates and removes")).toMatchObject({
        status: "skip",
        detail: expect.stringContaining("check that only the author updates and removes in the CMS"),
      });

      await owner().permissions.updatePermissions({
        _id: "MembersOutings",
        itemRead: "ANYONE",
        itemInsert: "PRIVILEGED",
        itemUpdate: "PRIVILEGED",
        itemRemove: "PRIVILEGED",
      });
      await owner().permissions.updatePermissions({
        _id: "Regions",
        itemRead: "SITE_MEMBER",
        itemInsert: "PRIVILEGED",
        itemUpdate: "PRIVILEGED",
        itemRemove: "PRIVILEGED",
      });
      try {
        const wrong = await runCheck(rightEnv);
        expect(failures(wrong).map((row) => [row.title, row.detail])).toEqual([
          ["Regions: anyone may read it", expect.stringContaining("a visitor's read was refused")],
          ["MembersOutings: members may read it, visitors may not", "a visitor could read it: members-only items would be public"],
        ]);
      } finally {
        for (const [_id, itemRead] of [
          ["MembersOutings", "SITE_MEMBER"],
          ["Regions", "ANYONE"],
        ] as const) {
          await owner().permissions.updatePermissions({ _id, itemRead, itemInsert: "PRIVILEGED", itemUpdate: "PRIVILEGED", itemRemove: "PRIVILEGED" });
        }
      }
    } finally {
      globalThis.fetch = routed;
    }
  });

  it("fails a short session secret, and one of several while rotating", async () => {
    expect((await expectOneFailure({ ...rightEnv, SESSION_SECRET: "too-short" }, "SESSION_SECRET")).detail).toContain("at least 32 characters");
    await expectOneFailure({ ...rightEnv, SESSION_SECRET: `${rightEnv.SESSION_SECRET},short` }, "SESSION_SECRET");
    await expectOneFailure({ ...rightEnv, SESSION_SECRET: undefined }, "SESSION_SECRET");
  });

  it("fails a plain http SITE_URL on a public host, not on localhost", async () => {
    const row = await expectOneFailure({ ...rightEnv, SITE_URL: "http://ridgeline.example" }, "SITE_URL is https");
    expect(row.detail).toContain("http://ridgeline.example is plain http on a public host");
  });

  it("fails a missing webhook app id or key", async () => {
    expect((await expectOneFailure({ ...rightEnv, WIX_APP_PUBLIC_KEY: undefined }, "WIX_APP_ID, WIX_APP_PUBLIC_KEY")).detail).toContain(
      "WIX_APP_PUBLIC_KEY is not set",
    );
    await expectOneFailure({ ...rightEnv, WIX_APP_ID: " " }, "WIX_APP_ID, WIX_APP_PUBLIC_KEY");
  });

  it("fails a webhook key that does not parse, or is not an RSA public key; takes the PEM itself too", async () => {
    const garbage = await expectOneFailure({ ...rightEnv, WIX_APP_PUBLIC_KEY: Buffer.from("not a key").toString("base64") }, "WIX_APP_PUBLIC_KEY parses");
    expect(garbage.detail).toContain("neither a PEM public key");
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ type: "spki", format: "pem" }).toString();
    expect((await expectOneFailure({ ...rightEnv, WIX_APP_PUBLIC_KEY: ec }, "WIX_APP_PUBLIC_KEY parses")).detail).toContain("an ec key");
    const privatePem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    await expectOneFailure({ ...rightEnv, WIX_APP_PUBLIC_KEY: privatePem }, "WIX_APP_PUBLIC_KEY parses");
    const check = await runCheck({ ...rightEnv, WIX_APP_PUBLIC_KEY: platform.ctx.webhookKeys.publicKeyPem() });
    expect(failures(check)).toEqual([]);
  });

  it("reports any other variable the site refuses, and skips the platform's checks, which need a configuration the site would start with", async () => {
    const check = await runCheck({ ...rightEnv, LOG_LEVEL: "loud" });
    expect(failures(check)).toEqual([
      expect.objectContaining({ title: "the other variables are valid", detail: expect.stringContaining("LOG_LEVEL must be one of") }),
    ]);
    expect(check.rows.at(-1)).toMatchObject({ status: "skip", title: "the platform's checks" });
  });

  it("suggests a config entry for a collection the config does not name, from its own fields", async () => {
    await owner().collections.createDataCollection({
      _id: "HutLog",
      displayName: "Hut log",
      displayField: "name",
      fields: [
        { key: "name", type: "TEXT" },
        { key: "slug", type: "TEXT" },
        { key: "notes", type: "RICH_TEXT" },
        { key: "beds", type: "NUMBER" },
        { key: "trail", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Trails" } } },
      ],
      permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
    });
    try {
      const { suggestion } = await runCheck(rightEnv, { suggest: true });
      expect(suggestion).toContain('collectionId: "HutLog"');
      expect(suggestion).toContain('route: "hut-log"');
      expect(suggestion).toContain('titleField: "name"');
      expect(suggestion).toContain('slugField: "slug"');
      expect(suggestion).toContain('{ key: "trail", label: "trail", type: "REFERENCE", references: "trails" }');
      expect(suggestion).toContain('searchFields: ["name","notes"]');
      // Only what the config does not name yet.
      expect(suggestion).not.toContain('collectionId: "Trails"');
    } finally {
      await owner().collections.deleteDataCollection("HutLog");
    }
  });
});

describe("npm run check:site", () => {
  // Local mode: the tests' environment without a client id.
  const localEnv = { ...process.env };
  delete localEnv.WIX_CLIENT_ID;
  const run = (env: Record<string, string>) =>
    promisify(execFile)("npm", ["run", "--silent", "check:site"], { env: { ...localEnv, ...env } }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );

  it("prints the checklist and exits 0 on the local platform it points at, 1 when none answers there", async () => {
    const port = new URL(platform.url).port;
    const up = await run({ LOCAL_PLATFORM_HOST: "127.0.0.1", LOCAL_PLATFORM_PORT: port });
    expect(up.stdout).toContain("PASS  the client id local-site-client is accepted");
    expect(up.stdout).toContain("Every check passed.");
    expect(up.code).toBe(0);
    const down = await run({ LOCAL_PLATFORM_HOST: "127.0.0.1", LOCAL_PLATFORM_PORT: "9" });
    expect(down.stdout).toContain("FAIL  the platform answers (http://127.0.0.1:9)");
    expect(down.stdout).toContain("Fix: Start the local platform first");
    expect(down.code).toBe(1);
  }, 60_000);
});
