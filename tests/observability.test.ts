import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger, loggablePath, requestLogger } from "@/lib/observability/log";
import { currentRequestContext, runInRequestContext, type RequestContext } from "@/lib/observability/request-context";
import { clientAddress } from "@/lib/security/client-address";
import { publicRead } from "@/lib/wix/client";
import { createRequestListener } from "@/server/serve";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

/** A logger whose lines land in an array, parsed. */
function capturedLogger(level: "info" | "debug" = "info") {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      raw.push(String(chunk));
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: createLogger(level, destination), lines, raw };
}

describe("loggable paths", () => {
  it("keep the query's names, never its values", () => {
    expect(loggablePath("/api/auth/callback?code=abc123&state=xyz")).toBe("/api/auth/callback?code&state");
    expect(loggablePath("/trails?q=ridge&region=alps&region=jura&page=2")).toBe("/trails?q&region&page");
    expect(loggablePath("/reset?email%20address=dana%40example.com")).toBe("/reset?email address");
    expect(loggablePath("/trails")).toBe("/trails");
    expect(loggablePath("/trails?")).toBe("/trails");
    expect(loggablePath("/x?%E0%A4%A=1")).toBe("/x?%E0%A4%A");
  });
});

describe("the logger", () => {
  it("redacts credentials wherever they sit, a few levels deep", () => {
    const { log, raw, lines } = capturedLogger();
    log.info(
      {
        password: "hunter2-password",
        headers: { authorization: "Bearer OAT.secret-access", cookie: "wms_session=Fe26.2**sealed", "set-cookie": "wms_session=Fe26.2**other" },
        grant: { code: "auth-code-123", state: "state-456", codeVerifier: "verifier-789", refresh_token: "ORT.refresh" },
        deep: { deeper: { token: "deep-token", sessionToken: "session-token" } },
        visible: "kept",
      },
      "attempt",
    );
    const text = raw.join("");
    for (const secret of [
      "hunter2-password",
      "OAT.secret-access",
      "Fe26.2",
      "auth-code-123",
      "state-456",
      "verifier-789",
      "ORT.refresh",
      "deep-token",
      "session-token",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({ visible: "kept", level: "info", msg: "attempt", password: "[redacted]" });
  });
});

describe("the request log", () => {
  it("writes a request line without the redaction's cost: a few microseconds, not a tenth of a millisecond", () => {
    const { log, lines } = capturedLogger();
    const write = requestLogger(log);
    const line = { method: "GET", path: "/trails/arch-spur", status: 200, durationMs: 1.5, platformRequestIds: [], cache: "HIT" };
    for (let i = 0; i < 500; i++) write("info", line);
    const before = process.cpuUsage();
    for (let i = 0; i < 2000; i++) write("info", line);
    const spent = process.cpuUsage(before);
    expect(lines.at(-1)).toMatchObject({ ...line, level: "info", msg: "request", service: "site" });
    // Redacting it cost about 110 µs a line on the 2-core bench machine, the line itself about 3 (the capture's JSON.parse included here).
    expect((spent.user + spent.system) / 2000).toBeLessThan(40);
  });
});

describe("the request context", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("collects the request ids of the platform calls made while serving a request, and only those", async () => {
    const context: RequestContext = { socketAddress: "203.0.113.9", platformRequestIds: [] };
    await runInRequestContext(context, () => publicRead((client) => client.items.query("Regions").limit(1).find({ consistentRead: true })));
    expect(context.platformRequestIds.length).toBeGreaterThan(0);
    for (const id of context.platformRequestIds) expect(id).toMatch(/^[\w-]{8,}$/);
    expect(currentRequestContext()).toBeUndefined();
  });
});

describe("the server entry's request listener", () => {
  type Handle = Parameters<typeof createRequestListener>[0];
  async function serve(handle: Handle, options: { https?: boolean; maxConcurrentRequests?: number } = {}) {
    const { log, lines, raw } = capturedLogger("debug");
    const server = http.createServer(
      createRequestListener(handle, {
        log,
        siteOrigin: "http://localhost:3000",
        https: options.https ?? false,
        maxConcurrentRequests: options.maxConcurrentRequests ?? 0,
        pageCache: null,
        actions: { ids: new Set(), formActionIds: new Set() },
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { base, lines, raw, close: () => new Promise((resolve) => server.close(resolve)) };
  }
  /** node:http, since fetch refuses TRACE. */
  function request(url: string, init: { method?: string; headers?: Record<string, string> } = {}) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const outgoing = http.request(url, { method: init.method ?? "GET", headers: init.headers }, (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      });
      outgoing.on("error", reject);
      outgoing.end();
    });
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  it("writes one line per request: method, path without query values, status, duration, platform ids", async () => {
    const site = await serve(async (_request, response) => {
      currentRequestContext()!.platformRequestIds.push("req-1", "req-2");
      response.statusCode = 302;
      response.end();
    });
    await request(`${site.base}/api/auth/callback?code=secret-code&state=secret-state`, {
      headers: { cookie: "wms_session=Fe26.2**secret-cookie", authorization: "Bearer secret-token" },
    });
    await settle();
    await site.close();
    expect(site.lines).toHaveLength(1);
    expect(site.lines[0]).toMatchObject({
      msg: "request",
      method: "GET",
      path: "/api/auth/callback?code&state",
      status: 302,
      platformRequestIds: ["req-1", "req-2"],
    });
    expect(site.lines[0].durationMs).toEqual(expect.any(Number));
    expect(site.raw.join("")).not.toMatch(/secret-code|secret-state|secret-cookie|secret-token/);
  });

  it("gives the site the socket's address, whatever X-Forwarded-For says", async () => {
    const site = await serve(async (request, response) => {
      response.end(clientAddress(new Headers(request.headers as Record<string, string>)));
    });
    const answer = await request(`${site.base}/`, { headers: { "x-forwarded-for": "198.51.100.1" } });
    await site.close();
    expect(answer.body).toBe("127.0.0.1");
  });

  it("refuses TRACE and an unreadable router state before Next.js sees them, with 4xx and the security headers", async () => {
    let reached = 0;
    const site = await serve(async (_request, response) => {
      reached++;
      response.end("page");
    });
    const trace = await request(`${site.base}/`, { method: "TRACE" });
    const routerState = await request(`${site.base}/trails`, { headers: { rsc: "1", "next-router-state-tree": "{not json" } });
    const fine = await request(`${site.base}/trails`);
    await settle();
    await site.close();
    expect(trace).toMatchObject({ status: 405, headers: { allow: "GET, HEAD, POST, OPTIONS", "x-content-type-options": "nosniff" } });
    expect(routerState.status).toBe(400);
    expect(fine.body).toBe("page");
    expect(reached).toBe(1);
    expect(site.lines.map((line) => line.status)).toEqual([405, 400, 200]);
  });

  it("with a concurrency limit, lets that many requests in at once, the rest in arrival order; files and health checks never wait", async () => {
    let pagesInFlight = 0;
    let mostPagesInFlight = 0;
    const started: string[] = [];
    const site = await serve(
      async (request, response) => {
        started.push(request.url!);
        if (request.url!.startsWith("/page")) {
          pagesInFlight++;
          mostPagesInFlight = Math.max(mostPagesInFlight, pagesInFlight);
          await new Promise((resolve) => setTimeout(resolve, 150));
          pagesInFlight--;
        }
        response.end(request.url);
      },
      { maxConcurrentRequests: 2 },
    );
    // Sent a little apart, so their order of arrival is the order they were sent in.
    const pages: Array<ReturnType<typeof request>> = [];
    for (const path of ["/page-1", "/page-2", "/page-3", "/page-4", "/page-5"]) {
      pages.push(request(`${site.base}${path}`));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const file = await request(`${site.base}/_next/static/chunks/app.js`);
    const health = await request(`${site.base}/api/health`);
    const answers = await Promise.all(pages);
    await site.close();
    expect(answers.map((answer) => answer.body)).toEqual(["/page-1", "/page-2", "/page-3", "/page-4", "/page-5"]);
    expect(file.body).toBe("/_next/static/chunks/app.js");
    expect(health.body).toBe("/api/health");
    // The file and the health check went in while the first two pages were still rendering.
    expect(started.indexOf("/_next/static/chunks/app.js")).toBeLessThan(started.indexOf("/page-3"));
    expect(started.filter((url) => url.startsWith("/page"))).toEqual(["/page-1", "/page-2", "/page-3", "/page-4", "/page-5"]);
    expect(mostPagesInFlight).toBe(2);
  });

  it("frees a request's place when its client goes, even if Next.js never settles it", async () => {
    const handled: string[] = [];
    const site = await serve(
      async (request, response) => {
        handled.push(request.url!);
        if (request.url === "/stuck") return new Promise<void>(() => {});
        response.end("ok");
      },
      { maxConcurrentRequests: 1 },
    );
    const stuck = http.get(`${site.base}/stuck`);
    stuck.on("error", () => {});
    await vi.waitFor(() => expect(handled).toEqual(["/stuck"]));
    stuck.destroy();
    const next = await request(`${site.base}/next`);
    await site.close();
    expect(next.body).toBe("ok");
    expect(handled).toEqual(["/stuck", "/next"]);
  });

  it("never handles a queued request whose client has gone", async () => {
    const handled: string[] = [];
    const site = await serve(
      async (request, response) => {
        handled.push(request.url!);
        await new Promise((resolve) => setTimeout(resolve, 300));
        response.end();
      },
      { maxConcurrentRequests: 1 },
    );
    const first = request(`${site.base}/first`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const gone = http.get(`${site.base}/gone`);
    gone.on("error", () => {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    gone.destroy();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await site.close();
    expect(handled).toEqual(["/first"]);
  });

  it("adds HSTS when the site is on https, and not otherwise", async () => {
    const handle: Handle = async (_request, response) => void response.end();
    const secure = await serve(handle, { https: true });
    const plain = await serve(handle);
    const [withHsts, without] = await Promise.all([request(`${secure.base}/`), request(`${plain.base}/`)]);
    await Promise.all([secure.close(), plain.close()]);
    expect(withHsts.headers["strict-transport-security"]).toMatch(/^max-age=\d{8}; includeSubDomains$/);
    expect(without.headers["strict-transport-security"]).toBeUndefined();
  });

  it("makes every response that sets a cookie private and not stored, whatever the handler said", async () => {
    const site = await serve(async (request, response) => {
      // What Next.js does for a server action, which can set the session cookie.
      response.setHeader("cache-control", "no-cache, no-store, max-age=0, must-revalidate");
      if (request.url === "/sets") response.setHeader("set-cookie", "wms_session=x; Path=/; HttpOnly");
      response.end();
    });
    const [sets, plain] = await Promise.all([request(`${site.base}/sets`), request(`${site.base}/plain`)]);
    await site.close();
    expect(sets.headers["cache-control"]).toBe("private, no-store");
    expect(plain.headers["cache-control"]).toBe("no-cache, no-store, max-age=0, must-revalidate");
  });

  it("logs health checks only at debug level, and a failing handler as a 500 with an error line", async () => {
    const site = await serve(async (request, response) => {
      if (request.url === "/boom") throw new Error("kaput");
      response.end();
    });
    await request(`${site.base}/api/health`);
    await settle();
    const boom = await request(`${site.base}/boom`);
    await settle();
    await site.close();
    expect(boom.status).toBe(500);
    expect(site.lines.map((line) => [line.msg, line.level, line.path])).toEqual([
      ["request", "debug", "/api/health"],
      ["request handler failed", "error", undefined],
      ["request", "error", "/boom"],
    ]);
  });
});
