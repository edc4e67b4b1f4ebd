import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, runCli, startChildPlatform } from "./child-platform";
import { REPLACED_DATABASE_FILE, openPlatformDatabase } from "./db";
import { DataStore } from "./data/store";
import { IdentityStore } from "./identity/store";
import { Outbox } from "./mail/outbox";
import { seedDemoContent } from "./seed/seed";
import { WEBHOOK_KEY_FILE, WebhookKeys } from "./webhooks/keys";

/**
 * The platform's commands in their own process: `backup --to <file>` and `restore --from <file>`
 * (docs/platform/operations.md §5), the whole database, members included, to a file the
 * developer names and back.
 */

let dataDir: string;
let env: Record<string, string>;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-snapshot-"));
  env = { LOCAL_PLATFORM_DATA_DIR: dataDir };
  const store = new DataStore(openPlatformDatabase({ dataDir }));
  seedDemoContent(store);
  new IdentityStore(store.db).create({ email: "kept@ridgeline.example", passwordHash: "not-a-real-hash", nickname: "Kept" });
  store.db.close();
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function withDatabase<T>(read: (store: DataStore) => T): T {
  const store = new DataStore(openPlatformDatabase({ dataDir }));
  try {
    return read(store);
  } finally {
    store.db.close();
  }
}

describe("a copy of the whole database in a named file", () => {
  it("is taken with backup --to, and restore --from puts everything back, keeping the replaced file", async () => {
    const file = path.join(dataDir, "copies", "before.db");
    fs.mkdirSync(path.dirname(file));
    const backup = await runCli(["backup", "--to", file], env);
    expect([backup.code, backup.stdout]).toEqual([0, expect.stringContaining(`Copied the whole database to ${file}`)]);
    // It will not overwrite a file.
    expect((await runCli(["backup", "--to", file], env)).code).toBe(1);

    const trails = withDatabase((store) => store.countItems());
    withDatabase((store) => {
      store.deleteCollection("Trails");
      const identities = new IdentityStore(store.db);
      identities.delete(identities.findForLogin("kept@ridgeline.example")!.identity.id);
    });
    expect(withDatabase((store) => store.countItems())).toBeLessThan(trails);

    const restore = await runCli(["restore", "--from", file], env);
    expect([restore.code, restore.stdout]).toEqual([0, expect.stringContaining(`Restored the whole database from ${file}`)]);
    expect(withDatabase((store) => [store.countItems(), new IdentityStore(store.db).findForLogin("kept@ridgeline.example") !== null])).toEqual([trails, true]);
    expect(fs.existsSync(path.join(dataDir, REPLACED_DATABASE_FILE))).toBe(true);
  }, 60_000);

  it("refuses to restore what is not such a copy, or while the platform runs", async () => {
    const text = path.join(dataDir, "notes.txt");
    fs.writeFileSync(text, "not a database");
    const notDatabase = await runCli(["restore", "--from", text], env);
    expect([notDatabase.code, notDatabase.stderr]).toEqual([1, expect.stringContaining("is not a SQLite database")]);
    expect((await runCli(["restore", "--from", path.join(dataDir, "missing.db")], env)).code).toBe(1);
    expect((await runCli(["restore", "--from"], env)).code).toBe(2);

    const copy = path.join(dataDir, "running.db");
    const port = String(await freePort());
    const platform = await startChildPlatform({ ...env, LOCAL_PLATFORM_PORT: port });
    try {
      // Taking a copy while it runs is fine; putting one back is not.
      expect((await runCli(["backup", "--to", copy], env)).code).toBe(0);
      const refused = await runCli(["restore", "--from", copy], env);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining("stop the local platform")]);
    } finally {
      platform.process.kill("SIGTERM");
      await platform.exited;
    }
  }, 60_000);
});

describe("approve", () => {
  it("lets a waiting sign-up in and leaves the mail telling them so in the mailbox", async () => {
    withDatabase((store) =>
      new IdentityStore(store.db).create({ email: "waiting@ridgeline.example", passwordHash: "not-a-real-hash", nickname: "Waiting", status: "PENDING" }),
    );
    const approve = await runCli(["approve", "waiting@ridgeline.example"], env);
    expect([approve.code, approve.stdout]).toEqual([0, expect.stringContaining("Approved waiting@ridgeline.example")]);
    const mails = withDatabase((store) => new Outbox(store.db).list("waiting@ridgeline.example"));
    expect(mails).toEqual([expect.objectContaining({ kind: "approved", subject: expect.stringContaining("You can now log in") })]);
  }, 30_000);

  it("does only that: an unknown address fails without going on to take a backup", async () => {
    const approve = await runCli(["approve", "nobody@ridgeline.example"], env);
    expect([approve.code, approve.stderr]).toEqual([1, expect.stringContaining("No member has the e-mail address nobody@ridgeline.example")]);
    expect(approve.stderr).not.toContain("Taking backup");
  }, 30_000);
});

describe("require-reset", () => {
  it("clears the member's password so a login must go through a reset; an unknown address fails", async () => {
    const required = await runCli(["require-reset", "KEPT@ridgeline.example"], env);
    expect([required.code, required.stdout]).toEqual([0, expect.stringContaining("kept@ridgeline.example must set a new password")]);
    expect(withDatabase((store) => new IdentityStore(store.db).findForLogin("kept@ridgeline.example")?.passwordHash)).toBe("");
    const unknown = await runCli(["require-reset", "nobody@ridgeline.example"], env);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining("No member has the e-mail address nobody@ridgeline.example")]);
  }, 30_000);
});

/** The CLI's import, export and jobs commands: they run data-movement jobs on the platform's database file. */

const movementDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-cli-"));
afterAll(() => fs.rmSync(movementDataDir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(args, { LOCAL_PLATFORM_DATA_DIR: movementDataDir });

describe("CLI data movement", () => {
  it("imports with progress and bad rows by line, exports to stdout, and lists the jobs", { timeout: 60_000 }, async () => {
    expect((await cli("reset")).code).toBe(0);
    const file = path.join(movementDataDir, "regions.csv");
    fs.writeFileSync(file, "_id,title,slug,summary\nnorth,North,north,Cold\nbroken,Broken\nsouth,South,south,Warm\n");

    const imported = await cli("import", "Regions", file, "--mode", "OVERWRITE");
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain(`${file}:3: Invalid Record Length`);
    expect(imported.stderr).toMatch(/3 of 3 rows/);
    expect(imported.stderr).toContain("Import PARTIALLY_SUCCESSFUL (2 written, 0 skipped, 1 rejected).");

    const exported = await cli("export", "Regions", "--format", "csv");
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^_id,title,slug,summary,/);
    expect(lines.filter((line) => /^(north|south),/.test(line))).toHaveLength(2);

    const listed = await cli("jobs");
    expect(listed.stdout).toMatch(/COMPLETED .* export Regions {2}\d+\/\d+ rows, 0 rejected/);
    expect(listed.stdout).toMatch(/PARTIALLY_SUCCESSFUL .* import regions\.csv into Regions {2}3\/3 rows, 1 rejected/);
  });
});

describe("webhook-key", () => {
  it("prints the public key apps check webhooks with, made once and kept in the data folder", async () => {
    const first = await runCli(["webhook-key"], env);
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe(new WebhookKeys(dataDir).publicKeyBase64());
    expect(fs.existsSync(path.join(dataDir, WEBHOOK_KEY_FILE))).toBe(true);
    expect((await runCli(["webhook-key"], env)).stdout).toBe(first.stdout);
  });
});
