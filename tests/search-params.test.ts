import { describe, expect, it } from "vitest";
import { backwardRanges, directoryHref, filtersInUse, listHref, parseDirectoryState, parseListState, parsePageParam } from "@/lib/search-params";
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

describe("filters in use", () => {
  const trails = collectionByRoute("trails")!;
  const state = parseListState(trails, { q: "lake", difficulty: ["Easy", "Hard"], "distanceKm.from": "5", dogFriendly: "yes", sort: "longest" })!;

  it("name the search and each value, each with the URL that drops just it and keeps the rest in order", () => {
    expect(filtersInUse(trails, state)).toEqual([
      { label: "“lake”", removeHref: "/trails?difficulty=Easy&difficulty=Hard&distanceKm.from=5&dogFriendly=yes&sort=longest" },
      { label: "Difficulty: Easy", removeHref: "/trails?q=lake&difficulty=Hard&distanceKm.from=5&dogFriendly=yes&sort=longest" },
      { label: "Difficulty: Hard", removeHref: "/trails?q=lake&difficulty=Easy&distanceKm.from=5&dogFriendly=yes&sort=longest" },
      { label: "Distance (km): 5 or more", removeHref: "/trails?q=lake&difficulty=Easy&difficulty=Hard&dogFriendly=yes&sort=longest" },
      { label: "Dogs welcome: yes", removeHref: "/trails?q=lake&difficulty=Easy&difficulty=Hard&distanceKm.from=5&sort=longest" },
    ]);
  });

  it("drop back to the first page", () => {
    const paged = parseListState(trails, { difficulty: "Easy", page: "3" })!;
    expect(filtersInUse(trails, paged)).toEqual([{ label: "Difficulty: Easy", removeHref: "/trails" }]);
  });

  it("find ranges that end before they start", () => {
    expect(backwardRanges(trails, parseListState(trails, { "distanceKm.from": "10", "distanceKm.to": "5" })!)).toEqual(["Distance (km)"]);
    expect(backwardRanges(trails, parseListState(trails, { "distanceKm.from": "5", "distanceKm.to": "10" })!)).toEqual([]);
    const outings = collectionByRoute("outings")!;
    expect(backwardRanges(outings, parseListState(outings, { "startsAt.from": "2027-02-01", "startsAt.to": "2027-01-01" })!)).toEqual(["Date"]);
  });
});

describe("the member directory's URL", () => {
  it("reads a name and a page, and writes them back in one order", () => {
    expect(parseDirectoryState({})).toEqual({ query: "", page: 1 });
    expect(parseDirectoryState({ q: "  Ana   Lee ", page: "2" })).toEqual({ query: "Ana Lee", page: 2 });
    // One search box: a repeated name is its first value.
    expect(parseDirectoryState({ q: ["ana", "bo"] })).toEqual({ query: "ana", page: 1 });
    // Longer than the box allows: no search, as on the lists.
    expect(parseDirectoryState({ q: "x".repeat(101) })).toEqual({ query: "", page: 1 });
    expect(directoryHref({ query: "Ana Lee", page: 2 })).toBe("/members?q=Ana+Lee&page=2");
    expect(directoryHref({ query: "", page: 1 })).toBe("/members");
  });

  it("is not a page for a page number that is not one", () => {
    for (const page of ["0", "abc", ["1", "2"]]) expect(parseDirectoryState({ q: "ana", page })).toBeNull();
  });
});
