import path from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles } from "@/platform/import-cycles";

// Pages and components call lib/, lib/wix never the components (docs/architecture.md): the
// site's own code reads one way. Its tests and scripts stand outside the graph.
const SITE_CODE = ["app", "components", "lib", "server", "middleware.ts", "instrumentation.ts"];

describe("the site's imports", () => {
  it("form no cycle", () => {
    expect(importCycles(path.resolve(import.meta.dirname, "../tsconfig.json"), SITE_CODE)).toEqual([]);
  });
});
