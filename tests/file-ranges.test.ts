import fs from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerEntry } from "./support/server-entry";

/**
 * A Range a file cannot satisfy is answered by the server, 416 with the file's size, before
 * Next.js (whose `send` refuses it with an error Next.js turns into a 500; the production build's
 * answers: e2e/hardening.spec.ts). Files in a folder laid out as Next.js serves them, and a
 * stand-in for Next.js that records what reaches it.
 */

describe("a Range on a file", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "file-ranges-"));
  const reached: Array<{ url: string; range: string | undefined }> = [];
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    fs.mkdirSync(path.join(dir, "public", "media"), { recursive: true });
    fs.mkdirSync(path.join(dir, ".next", "static", "chunks"), { recursive: true });
    fs.writeFileSync(path.join(dir, "public", "media", "ridge.jpg"), "0123456789");
    fs.writeFileSync(path.join(dir, ".next", "static", "chunks", "app.js"), "x".repeat(100));
    fs.writeFileSync(path.join(dir, "secret.txt"), "outside the served folders");
    const handle = async (request: IncomingMessage, response: ServerResponse) => {
      reached.push({ url: request.url!, range: request.headers.range });
      response.end("from Next.js");
    };
    ({ server, port } = await startServerEntry(handle, { dir }));
  });
  afterAll(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      reached.length = 0;
      http
        .get({ host: "127.0.0.1", port, path: url, headers, agent: false }, (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers }));
        })
        .on("error", reject);
    });

  it.each([
    ["/media/ridge.jpg", "bytes=10-", 10],
    ["/media/ridge.jpg", "bytes=20-30", 10],
    ["/media/ridge.jpg", "bytes=5-2", 10],
    ["/_next/static/chunks/app.js", "bytes=100-", 100],
    ["/_next/static/chunks/app.js", " bytes=abc", 100],
  ])("%s with %s: 416 with the file's size, never reaching Next.js", async (url, range, size) => {
    const answer = await get(url, { range });
    expect(answer.status).toBe(416);
    expect(answer.headers["content-range"]).toBe(`bytes */${size}`);
    expect(reached).toEqual([]);
  });

  it.each([
    ["a range it can satisfy", "/media/ridge.jpg", { range: "bytes=0-3" }, "bytes=0-3"],
    ["another unit than bytes", "/media/ridge.jpg", { range: "items=5-2" }, "items=5-2"],
    ["a file that is not there", "/media/none.jpg", { range: "bytes=5-2" }, "bytes=5-2"],
    ["a path out of the served folder", "/media/..%2F..%2Fsecret.txt", { range: "bytes=500-" }, "bytes=500-"],
    ["a page", "/trails", { range: "bytes=5-2" }, "bytes=5-2"],
  ])("%s is left to Next.js as it came", async (_, url, headers, range) => {
    expect((await get(url, headers)).status).toBe(200);
    expect(reached).toEqual([{ url, range }]);
  });

  it.each(["if-range", "if-none-match", "if-modified-since"])(
    "with %s, a range it cannot satisfy is dropped: Next.js decides, on the whole file",
    async (name) => {
      expect((await get("/media/ridge.jpg", { range: "bytes=5-2", [name]: '"an-etag"' })).status).toBe(200);
      expect(reached).toEqual([{ url: "/media/ridge.jpg", range: undefined }]);
    },
  );
});
