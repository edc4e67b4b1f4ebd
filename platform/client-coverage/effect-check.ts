import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { WalkedFunction } from "./walk";

/**
 * How the audit knows that a test shows a function's effect (docs/platform/client-coverage.md):
 * each answered function names a test (effects.ts), and the named test must exist and call the
 * function. What this proves, and no more: a test of that title is in that file, and its body
 * calls `.name(` (the function, through a client the test builds on the real platform), directly
 * or through a top-level helper of the same file that does, or,
 * for a webhook event, the file registers the handler through the installed client and the test
 * asserts on what that handler received. That the test's assertions are about the function's
 * effect is for the person who names the test to see to.
 */

/** A test that shows a function's effect: its file, from the repository's root, and its title as written. */
export type EffectTest = { file: string; test: string };

const REPOSITORY_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A test file's text, or null when there is no such file. */
export function readTestFile(file: string): string | null {
  try {
    return fs.readFileSync(path.join(REPOSITORY_ROOT, file), "utf8");
  } catch {
    return null;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The body of the test with this title, up to the next test or group; null when the file has no such test. */
export function testBody(source: string, title: string): string | null {
  const start = new RegExp(`(?:^|\\n)\\s*(?:it|test)(?:\\.\\w+)?\\(\\s*(["'\`])${escapeRegExp(title)}\\1`).exec(source);
  if (!start) return null;
  const from = start.index + start[0].length;
  const end = source.slice(from).search(/\n\s*(?:it|test|describe)(?:\.\w+)?\(/);
  return end < 0 ? source.slice(from) : source.slice(from, from + end);
}

/**
 * The file's top-level helpers (functions, and constants holding one) whose text holds `call`: a
 * test that calls such a helper calls the function through it.
 */
export function helpersCalling(source: string, call: string): string[] {
  const chunks = source.split(/\n(?=\S)/);
  return chunks
    .filter((chunk) => chunk.includes(call))
    .map((chunk) => /^(?:export\s+)?(?:(?:async\s+)?function\s*\*?\s*(\w+)|(?:const|let)\s+(\w+)\s*=)/.exec(chunk))
    .flatMap((match) => (match ? [match[1] ?? match[2]] : []));
}

/** Why the named test does not show the function's effect, or null when it does (as far as the check above can see). */
export function effectTestProblem(fn: WalkedFunction, effect: EffectTest, source: string | null): string | null {
  const where = `${effect.file} › "${effect.test}"`;
  if (source === null) return `${fn.key}: its effect test's file ${effect.file} does not exist`;
  const body = testBody(source, effect.test);
  if (body === null) return `${fn.key}: ${effect.file} has no test "${effect.test}"`;
  const call = `.${fn.name}(`;
  if (fn.kind !== "event") {
    const calls = body.includes(call) || helpersCalling(source, call).some((helper) => new RegExp(`\\b${helper}\\(`).test(body));
    return calls ? null : `${fn.key}: ${where} does not call ${fn.name}`;
  }
  // An event's handler is registered once per file; the test shows it by asserting on what that handler received.
  const registration = new RegExp(`\\.${escapeRegExp(fn.name)}\\(\\s*\\w+\\(\\s*"([^"]+)"\\s*\\)`).exec(source);
  if (!source.includes(call)) return `${fn.key}: ${effect.file} registers no ${fn.name} handler`;
  const seen = body.includes(fn.name) || (registration !== null && body.includes(`"${registration[1]}"`));
  return seen ? null : `${fn.key}: ${where} does not assert on what ${fn.name} received`;
}
