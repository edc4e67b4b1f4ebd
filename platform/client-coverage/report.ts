import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startTestPlatform } from "../testing";
import { coverageOf, coverageProblems, type CoverageRow } from "./coverage";
import { renderCoverage } from "./render";
import { installedVersion, samplePath, WALKED_PACKAGES, walkClients } from "./walk";

/**
 * The audit of the installed clients against a real platform (in memory), and its page:
 * `npx tsx platform/client-coverage/report.ts` prints what is unexplained, `--write` rewrites
 * docs/platform/client-coverage.md. Install another version of a client first to check it.
 */

export const COVERAGE_DOC = fileURLToPath(new URL("../../docs/platform/client-coverage.md", import.meta.url));

export async function auditClients(): Promise<{ rows: CoverageRow[]; problems: string[]; markdown: string; versions: Array<[string, string]> }> {
  const walked = await walkClients();
  const platform = await startTestPlatform();
  try {
    const rows = coverageOf(walked, (method, requestPath) => platform.app.findRoute({ method: method as "GET", url: samplePath(requestPath) }) !== null);
    const versions = WALKED_PACKAGES.map((name): [string, string] => [name, installedVersion(name)]);
    return { rows, problems: coverageProblems(rows), markdown: renderCoverage(rows, versions), versions };
  } finally {
    await platform.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { problems, markdown } = await auditClients();
  if (process.argv.includes("--write")) fs.writeFileSync(COVERAGE_DOC, markdown);
  for (const problem of problems) console.error(problem);
  console.log(problems.length === 0 ? "Every installed function is answered or has a reason." : `${problems.length} problems.`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
