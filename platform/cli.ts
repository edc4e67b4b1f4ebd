import fs from "node:fs";
import path from "node:path";
import { LOCAL_MAILBOX_PATH, LOCAL_STUDIO_PATH, reachableUrl } from "@ridgeline/platform-contract";
import { DEFAULT_API_KEY, readPlatformConfig, type PlatformConfig } from "./config";
import { openPlatformDatabase, REPLACED_DATABASE_FILE, restoreDatabase, snapshotDatabase } from "./db";
import { backupFolder, BackupStore, type Backup, type Restoration } from "./data/backups";
import { fileUrlsFor } from "./data/file-urls";
import { formatOfName, IMPORT_MODES, type FileFormat, type ImportMode } from "./data/movement";
import { movementFolder } from "./data/movement-files";
import { isFinished, MovementJobs, type JobRequest, type MovementJob } from "./data/movement-jobs";
import { DataStore } from "./data/store";
import { taskTable } from "./data/tasks";
import { requirePasswordReset } from "./identity/iam";
import { LoginSessionStore } from "./identity/login-sessions";
import { IdentityStore } from "./identity/store";
import { Outbox } from "./mail/outbox";
import { setMemberStatus } from "./members/actions";
import { MemberStore } from "./members/store";
import { TokenStore } from "./oauth/store";
import { seedDemoContent, seedOrganiser, seedTrailReports } from "./seed/seed";
import { startPlatform } from "./server";
import type { Db } from "./types";
import { ensureStudioBundle } from "./studio/bundle";
import { WebhookKeys } from "./webhooks/keys";

/**
 * `npm run platform [-- <command>]`, or from any app `npx local-wix-platform [--port N] [--host H] [--data DIR] [<command>]`
 * (the flags stand in for LOCAL_PLATFORM_PORT, LOCAL_PLATFORM_HOST and LOCAL_PLATFORM_DATA_DIR):
 *   serve (default)                                     start the local platform
 *   import <collection> <file.csv|file.jsonl> [--mode OVERWRITE|SKIP_EXISTING|TRUNCATE_BEFORE] [--format csv|jsonl]
 *   export <collection> [file.csv|file.jsonl] [--format csv|jsonl]   (stdout without a file, JSONL by default)
 *   jobs                                                list the data-movement jobs (imports and exports)
 *   reset                                               back to the demo content
 *   approve <email>                                     approve a member waiting for the owner's approval
 *   require-reset <email>                               make a member set a new password (login answers -19973) and end their sessions
 *   backup                                              take a backup of all data (docs/platform/data.md §15)
 *   backup --to <file>                                  copy the whole database to a file (docs/platform/operations.md §5)
 *   backups                                             list the backups
 *   restore <backupId> [collection …]                  restore a backup, whole or the named collections
 *   restore --from <file>                               replace the whole database with such a copy (platform stopped)
 *   tasks                                               list the data service's background tasks (§16)
 *   webhook-key                                         print the public key apps check webhooks with (WIX_CLIENT_PUBLIC_KEY; webhooks.md)
 * Imports and exports run as data-movement jobs (§17), the same as through the API.
 */

const COMMANDS = [
  "serve",
  "import <collection> <file> [--mode OVERWRITE|SKIP_EXISTING|TRUNCATE_BEFORE] [--format csv|jsonl]",
  "export <collection> [file] [--format csv|jsonl]",
  "jobs",
  "reset",
  "approve <email>",
  "require-reset <email>",
  "backup [--to <file>]",
  "backups",
  "restore <backupId> [collection ...]",
  "restore --from <file>",
  "tasks",
  "webhook-key",
];
const USAGE = `usage: local-wix-platform [--port <number>] [--host <address>] [--data <folder>] [${COMMANDS.join(" | ")}]
(in this repository: npm run platform -- …)`;

