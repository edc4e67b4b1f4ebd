import { describe, expect, it } from "vitest";
import { refererPath, safeReturnTo } from "@/lib/auth/return-to";

const origin = "http://localhost:3000";

describe("returnTo", () => {
  it.each([
    ["/account", "/account"],
    ["/trails?page=2", "/trails?page=2"],
    ["/trails?page=2#top", "/trails?page=2#top"],
    ["/a/../account", "/account"],
    ["/%2e%2e/account", "/account"],
  ])("keeps the same-origin path %s", (input, expected) => expect(safeReturnTo(input, origin)).toBe(expected));

  it.each([
    [undefined],
    [""],
    ["account"],
    ["//evil.example"],
    ["//evil.example/path"],
    ["/\\evil.example"],
    ["\\/evil.example"],
    ["/\\/evil.example"],
    ["https://evil.example"],
    ["http://localhost:3000.evil.example/"],
    ["javascript:alert(1)"],
    ["data:text/html,hi"],
    ["/\tevil.example"],
    ["/%09/evil.example".replace("%09", "\t")],
    ["/\nSet-Cookie: x=y"],
    ["/\r\nLocation: https://evil.example"],
    ["/\u0000"],
    [" /account"],
    ["@evil.example"],
    [".evil.example"],
    ["/" + "a".repeat(3000)],
    ["/..//evil.example"],
  ])("falls back to / for %j", (input) => expect(safeReturnTo(input, origin)).toBe("/"));

  it("never leaves the origin, whatever the input", () => {
    const payloads = ["//", "/\\", "\\\\", "/%2F/evil", "/%5C/evil", "/.evil", "/@evil", "/ｅvil", "/〱evil", "/..//evil", "///evil", "/\u3000/evil"];
    for (const payload of payloads) {
      const result = safeReturnTo(payload, origin);
      expect(new URL(result, origin).origin).toBe(origin);
      expect(result.startsWith("/")).toBe(true);
      expect(result.startsWith("//")).toBe(false);
    }
  });
});

describe("the page a Referer names", () => {
  it.each([
    ["http://localhost:3000/login", "/login"],
    ["http://localhost:3000/trails/summit-loop?reports=2", "/trails/summit-loop?reports=2"],
    ["http://localhost:3000/", "/"],
  ])("is the path of %s on this site", (referer, expected) => expect(refererPath(referer, origin)).toBe(expected));

  it.each([
    [null],
    [""],
    ["not a url"],
    ["https://evil.example/login"],
    ["http://localhost:3001/login"],
    ["https://localhost:3000/login"],
    ["javascript:alert(1)"],
  ])("is home for %j", (referer) => expect(refererPath(referer, origin)).toBe("/"));
});
