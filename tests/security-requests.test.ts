import { describe, expect, it } from "vitest";
import { MAX_ACTION_BODY_BYTES, refuseRequest } from "@/lib/security/request-guard";

/**
 * The malformed server-action requests of issue 19 that answered 500: refused by the early
 * guard (server/serve.ts calls it before Next.js parses anything) with 413 or 400.
 */

const SITE = "http://localhost:3000";
const ACTION = "7f3a9c0d2b1e4f5a6c7d8e9f0a1b2c3d4e5f6a7b";
const post = (headers: Record<string, string>) => refuseRequest("POST", new Headers({ origin: SITE, ...headers }), SITE);

describe("server-action requests refused before Next.js parses them", () => {
  it("a declared body over Next.js's 1 MB limit (a 3 MB field) is 413, whatever its type", () => {
    const size = String(3 * 1024 * 1024);
    expect(post({ "next-action": ACTION, "content-type": "multipart/form-data; boundary=x", "content-length": size })?.status).toBe(413);
    expect(post({ "content-type": "application/x-www-form-urlencoded", "content-length": size })?.status).toBe(413);
    expect(post({ "content-type": "multipart/form-data; boundary=x", "content-length": String(MAX_ACTION_BODY_BYTES) })).toBeNull();
  });

  it("a malformed Content-Length, an action id that is no id, or an action body Next.js cannot read is 400", () => {
    expect(post({ "next-action": ACTION, "content-type": "text/plain;charset=UTF-8", "content-length": "12abc" })?.status).toBe(400);
    for (const id of ["x", "../../etc", "'; DROP", "g".repeat(40), ACTION.repeat(3)]) {
      expect(post({ "next-action": id, "content-type": "text/plain;charset=UTF-8" })?.status).toBe(400);
    }
    for (const type of ["application/json", "application/xml", "multipart/form-data", "multipart/form-data; charset=utf-8"]) {
      expect(post({ "next-action": ACTION, "content-type": type })?.status).toBe(400);
    }
  });

  it("lets well-formed action requests and ordinary form posts through", () => {
    expect(post({ "next-action": ACTION, "content-type": "text/plain;charset=UTF-8", "content-length": "40" })).toBeNull();
    expect(post({ "next-action": ACTION, "content-type": "multipart/form-data; boundary=----WebKitFormBoundaryABC" })).toBeNull();
    expect(post({ "content-type": "application/x-www-form-urlencoded", "content-length": "20" })).toBeNull();
    expect(refuseRequest("GET", new Headers({ "content-length": "99999999" }), SITE)).toBeNull();
  });
});
