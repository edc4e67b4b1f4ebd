import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

/**
 * The Studio's browser code: one script and one style sheet, bundled from `ui/` with React and
 * everything else it uses, so the Studio works offline and its CSP can allow only its own files.
 */

const UI_FOLDER = path.join(import.meta.dirname, "ui");
export const STUDIO_BUNDLE_FOLDER = path.join(import.meta.dirname, "dist");
export const STUDIO_ASSETS = { script: "studio.js", styles: "studio.css" } as const;

function newestSource(folder: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function bundleTime(): number {
  try {
    return Math.min(...Object.values(STUDIO_ASSETS).map((file) => fs.statSync(path.join(STUDIO_BUNDLE_FOLDER, file)).mtimeMs));
  } catch {
    return 0;
  }
}

export async function buildStudioBundle(): Promise<void> {
  await build({
    entryPoints: { studio: path.join(UI_FOLDER, "main.tsx") },
    outdir: STUDIO_BUNDLE_FOLDER,
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2022",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    legalComments: "none",
    logLevel: "warning",
  });
}

/** Builds the bundle when it is missing or older than its sources: `npm run build` makes it, and a developer's edits are picked up at the next start. */
export async function ensureStudioBundle(): Promise<void> {
  if (bundleTime() < newestSource(UI_FOLDER)) await buildStudioBundle();
}

// `tsx studio/bundle.ts`: the package's build step.
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await buildStudioBundle();
