import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { noteRenderTags } from "@/lib/cache/page-cache-signals";
import { createRequestListener, createSiteServer, type ServeOptions } from "@/server/serve";

/**
 * Slow and idle clients never hold a render slot (docs/security.md, "Slow clients"): the
 * production server's listener in front of a stand-in for Next.js that reads each body as a
 * route handler does, with the default queue of 8 renders and the page cache on.
 */

const SITE = "http://localhost:3000";

type Answer = { status: number | "no answer"; ms: number; text: string };

describe("requests with slow bodies", () => {
  const closers: Array<() => void> = [];
  afterEach(() => closers.splice(0).forEach((close) => close()));

  async function site(options: Partial<ServeOptions> = {}) {
    const handled: string[] = [];
    const lines: Array<{ level: number; msg: string }> = [];
    const handle = async (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      handled.push(`${request.method} ${request.url} ${Buffer.concat(chunks).toString()}`);
      noteRenderTags(["wix:collection:Trails"]);
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.end(`<p>${request.url}</p>`);
    };
    const listener = createRequestListener(handle, {
      log: pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
      siteOrigin: SITE,
      https: false,
      maxConcurrentRequests: 8,
      pageCache: { maxBytes: 1_000_000, freshSeconds: 60, staleSeconds: 60, policy: () => "default-src 'self'" },
      actions: { ids: new Set(), formActionIds: new Set() },
      ...options,
    });
    const server = http.createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const sockets = new Set<net.Socket>();
    closers.push(() => {
      sockets.forEach((socket) => socket.destroy());
      server.closeAllConnections();
      server.close();
    });

    /** A raw connection that sends `head` and then `body` one byte every `everyMs` (0: at once); it records what the server answers. */
    const trickle = (head: string, body: string, everyMs: number) => {
      const socket = net.connect(port, "127.0.0.1");
      sockets.add(socket);
      const state = { socket, answer: "", closed: false };
      socket.on("data", (chunk) => (state.answer += chunk.toString()));
      socket.on("error", () => undefined);
      socket.on("close", () => (state.closed = true));
      socket.write(head);
      if (everyMs === 0) {
        socket.write(body);
        return state;
      }
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= body.length || socket.destroyed) return clearInterval(timer);
        socket.write(body[sent++]);
      }, everyMs);
      socket.on("close", () => clearInterval(timer));
      return state;
    };

    /** A GET that gives up after `patienceMs`. */
    const get = (path: string, headers: Record<string, string> = {}, patienceMs = 3000) =>
      new Promise<Answer>((resolve) => {
        const started = performance.now();
        const ms = () => Math.round(performance.now() - started);
        const outgoing = http.get({ host: "127.0.0.1", port, path, headers, agent: false, timeout: patienceMs }, (response) => {
          let text = "";
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, ms: ms(), text }));
        });
        outgoing.on("timeout", () => outgoing.destroy());
        outgoing.on("error", () => resolve({ status: "no answer", ms: ms(), text: "" }));
      });
    return { trickle, get, handled, lines };
  }

  /** A webhook call whose 1,000-byte body comes one byte every 100 ms. */
  const slowWebhookCall = (trickle: Awaited<ReturnType<typeof site>>["trickle"]) =>
    trickle(`POST /api/webhooks/wix HTTP/1.1\r\nHost: localhost:3000\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`, "x".repeat(1000), 100);

  it.each([8, 150])("%i slow bodies leave an uncached page and /account answering in under a second", async (connections) => {
    const { trickle, get, handled } = await site();
    const slow = Array.from({ length: connections }, () => slowWebhookCall(trickle));
    // Every slow request is in, headers read and body under way.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [page, account, member] = await Promise.all([get("/trails/summit-loop"), get("/account"), get("/members", { cookie: "wms_session=sealed" })]);
    for (const answer of [page, account, member]) {
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(1000);
    }
    expect(page.text).toContain("/trails/summit-loop");
    expect(handled.filter((line) => line.startsWith("POST"))).toEqual([]);
    expect(slow.every((state) => !state.closed)).toBe(true);
  });

  it("are answered 408 once their time is up, and closed; Next.js never sees them", async () => {
    const { trickle, get, handled } = await site({ bodyTimeoutMs: 300 });
    const slow = slowWebhookCall(trickle);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(slow.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow.answer).toMatch(/connection: close/i);
    expect(slow.closed).toBe(true);
    expect((await get("/account")).status).toBe(200);
    expect(handled).toEqual(["GET /account "]);
  });

  it("a body over the limit is 413, a whole one reaches the route handler, and a client that leaves mid-body is no error", async () => {
    const { trickle, handled, lines } = await site();
    const webhook = (head: string) => `POST /api/webhooks/wix HTTP/1.1\r\nHost: localhost:3000\r\n${head}\r\n`;
    const chunked = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;
    const large = trickle(webhook("Transfer-Encoding: chunked\r\n"), "", 0);
    large.socket.write(chunked("x".repeat(2 * 1024 * 1024)));
    const whole = trickle(webhook("Content-Length: 13\r\n"), '{"members":1}', 0);
    const leaving = trickle(webhook("Content-Length: 1000\r\n"), "xyz", 0);
    setTimeout(() => leaving.socket.destroy(), 100);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(large.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(large.closed).toBe(true);
    expect(whole.answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(handled).toEqual(['POST /api/webhooks/wix {"members":1}']);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe("the production server's deadlines on what clients send", () => {
  const listener = createRequestListener(async (_, response) => void response.end("ok"), {
    log: pino({ level: "silent" }),
    siteOrigin: SITE,
    https: false,
    maxConcurrentRequests: 8,
    pageCache: null,
    actions: { ids: new Set(), formActionIds: new Set() },
  });

  it("are seconds, not Node's minutes", () => {
    const server = createSiteServer(listener);
    expect(server.headersTimeout).toBeLessThanOrEqual(10_000);
    expect(server.requestTimeout).toBeLessThanOrEqual(15_000);
    expect(server.keepAliveTimeout).toBeLessThanOrEqual(5_000);
  });

  it("cut headers that come too slowly (408) and close an idle keep-alive connection", async () => {
    const server = createSiteServer(listener, { headersTimeout: 400, requestTimeout: 400, keepAliveTimeout: 300, connectionsCheckingInterval: 100 });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const connect = () => {
      const socket = net.connect(port, "127.0.0.1");
      const state = { socket, answer: "", closed: false };
      socket.on("data", (chunk) => (state.answer += chunk.toString()));
      socket.on("close", () => (state.closed = true));
      return state;
    };
    try {
      const slowHeaders = connect();
      const head = "GET /trails HTTP/1.1\r\nHost: localhost:3000\r\nX-Padding: " + "x".repeat(100);
      let sent = 0;
      const timer = setInterval(() => (sent < head.length && !slowHeaders.closed ? slowHeaders.socket.write(head[sent++]) : clearInterval(timer)), 50);
      const idle = connect();
      idle.socket.write("GET /trails HTTP/1.1\r\nHost: localhost:3000\r\n\r\n");
      // Node gives an idle connection a second more than its keep-alive timeout before it closes it.
      await new Promise((resolve) => setTimeout(resolve, 1600));
      clearInterval(timer);
      expect(slowHeaders.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(slowHeaders.closed).toBe(true);
      expect(idle.answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(idle.closed).toBe(true);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
