import { describe, expect, it } from "vitest";
import { listHref, parseListState, parsePageParam } from "@/lib/search-params";
import { collectionByRoute } from "@/lib/site-config";

describe("?page=", () => {
  it.each([
    [undefined, 1],
    ["1", 1],
    ["2", 2],
    ["999999", 999999],
  ])("%j reads as page %i", (value, page) => expect(parsePageParam(value)).toBe(page));

  it.each([["0"], ["-1"], ["01"], ["1.5"], ["abc"], [""], ["1e3"], ["1000000"], [" 2"], [["1", "2"]]])("%j is invalid", (value) =>
    expect(parsePageParam(value)).toBeNull(),
  );
});

describe("range bounds", () => {
  it("read -0 as 0, so the state's URL reads back as the same state", () => {
    const trails = collectionByRoute("trails")!;
    const state = parseListState(trails, { "distanceKm.from": "-0" })!;
    expect(Object.is(state.filters[0].kind === "range" && state.filters[0].from, 0)).toBe(true);
    expect(listHref(trails, state)).toBe("/trails?distanceKm.from=0");
  });
});