/** Flags every command takes, each in place of the environment variable it names. */
const SETTING_FLAGS: Record<string, string> = { port: "LOCAL_PLATFORM_PORT", host: "LOCAL_PLATFORM_HOST", data: "LOCAL_PLATFORM_DATA_DIR" };
const SETTING_FLAG = new RegExp(`^--(${Object.keys(SETTING_FLAGS).join("|")})(?:=(.*))?$`, "s");

/** The settings given as flags, as environment variables, and the arguments left for the command; null when a flag has no value. */
function settingFlags(argv: string[]): { env: Record<string, string>; rest: string[] } | null {
  const env: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = SETTING_FLAG.exec(argv[i]);
    if (!flag) {
      rest.push(argv[i]);
      continue;
    }
    const value = flag[2] ?? argv[++i];
    if (value === undefined || value === "") return null;
    env[SETTING_FLAGS[flag[1]]] = value;
  }
  return { env, rest };
}

function options(args: string[]) {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith("--")) {
      const [name, inline] = args[i].slice(2).split("=", 2);
      flags[name] = inline ?? args[++i] ?? "";
    } else positional.push(args[i]);
  }
  return { positional, flags };
}

function openStore(config: PlatformConfig) {
  return new DataStore(openPlatformDatabase(config));
}

