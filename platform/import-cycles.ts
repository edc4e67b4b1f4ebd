import path from "node:path";
import ts from "typescript";

// The platform's import-cycle test and the site's (tests/import-cycles.test.ts) both run this, as
// the site's tests already use platform/testing.ts; it reads files and imports nothing of either.
// madge would do this, but one check adds no dependency: TypeScript's own pre-processor lists a
// file's imports and its resolver follows them as the compiler does (relative paths, index files,
// `paths` aliases such as `@/`). `import type` counts too: it vanishes at run time, but a module
// that names another's type still depends on it, and the point is a tree that reads one way.

/** A project's compiler options and files, as `tsc -p` reads its tsconfig. */
function project(tsconfig: string): ts.ParsedCommandLine {
  const { config, error } = ts.readConfigFile(tsconfig, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"));
  return ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(tsconfig));
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

/**
 * The import rings among a TypeScript project's source files (tests and declarations aside),
 * each as its files' paths from the tsconfig's folder. `roots` (folders or files, from that
 * folder) narrows the files to check; imports that lead outside them are not followed.
 */
export function importCycles(tsconfig: string, roots: string[] = ["."]): string[][] {
  const { options, fileNames } = project(tsconfig);
  const base = path.dirname(tsconfig);
  const inRoots = (file: string) => {
    const relative = path.relative(base, file);
    return roots.some((root) => root === "." || relative === root || relative.startsWith(`${root}/`));
  };
  const files = new Set(fileNames.filter((file) => /\.tsx?$/.test(file) && !/\.(test|d)\.tsx?$/.test(file) && inRoots(file)));
  const resolution = ts.createModuleResolutionCache(base, (name) => name, options);
  const importsOf = (file: string) =>
    ts
      .preProcessFile(ts.sys.readFile(file)!, true, true)
      .importedFiles.map(({ fileName }) => ts.resolveModuleName(fileName, file, options, ts.sys, resolution).resolvedModule?.resolvedFileName)
      .filter((target): target is string => target !== undefined && files.has(target));
  const graph = new Map([...files].map((file) => [file, importsOf(file)]));
  return cycles(graph).map((ring) => ring.map((file) => path.relative(base, file)));
}
