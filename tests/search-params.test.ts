import { describe, expect, it } from "vitest";
import { parsePageParam } from "@/lib/search-params";

describe("?page=", () => {
  it.each([
    [undefined, 1],
    ["1", 1],
    ["2", 2],
    ["999999", 999999],
  ])("%j reads as page %i", (value, page) => expect(parsePageParam(value)).toBe(page));

  it.each([["0"], ["-1"], ["01"], ["1.5"], ["abc"], [""], ["1e3"], ["1000000"], [" 2"], [["1", "2"]]])("%j is invalid", (value) =>
    expect(parsePageParam(value)).toBeNull());
});
