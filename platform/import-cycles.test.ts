import path from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles } from "./import-cycles";

// A tree that reads one way (docs/platform/structure.md): a store never imports the context, an
// area of the Studio never imports the list of areas.
describe("the platform's imports", () => {
  it("form no cycle, the Studio's UI included", () => {
    expect(importCycles(path.join(import.meta.dirname, "tsconfig.json"))).toEqual([]);
  });
});
