import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { PlatformConfig } from "./config";
import { migrateBackups } from "./data/backups";
import { migrateDraftItems } from "./data/draft-items";
import { migrateIndexes } from "./data/indexes";
import { migrateTrash } from "./data/trash";
import { migrateMovementFiles } from "./data/movement-files";
import { migrateMovementJobs } from "./data/movement-jobs";
import { migrateScheduledWorkflows } from "./data/scheduled-workflows";
import { migrateMovementLogs } from "./data/movement-logs";
import { migratePublishSchedules } from "./data/publish-schedules";
import { migrateSpecialPermissions } from "./data/special-permissions";
import { migrateData } from "./data/store";
import { migrateTasks } from "./data/tasks";
import { migrateLoginSessions } from "./identity/login-sessions";
import { migrateHostedFormStates } from "./identity/form-states";
import { migrateRecoveryTokens } from "./identity/recovery-tokens";
import { migrateIdentity } from "./identity/store";
import { migrateVerifications } from "./identity/verifications";
import { migrateFactors } from "./identity/factors";
import { migrateRecoveryCodes } from "./identity/recovery-codes";
import { migratePasskeys } from "./identity/webauthn-store";
import { migrateRememberedDevices } from "./identity/remembered-devices";
import { migrateOutbox } from "./mail/outbox";
import { migrateFollowers } from "./followers/store";
import { migrateBadges } from "./badges/store";
import { migrateCustomFields } from "./custom-fields/store";
import { migrateMemberAbouts } from "./member-abouts/store";
import { migrateMemberBlocks } from "./member-blocks/store";
import { migrateMemberReports } from "./member-reports/store";
import { migrateMemberRoles } from "./member-roles/store";
import { migrateMemberPrivacy } from "./member-privacy/store";
import { migrateMembers } from "./members/store";
import { migrateAuthCodes } from "./oauth/codes";
import { migrateOAuth } from "./oauth/store";
import { migrateRedirects } from "./redirects/store";
import type { Db, Migration } from "./types";

/** The platform's database file inside its data folder. */
export const DATABASE_FILE = "platform.db";

/** Every module's migration, in order; the server and the CLI open the database through this one list. */
const PLATFORM_MIGRATIONS: Migration[] = [
  migrateOAuth,
  migrateAuthCodes,
  migrateIdentity,
  migrateVerifications,
  migrateFactors,
  migrateRecoveryCodes,
  migratePasskeys,
  migrateRememberedDevices,
  migrateRecoveryTokens,
  migrateLoginSessions,
  migrateHostedFormStates,
  migrateMembers,
  migrateFollowers,
  migrateMemberBlocks,
  migrateMemberPrivacy,
  migrateMemberAbouts,
  migrateMemberReports,
  migrateMemberRoles,
  migrateBadges,
  migrateCustomFields,
  migrateRedirects,
  migrateData,
  migrateSpecialPermissions,
  migrateIndexes,
  migrateDraftItems,
  migrateTrash,
  migrateBackups,
  migrateTasks,
  migratePublishSchedules,
  migrateMovementJobs,
  migrateScheduledWorkflows,
  migrateMovementFiles,
  migrateMovementLogs,
  migrateOutbox,
];

function openDatabase(file: string | ":memory:", migrations: Migration[]): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  // NORMAL would already survive the process being killed (a commit is in the WAL, in the OS's
  // hands, before the reply goes out), but not a power cut or an OS crash, which could lose the
  // last commits after their replies. FULL syncs the WAL on every commit, so a write the
  // platform acknowledged is on disk (docs/platform/operations.md §4 has the cost).
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  for (const migrate of migrations) migrate(db);
  return db;
}

/** The platform's database (in memory for tests), with every module's tables in place. */
export function openPlatformDatabase(config: Pick<PlatformConfig, "dataDir" | "inMemory">): Db {
  return openDatabase(config.inMemory ? ":memory:" : databaseFile(config.dataDir), PLATFORM_MIGRATIONS);
}

const databaseFile = (dataDir: string) => path.join(dataDir, DATABASE_FILE);

/** Where `restoreDatabase` keeps the database it replaced. */
export const REPLACED_DATABASE_FILE = `${DATABASE_FILE}.before-restore`;

/**
 * A copy of the whole database (members, sessions, data, outbox) in one file, consistent even
 * while the platform runs: SQLite's online backup copies one snapshot of it.
 */
export async function snapshotDatabase(dataDir: string, target: string): Promise<void> {
  if (fs.existsSync(target)) throw new Error(`${target} exists already; name a new file.`);
  const db = openPlatformDatabase({ dataDir });
  try {
    await db.backup(target);
  } finally {
    db.close();
  }
}

/** Why a file is not a whole platform database that can be restored, or null when it is one. */
function snapshotProblem(file: string): string | null {
  if (!fs.existsSync(file)) return `${file} does not exist.`;
  let db: Db | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    if (db.pragma("integrity_check", { simple: true }) !== "ok") return `${file} is damaged (integrity check failed).`;
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name));
    return ["identities", "oauth_refresh_tokens", "data_collections", "data_items"].every((table) => tables.has(table))
      ? null
      : `${file} is not a copy of the local platform's database.`;
  } catch {
    return `${file} is not a SQLite database.`;
  } finally {
    db?.close();
  }
}

/**
 * Replaces the whole database with a copy taken by `snapshotDatabase`; the one it replaces is
 * kept as REPLACED_DATABASE_FILE. Refused while anything has the database open (a running
 * platform would go on with the old file's pages): an exclusive lock shows whether it does.
 */
export async function restoreDatabase(dataDir: string, source: string): Promise<void> {
  const problem = snapshotProblem(source);
  if (problem) throw new Error(problem);
  const file = databaseFile(dataDir);
  if (fs.existsSync(file)) {
    const current = new Database(file, { timeout: 200 });
    try {
      current.pragma("locking_mode = EXCLUSIVE");
      current.exec("BEGIN EXCLUSIVE; COMMIT");
      // Everything into the main file, so it can be set aside whole.
      current.pragma("wal_checkpoint(TRUNCATE)");
    } catch {
      throw new Error("The database is in use: stop the local platform (and any other tool using it) first.");
    } finally {
      current.close();
    }
  }
  const incoming = `${file}.restoring`;
  fs.rmSync(incoming, { force: true });
  const snapshot = new Database(source, { readonly: true });
  try {
    await snapshot.backup(incoming);
  } finally {
    snapshot.close();
  }
  if (fs.existsSync(file)) fs.renameSync(file, path.join(dataDir, REPLACED_DATABASE_FILE));
  for (const leftover of [`${file}-wal`, `${file}-shm`]) fs.rmSync(leftover, { force: true });
  fs.renameSync(incoming, file);
  // A copy from an older version gains the tables added since.
  openPlatformDatabase({ dataDir }).close();
}
