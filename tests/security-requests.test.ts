import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { MAX_ACTION_BODY_BYTES, refuseRequest } from "@/lib/security/request-guard";
import { createRequestListener } from "@/server/serve";

/**
 * Malformed server-action requests that Next.js answers with a 500: refused by the server
 * (server/serve.ts, lib/security/request-guard.ts) with 413 or 400 before Next.js parses them.
 * The arguments React cannot decode are tested case by case in tests/action-reply.test.ts.
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

describe("server-action requests checked by the server before Next.js parses them", () => {
  const KNOWN = "40d1c3e5f7a9b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8";
  const boundary = "----formBoundary7MA4YWxk";
  const multipart = (fields: Record<string, string>, end = true) =>
    Buffer.from(
      Object.entries(fields)
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join("") + (end ? `--${boundary}--\r\n` : ""),
    );
  const form = { "content-type": `multipart/form-data; boundary=${boundary}`, origin: SITE, host: "localhost:3000" };
  const call = { "content-type": "text/plain;charset=UTF-8", origin: SITE, host: "localhost:3000", "next-action": KNOWN };

  /** The production server's listener in front of a stand-in for Next.js that echoes what it gets. */
  async function site() {
    const received: string[] = [];
    const listener = createRequestListener(
      async (request, response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        received.push(`${request.method} ${request.url} ${Buffer.concat(chunks).toString()}`);
        response.end(`handled, referer ${request.headers.referer}`);
      },
      {
        log: pino({ level: "silent" }),
        siteOrigin: SITE,
        https: false,
        maxConcurrentRequests: 0,
        pageCache: null,
        actions: { ids: new Set([KNOWN]), formActionIds: new Set() },
      },
    );
    const server = http.createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    /** A POST whose body goes out in chunks, without Content-Length. */
    const post = (path: string, headers: Record<string, string>, body: Buffer) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const outgoing = http.request({ host: "127.0.0.1", port, path, method: "POST", headers }, (response) => {
          let text = "";
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, text }));
        });
        outgoing.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
        for (let offset = 0; offset < body.length; offset += 65_536) outgoing.write(body.subarray(offset, offset + 65_536));
        outgoing.end();
      });
    return { post, received, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it("a 3 MB field sent without a length is 413, not Next.js's 500", async () => {
    const { post, received, close } = await site();
    try {
      const answer = await post("/account", { ...form, "next-action": KNOWN }, multipart({ bio: "x".repeat(3 * 1024 * 1024) }));
      expect(answer.status).toBe(413);
      expect(received).toEqual([]);
    } finally {
      await close();
    }
  });

  it.each<[string, Record<string, string>, Buffer]>([
    ["arguments that are not JSON", call, Buffer.from('["$K1",{"a":')],
    ["arguments naming a part the body lacks", call, Buffer.from('["$Q1"]')],
    ["cut-short multipart", { ...form, "next-action": KNOWN }, multipart({ title: "Frost" }, false)],
    ["multipart whose boundary is not the declared one", { ...form, "content-type": "multipart/form-data; boundary=other" }, multipart({ email: "a" })],
    ["a form naming its action by something that is no id", form, multipart({ $ACTION_ID_bogus: "", email: "a@b.c" })],
    ["a form's bound action that is not JSON", form, multipart({ $ACTION_REF_1: "", "$ACTION_1:0": "{not json" })],
    ["a form's bound arguments missing", form, multipart({ $ACTION_REF_1: "", "$ACTION_1:0": `{"id":"${KNOWN}","bound":"$@1"}` })],
    ["a call addressed to another host", { ...call, host: "evil.example" }, Buffer.from("[]")],
    ["a call forwarded for another host", { ...call, "x-forwarded-host": "evil.example" }, Buffer.from("[]")],
  ])("%s is 400, and Next.js never sees it", async (_, headers, body) => {
    const { post, received, close } = await site();
    try {
      expect((await post("/trails/summit-loop", headers, body)).status).toBe(400);
      expect(received).toEqual([]);
    } finally {
      await close();
    }
  });

  it("a path that does not decode is 400, and Next.js never sees it", async () => {
    const { post, received, close } = await site();
    try {
      expect((await post("/trails/%E0%A4%A", call, Buffer.from("[]"))).status).toBe(400);
      expect((await post("/trails/%zz?page=2", form, multipart({ email: "a" }))).status).toBe(400);
      expect(received).toEqual([]);
    } finally {
      await close();
    }
  });

  it("a no-JavaScript form naming an action this build lacks gets the page-updated page instead, with 409", async () => {
    const { post, received, close } = await site();
    try {
      const stale = { ...form, referer: `${SITE}/login?returnTo=%2Faccount` };
      const answer = await post("/login", stale, multipart({ [`$ACTION_ID_${"ab".repeat(21)}`]: "", email: "a@b.c" }));
      expect(answer).toEqual({ status: 409, text: `handled, referer ${SITE}/login?returnTo=%2Faccount` });
      const bound = multipart({ $ACTION_REF_1: "", "$ACTION_1:0": `{"id":"${"cd".repeat(21)}","bound":null}` });
      expect((await post("/trails/summit-loop", stale, bound)).status).toBe(409);
      expect(received).toEqual(["GET /page-updated ", "GET /page-updated "]);
    } finally {
      await close();
    }
  });

  it("hands well-formed actions and forms to Next.js with their bodies as sent", async () => {
    const { post, received, close } = await site();
    try {
      const args = Buffer.from('["$K1"]');
      expect((await post("/trails/summit-loop", call, args)).status).toBe(200);
      const noScript = multipart({ [`$ACTION_ID_${KNOWN}`]: "", email: "dana@example.com" });
      expect((await post("/login", form, noScript)).status).toBe(200);
      // A script's call to an action this build lacks is Next.js's to answer: its 409 tells the client the action is gone.
      expect((await post("/login", { ...call, "next-action": "cd".repeat(21) }, args)).status).toBe(200);
      expect(received).toEqual([`POST /trails/summit-loop ${args}`, `POST /login ${noScript}`, `POST /login ${args}`]);
    } finally {
      await close();
    }
  });
});
