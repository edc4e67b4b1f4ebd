import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { handleLogin } from "@/lib/auth/login";
import { handleLogout } from "@/lib/auth/logout";
import { isNavigation, isPrefetch } from "@/lib/auth/prefetch";

describe("prefetch requests", () => {
  it.each([
    [{ "next-router-prefetch": "1" }, true],
    [{ purpose: "prefetch" }, true],
    [{ "sec-purpose": "prefetch;prerender" }, true],
    [{ "x-middleware-prefetch": "1" }, true],
    [{ "sec-fetch-mode": "navigate", accept: "text/x-component" }, false],
    [{}, false],
  ])("%j is a prefetch: %s", (headers, expected) => expect(isPrefetch(new Headers(headers))).toBe(expected));

  it.each([
    ["a document", "GET", { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" }, true],
    ["a client-side navigation's payload", "GET", { rsc: "1", "sec-fetch-dest": "empty" }, true],
    ["a client without Fetch Metadata", "GET", {}, true],
    ["the favicon", "GET", { "sec-fetch-dest": "image", "sec-fetch-mode": "no-cors" }, false],
    ["a script", "GET", { "sec-fetch-dest": "script" }, false],
    // Next.js hides `rsc` from middleware: there a navigation's payload, or a server action's redirect, is a fetch().
    ["a client-side navigation's payload as middleware sees it", "GET", { "sec-fetch-dest": "empty", "sec-fetch-mode": "cors" }, true],
    ["a prefetched payload", "GET", { rsc: "1", "next-router-prefetch": "1" }, false],
    ["a form post", "POST", { "sec-fetch-dest": "document" }, false],
  ])("%s is a navigation: %s", (_, method, headers, expected) => expect(isNavigation(method, new Headers(headers))).toBe(expected));

  it("never start a login: no redirect, no transaction cookie", async () => {
    const response = await handleLogin(new NextRequest("http://localhost:3000/api/auth/login?returnTo=/account", { headers: { "next-router-prefetch": "1" } }));
    expect(response.status).toBe(204);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("never log out", async () => {
    const request = new NextRequest("http://localhost:3000/api/auth/logout", {
      method: "POST",
      headers: { purpose: "prefetch", origin: "http://localhost:3000", cookie: "wms_session=abc" },
    });
    const response = await handleLogout(request);
    expect(response.status).toBe(204);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("and a cross-site logout is refused", async () => {
    const response = await handleLogout(
      new NextRequest("http://localhost:3000/api/auth/logout", { method: "POST", headers: { origin: "https://evil.example" } }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});
