import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import prettier from "../.prettierrc.json";

// Prettier wraps code but never splits a string or a comment, so this holds the rest of the tree
// to its width. Prose (Markdown) and generated files are left as they are.
const CHECKED = /\.(ts|tsx|mjs|js|json|css|ya?ml|sh)$|(^|\/)(Dockerfile|run)$/;
const GENERATED = new Set(["package-lock.json"]);

function trackedSourceFiles(): string[] {
  // Tracked files and new ones not yet added (but not ignored ones), so a new file is held to the width before its commit.
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" }).split("\0");
  return files.filter((file) => CHECKED.test(file) && !GENERATED.has(file.split("/").pop() ?? ""));
}

/** `file:line (length)` for every line wider than `width`. */
function linesOver(width: number, files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => text.split("\n").flatMap((line, index) => (line.length > width ? [`${path}:${index + 1} (${line.length})`] : [])));
}

describe("line width", () => {
  it("finds the lines over a width, with where they are", () => {
    const files = [{ path: "a.ts", text: `short\n${"x".repeat(11)}\n${"y".repeat(10)}` }];
    expect(linesOver(10, files)).toEqual(["a.ts:2 (11)"]);
  });

  it(`no source line in the repository is wider than Prettier's ${prettier.printWidth} columns`, () => {
    const files = trackedSourceFiles().map((path) => ({ path, text: readFileSync(path, "utf8") }));
    expect(files.length).toBeGreaterThan(100);
    expect(linesOver(prettier.printWidth, files)).toEqual([]);
  });
});