async function serve(config: PlatformConfig) {
  await ensureStudioBundle();
  const platform = await startPlatform(config);
  console.log(`Local platform listening on ${platform.url} (data in ${config.dataDir})`);
  console.log(`Studio: ${reachableUrl(config.host, config.port)}${LOCAL_STUDIO_PATH}`);
  // Where sign-up codes and reset links arrive: a newcomer's first question after registering.
  console.log(`Mailbox (e-mails and text messages sent): ${reachableUrl(config.host, config.port)}${LOCAL_MAILBOX_PATH}`);
  const webhookApps = platform.ctx.clients.webhookApps();
  if (webhookApps.length > 0) {
    console.log(`Webhooks to ${webhookApps.map((app) => `${app.id} at ${app.webhookUrl}`).join(", ")}, checked with:`);
    console.log(`WIX_CLIENT_PUBLIC_KEY=${platform.ctx.webhookKeys.publicKeyBase64()}`);
  }
  if (config.apiKey === DEFAULT_API_KEY) {
    platform.app.log.warn("The admin key is the default one: it works only from this machine. Set LOCAL_PLATFORM_API_KEY to your own.");
  }
  if (config.faults.length > 0) platform.app.log.warn({ rules: config.faults }, "fault mode is on from LOCAL_PLATFORM_FAULTS");
  const stop = async () => {
    await platform.app.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/** The format a `--format` flag or a file's extension names. */
function formatFrom(flag: string | undefined, file: string | undefined): FileFormat | undefined {
  return flag ? formatOfName(`.${flag}`) : formatOfName(file);
}

const jobsOf = (config: PlatformConfig, store: DataStore) => new MovementJobs(store, movementFolder(config.dataDir), fileUrlsFor(config));

/** Runs a data-movement job to its end, showing its progress on stderr. */
function runJob(config: PlatformConfig, jobs: MovementJobs, request: JobRequest): Promise<MovementJob> {
  return new Promise((resolve) => {
    const started = jobs.submit(request, reachableUrl(config.host, config.port), (job) => {
      const { current, total } = job.progress;
      if (job.status === "IN_PROGRESS" || (isFinished(job) && total !== null))
        process.stderr.write(`\r${current.toLocaleString("en")} of ${(total ?? 0).toLocaleString("en")} rows`);
      if (isFinished(job)) {
        process.stderr.write("\n");
        resolve(job);
      }
    });
    console.error(`Job ${started.id} started…`);
  });
}

/** Every log of a job, page by page. */
function* logsOf(jobs: MovementJobs, jobId: string) {
  for (let offset = 0; ; offset += 1000) {
    const page = jobs.logs.list(jobId, 1000, offset);
    yield* page;
    if (page.length < 1000) return;
  }
}

function runImport(config: PlatformConfig, args: string[]): Promise<number> {
  const {
    positional: [collectionId, file],
    flags,
  } = options(args);
  const mode = (flags.mode ?? "SKIP_EXISTING").toUpperCase() as ImportMode;
  const format = formatFrom(flags.format, file);
  if (!collectionId || !file || !IMPORT_MODES.includes(mode) || !format) {
    console.error(USAGE);
    return Promise.resolve(2);
  }
  return withStore(config, async (store) => {
    const jobs = jobsOf(config, store);
    const upload = jobs.files.createUpload(path.basename(file));
    await jobs.files.receiveUpload(upload.id, fs.createReadStream(file));
    const job = await runJob(config, jobs, {
      name: `import ${path.basename(file)} into ${collectionId}`,
      source: { file: { fileId: upload.id, format } },
      destination: { wixDataCollection: { collectionId, writePolicy: mode } },
    });
    let skipped = 0;
    for (const log of logsOf(jobs, job.id)) {
      if (log.failure) console.error(`${file}:${log.sourceItemId}: ${log.failure.description}`);
      else skipped++;
    }
    const { itemsSuccessful, itemsRejected } = job.progress;
    const summary = `${itemsSuccessful} written, ${skipped} skipped, ${itemsRejected} rejected`;
    if (job.status === "COMPLETED") console.log(`Imported into ${collectionId} (${mode}): ${summary}.`);
    else console.error(`Import ${job.status}${job.error ? `: ${job.error.description}` : ""} (${summary}).`);
    return job.status === "COMPLETED" ? 0 : 1;
  });
}

function runExport(config: PlatformConfig, args: string[]): Promise<number> {
  const {
    positional: [collectionId, file],
    flags,
  } = options(args);
  const format = file ? formatFrom(flags.format, file) : formatFrom(flags.format ?? "jsonl", undefined);
  if (!collectionId || !format) {
    console.error(USAGE);
    return Promise.resolve(2);
  }
  return withStore(config, async (store) => {
    const jobs = jobsOf(config, store);
    const job = await runJob(config, jobs, {
      name: `export ${collectionId}${file ? ` to ${path.basename(file)}` : ""}`,
      source: { wixDataCollection: { collectionId } },
      destination: { file: { format, fileName: file ? path.basename(file) : undefined } },
    });
    if (job.status !== "COMPLETED") {
      console.error(`Export ${job.status}${job.error ? `: ${job.error.description}` : ""}.`);
      return 1;
    }
    const exported = jobs.exportedFile(job);
    if (file) fs.copyFileSync(exported.path, file);
    else
      await new Promise<void>((resolve, reject) =>
        fs
          .createReadStream(exported.path)
          .on("end", () => resolve())
          .on("error", reject)
          .pipe(process.stdout, { end: false }),
      );
    console.error(`Exported ${job.progress.itemsSuccessful} items of ${collectionId}${file ? ` to ${file}` : ""}.`);
    return 0;
  });
}

function runListJobs(config: PlatformConfig): Promise<number> {
  return withStore(config, (store) => {
    for (const job of jobsOf(config, store).list()) {
      const what =
        job.name ??
        (job.source.file ? `import into ${job.destination.wixDataCollection?.collectionId}` : `export ${job.source.wixDataCollection?.collectionId}`);
      const { current, total, itemsRejected } = job.progress;
      console.log(`${job.id}  ${job.status.padEnd(20)} ${job.startedAt}  ${what}  ${current}/${total ?? "?"} rows, ${itemsRejected} rejected`);
    }
    return 0;
  });
}

function runReset(config: PlatformConfig): number {
  const store = openStore(config);
  try {
    store.transaction(() => {
      for (const collection of store.listCollections()) store.deleteCollection(collection.id);
      seedDemoContent(store);
      const identities = new IdentityStore(store.db);
      seedTrailReports(store, identities);
      seedOrganiser(store, identities);
    });
    console.log(`Data reset to the demo content (${store.countCollections()} collections).`);
    return 0;
  } finally {
    store.db.close();
  }
}

/** `<command> <email>` on the database file: the usage when the address is missing, a message when no member has it, the database closed after. */
function forMemberEmail(config: PlatformConfig, args: string[], work: (email: string, db: Db) => number | "unknown member"): number {
  const [email] = args;
  if (!email) {
    console.error(USAGE);
    return 2;
  }
  const db = openPlatformDatabase(config);
  try {
    const result = work(email, db);
    if (result !== "unknown member") return result;
    console.error(`No member has the e-mail address ${email}.`);
    return 1;
  } finally {
    db.close();
  }
}

/** Works on the database file directly, so a running platform sees the change (and the mailbox the message) at once. */
function runApprove(config: PlatformConfig, args: string[]): number {
  return forMemberEmail(config, args, (email, db) => {
    const identities = new IdentityStore(db);
    const found = identities.findForLogin(email);
    if (!found) return "unknown member";
    if (found.identity.status === "APPROVED") {
      console.log(`${found.identity.loginEmail} is already approved.`);
      return 0;
    }
    const stores = { outbox: new Outbox(db), config, loginSessions: new LoginSessionStore(db), tokens: new TokenStore(db, config.tokenTtlSeconds) };
    setMemberStatus(stores, new MemberStore(db, identities), found.identity.id, "APPROVED");
    console.log(`Approved ${found.identity.loginEmail}; they can log in now, and the mailbox holds the message telling them so.`);
    return 0;
  });
}

/** Works on the database file directly, like approve: a running platform refuses the old password at once. */
function runRequireReset(config: PlatformConfig, args: string[]): number {
  return forMemberEmail(config, args, (email, db) => {
    const stores = { identities: new IdentityStore(db), loginSessions: new LoginSessionStore(db), tokens: new TokenStore(db, config.tokenTtlSeconds) };
    const identity = requirePasswordReset(stores, email);
    if (!identity) return "unknown member";
    console.log(`${identity.loginEmail} must set a new password ("Forgot password?") before logging in again; their sessions have ended.`);
    return 0;
  });
}

/** Runs `work` on a store opened for it, closing the database after, even when the work fails. */
async function withStore(config: PlatformConfig, work: (store: DataStore) => Promise<number> | number): Promise<number> {
  const store = openStore(config);
  try {
    return await work(store);
  } finally {
    store.db.close();
  }
}

const backupsOf = (config: PlatformConfig, store: DataStore) => new BackupStore(store, backupFolder(config.dataDir));

/** `backup --to <file>`: the whole database, not only the data collections. */
async function runSnapshot(config: PlatformConfig, file: string): Promise<number> {
  await snapshotDatabase(config.dataDir, file);
  console.log(`Copied the whole database to ${file} (${fs.statSync(file).size.toLocaleString("en")} bytes).`);
  return 0;
}

/** `restore --from <file>`: the whole database back as it was copied. */
async function runRestoreSnapshot(config: PlatformConfig, file: string): Promise<number> {
  await restoreDatabase(config.dataDir, file);
  console.log(`Restored the whole database from ${file}; the one it replaced is ${REPLACED_DATABASE_FILE} in ${config.dataDir}.`);
  return 0;
}

function runBackup(config: PlatformConfig, args: string[]): Promise<number> {
  const { flags } = options(args);
  if (flags.to !== undefined) return flags.to ? runSnapshot(config, flags.to) : usageError();
  return withStore(config, async (store) => {
    const total = store.countItems();
    const backup = await new Promise<Backup>((resolve) => {
      const started = backupsOf(config, store).createBackup(resolve, (copied) =>
        process.stderr.write(`\rcopied ${copied.toLocaleString("en")} of ${total.toLocaleString("en")} items`),
      );
      console.error(`Taking backup ${started.id}…`);
    });
    process.stderr.write("\n");
    if (backup.status !== "READY") {
      console.error(`Backup ${backup.id} ${backup.status}.`);
      return 1;
    }
    console.log(`Backup ${backup.id} READY: ${backup.collections.length} collections, ${Number(backup.sizeInBytes).toLocaleString("en")} bytes.`);
    return 0;
  });
}

function runListBackups(config: PlatformConfig): Promise<number> {
  return withStore(config, (store) => {
    for (const backup of backupsOf(config, store).listBackups()) {
      console.log(`${backup.id}  ${backup.status.padEnd(8)} ${backup.requestedDate}  ${backup.collections.map((collection) => collection.id).join(", ")}`);
    }
    return 0;
  });
}

function usageError(): Promise<number> {
  console.error(USAGE);
  return Promise.resolve(2);
}

function runRestore(config: PlatformConfig, args: string[]): Promise<number> {
  const { positional, flags } = options(args);
  if (flags.from !== undefined) return flags.from && positional.length === 0 ? runRestoreSnapshot(config, flags.from) : usageError();
  const [backupId, ...collections] = positional;
  if (!backupId) return usageError();
  return withStore(config, async (store) => {
    const backups = backupsOf(config, store);
    const backup = backups.findBackup(backupId);
    if (backup?.status !== "READY") {
      console.error(`Backup ${backupId} ${backup ? `is ${backup.status}` : "does not exist"}; only a READY backup can be restored.`);
      return 1;
    }
    const missing = collections.filter((id) => !backup.collections.some((collection) => collection.id === id));
    if (missing.length > 0) {
      console.error(`Backup ${backupId} has no collection ${missing.join(", ")}.`);
      return 1;
    }
    console.error(`Restoring ${collections.length > 0 ? collections.join(", ") : "every collection"} from ${backupId}…`);
    const chosen = collections.length > 0 ? collections.map((dataCollectionId) => ({ dataCollectionId })) : undefined;
    const restoration = await new Promise<Restoration>((resolve) => backups.restore(backup, chosen, resolve));
    console.log(`Restoration ${restoration.id} ${restoration.status}.`);
    return restoration.status === "COMPLETED" ? 0 : 1;
  });
}

function runListTasks(config: PlatformConfig): Promise<number> {
  return withStore(config, (store) => {
    for (const task of taskTable(store.db).list()) {
      console.log(
        `${task.id}  ${task.type.padEnd(16)} ${task.status.padEnd(9)} ${task.itemsSucceeded}/${task.estimatedItemCount} done, ${task.itemsFailed} failed`,
      );
    }
    return 0;
  });
}

async function main() {
  const flags = settingFlags(process.argv.slice(2));
  if (!flags || flags.rest.includes("--help")) {
    (flags ? console.log : console.error)(USAGE);
    process.exitCode = flags ? 0 : 2;
    return;
  }
  const config = readPlatformConfig({ ...process.env, ...flags.env });
  const [command = "serve", ...args] = flags.rest;
  switch (command) {
    case "serve":
      return serve(config);
    case "import":
      process.exitCode = await runImport(config, args);
      return;
    case "export":
      process.exitCode = await runExport(config, args);
      return;
    case "jobs":
      process.exitCode = await runListJobs(config);
      return;
    case "reset":
      process.exitCode = runReset(config);
      return;
    case "approve":
      process.exitCode = runApprove(config, args);
      return;
    case "require-reset":
      process.exitCode = runRequireReset(config, args);
      return;
    case "backup":
      process.exitCode = await runBackup(config, args);
      return;
    case "backups":
      process.exitCode = await runListBackups(config);
      return;
    case "restore":
      process.exitCode = await runRestore(config, args);
      return;
    case "tasks":
      process.exitCode = await runListTasks(config);
      return;
    case "webhook-key":
      // Made now if the data folder has none yet, so an app can be configured before the platform first starts.
      console.log(new WebhookKeys(config.dataDir).publicKeyBase64());
      return;
    default:
      console.error(USAGE);
      process.exitCode = 2;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
