import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// madge would do this, but the platform adds no dependency for one check: TypeScript's own
// pre-processor lists a file's imports. `import type` counts too: it vanishes at run time, but a
// store that names the context's type still depends on it, and the point is a tree that reads
// one way (docs/platform/structure.md).

const root = path.resolve(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

/** The platform files a file imports, by relative path; imports of packages and of the site are outside the graph. */
function importsOf(file: string, files: Set<string>): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith("."))
    .map(({ fileName }) => {
      const target = path.resolve(path.dirname(file), fileName);
      return [`${target}.ts`, path.join(target, "index.ts")].find((candidate) => files.has(candidate));
    })
    .filter((target): target is string => target !== undefined);
}

/** Tarjan's strongly connected components: every group of files that import each other in a ring. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || graph.get(node)!.includes(node)) found.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the platform's imports", () => {
  it("form no cycle", () => {
    const files = new Set(sourceFiles(root));
    const graph = new Map([...files].map((file) => [file, importsOf(file, files)]));
    const rings = cycles(graph).map((group) => group.map((file) => path.relative(root, file)).join(", "));
    expect(rings).toEqual([]);
  });
});
