import fs from "node:fs";
import path from "node:path";
import { readPlatformConfig, type PlatformConfig } from "./config";
import { openDatabase } from "./db";
import { exportItems, formatOf, importItems, type ImportMode } from "./data/movement";
import { DataStore, migrateData } from "./data/store";
import { migrateOAuth } from "./oauth/store";
import { seedDemoContent } from "./seed/seed";
import { startPlatform } from "./server";

/**
 * `npm run platform [-- <command>]`:
 *   serve (default)                                     start the local platform
 *   import <collection> <file.csv|file.jsonl> [--mode OVERWRITE|SKIP_EXISTING|TRUNCATE_BEFORE] [--format csv|jsonl]
 *   export <collection> [file.csv|file.jsonl] [--format csv|jsonl]   (stdout without a file, JSONL by default)
 *   reset                                               back to the demo content
 */

const USAGE = `usage: npm run platform -- [serve | import <collection> <file> [--mode OVERWRITE|SKIP_EXISTING|TRUNCATE_BEFORE] | export <collection> [file] [--format csv|jsonl] | reset]`;
const MODES: ImportMode[] = ["OVERWRITE", "SKIP_EXISTING", "TRUNCATE_BEFORE"];

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
  return new DataStore(openDatabase(path.join(config.dataDir, "platform.db"), [migrateOAuth, migrateData]));
}

async function serve(config: PlatformConfig) {
  const platform = await startPlatform(config);
  console.log(`Local platform listening on ${platform.url} (data in ${config.dataDir})`);
  const stop = async () => {
    await platform.app.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

function runImport(config: PlatformConfig, args: string[]): number {
  const { positional: [collectionId, file], flags } = options(args);
  const mode = (flags.mode ?? "SKIP_EXISTING").toUpperCase() as ImportMode;
  if (!collectionId || !file || !MODES.includes(mode)) {
    console.error(USAGE);
    return 2;
  }
  const store = openStore(config);
  try {
    const report = importItems(store, collectionId, fs.readFileSync(file, "utf8"), formatOf(file, flags.format), mode);
    if (report.badRows.length > 0) {
      for (const bad of report.badRows) console.error(`${file}:${bad.line}: ${bad.message}`);
      console.error(`Import refused: ${report.badRows.length} bad row(s); nothing was changed.`);
      return 1;
    }
    console.log(`Imported into ${collectionId} (${mode}): ${report.inserted} inserted, ${report.updated} updated, ${report.skipped} skipped.`);
    return 0;
  } finally {
    store.db.close();
  }
}

function runExport(config: PlatformConfig, args: string[]): number {
  const { positional: [collectionId, file], flags } = options(args);
  if (!collectionId) {
    console.error(USAGE);
    return 2;
  }
  const store = openStore(config);
  try {
    const text = exportItems(store, collectionId, file ? formatOf(file, flags.format) : formatOf("", flags.format ?? "jsonl"));
    if (file) fs.writeFileSync(file, text);
    else process.stdout.write(text);
    return 0;
  } finally {
    store.db.close();
  }
}

function runReset(config: PlatformConfig): number {
  const store = openStore(config);
  try {
    store.transaction(() => {
      for (const collection of store.listCollections()) store.deleteCollection(collection.id);
      seedDemoContent(store.db);
    });
    console.log(`Data reset to the demo content (${store.countCollections()} collections).`);
    return 0;
  } finally {
    store.db.close();
  }
}

async function main() {
  const config = readPlatformConfig();
  const [command = "serve", ...args] = process.argv.slice(2);
  switch (command) {
    case "serve":
      return serve(config);
    case "import":
      process.exitCode = runImport(config, args);
      return;
    case "export":
      process.exitCode = runExport(config, args);
      return;
    case "reset":
      process.exitCode = runReset(config);
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
