import { createHash } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import parseCsp from "content-security-policy-parser";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { RequestCookies } from "next/dist/compiled/@edge-runtime/cookies/index.js";
import { htmlEscapeJsonString } from "next/dist/shared/lib/htmlescape.js";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { memberInitial } from "@/lib/auth/session";
import { readSession } from "@/lib/auth/session-store";
import { announceRevalidation, noteRenderDegraded, noteRenderOwners, noteRenderPersonal, noteRenderTags } from "@/lib/cache/page-cache-signals";
import { ROUTER_PREFETCH_HEADER } from "@/lib/auth/prefetch";
import { CACHE_RENDER_HEADER, contentSecurityPolicy } from "@/lib/security/policy";
import { inlineScriptHashes } from "@/server/page-cache/page";
import { createRequestListener } from "@/server/serve";
import { aMemberSession, jarWithSession } from "./support/cookie-jar";

const policy = (hashes: string[]) => contentSecurityPolicy({ scripts: { hashes }, platformOrigins: [], https: false, development: false });
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

/** Would a browser run this inline script under this policy? CSP Level 3, for script-src as this site writes it. */
function allowsInlineScript(header: string, text: string): boolean {
  const sources = parseCsp(header).get("script-src") ?? parseCsp(header).get("default-src") ?? [];
  const hashesOrNonces = sources.some((source) => /^'(sha256|sha384|sha512|nonce)-/.test(source));
  if (sources.includes("'unsafe-inline'") && !hashesOrNonces) return true;
  return sources.includes(`'sha256-${sha256(text)}'`);
}

const BOOTSTRAP = 'self.__next_f.push([1,"0:{\\"a\\":\\"$L1\\"}\\n"])';
const document = (note: string) =>
  '<!DOCTYPE html><html><head><script src="/_next/static/chunks/main.js" async=""></script></head>' +
  `<body><p>${note}</p><script>${BOOTSTRAP}</script><script>self.__next_f.push([1,"${note}"])</script></body></html>`;

describe("the hash-based policy of a cached page", () => {
  const html = document("Trails");
  const header = policy(inlineScriptHashes(html));

  it("lets every inline script of the document run, exactly as sent", () => {
    expect(inlineScriptHashes(html)).toEqual([sha256(BOOTSTRAP), sha256('self.__next_f.push([1,"Trails"])')]);
    expect(allowsInlineScript(header, BOOTSTRAP)).toBe(true);
  });

  it("refuses a script that is not in the document, even one a byte away from it", () => {
    expect(allowsInlineScript(header, "alert(document.cookie)")).toBe(false);
    expect(allowsInlineScript(header, `${BOOTSTRAP} `)).toBe(false);
    expect(allowsInlineScript(header, BOOTSTRAP.replace("\\n", "\r\n"))).toBe(false);
  });

  it("has no 'unsafe-inline', no nonce and no 'strict-dynamic' for scripts; files only from the site", () => {
    const scriptSrc = parseCsp(header).get("script-src")!;
    expect(scriptSrc[0]).toBe("'self'");
    expect(scriptSrc.filter((source) => /unsafe-inline|nonce-|strict-dynamic/.test(source))).toEqual([]);
  });

  it("is how the old policy would fail: with 'unsafe-inline' and no hash any injected script runs", () => {
    expect(allowsInlineScript("script-src 'self' 'unsafe-inline'", "alert(1)")).toBe(true);
  });
});

type Handle = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

describe("the production server with its page cache", () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  /** A stand-in for Next.js: counts renders, notes tags as the site's reads do, and shows which headers it saw. */
  async function site(
    render: (request: IncomingMessage, response: ServerResponse, count: number) => void | Promise<void> = (request, response, count) => {
      noteRenderTags(["wix:collection:Trails"]);
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.setHeader("cache-control", "private, no-cache, no-store, max-age=0, must-revalidate");
      response.end(document(`render ${count} ${request.headers[CACHE_RENDER_HEADER] ?? "plain"}`));
    },
    options: { memberTemplates?: boolean } = {},
  ) {
    const seen: IncomingMessage[] = [];
    const handle: Handle = async (request, response) => {
      seen.push(request);
      await render(request, response, seen.length);
    };
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const listener = createRequestListener(handle, {
      log,
      siteOrigin: "http://localhost:3000",
      https: false,
      maxConcurrentRequests: 2,
      pageCache: { maxBytes: 1_000_000, freshSeconds: 60, staleSeconds: 60, personalFreshSeconds: 30, policy, memberTemplates: options.memberTemplates },
      actions: { ids: new Set(), formActionIds: new Set() },
    });
    const server = http.createServer(listener);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .request(`${base}${path}`, { method, headers }, (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject)
          .end();
      });
    return { get, seen, lines, listener };
  }

  it("renders a visitor's page once, without a nonce, then answers from memory with the page's own policy", async () => {
    const { get, seen } = await site();
    const [first, second] = [await get("/trails"), await get("/trails")];
    expect(seen).toHaveLength(1);
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(second.body.toString()).toBe(first.body.toString());
    expect(first.body.toString()).toContain("render 1 1");
    const header = second.headers["content-security-policy"] as string;
    expect(allowsInlineScript(header, BOOTSTRAP)).toBe(true);
    expect(allowsInlineScript(header, "alert(1)")).toBe(false);
    expect(second.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    expect(second.headers["set-cookie"]).toBeUndefined();
    expect(second.headers.vary).toMatch(/Accept-Encoding, Cookie/);
  });

  it("answers 304 to a matching If-None-Match, compressed bodies to those who ask, and HEAD without a body", async () => {
    const { get } = await site();
    const { headers, body } = await get("/trails");
    expect((await get("/trails", { "if-none-match": headers.etag as string })).status).toBe(304);
    expect((await get("/trails", { "if-none-match": '"something-else"' })).status).toBe(200);
    const gzipped = await get("/trails", { "accept-encoding": "gzip" });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzipped.body).equals(body)).toBe(true);
    const brotli = await get("/trails", { "accept-encoding": "gzip, br" });
    expect(zlib.brotliDecompressSync(brotli.body).equals(body)).toBe(true);
    const head = await get("/trails", {}, "HEAD");
    expect(head.body.length).toBe(0);
    expect(Number(head.headers["content-length"])).toBe(body.length);
  });

  it("answers members from one render made for nobody, each with their own name; personal renders, authors and notices go to Next.js", async () => {
    /**
     * A stand-in page that shows the session's member as React and Next.js would, reads with their
     * tokens on /members/x and shows an author's report on /trails/a.
     */
    const { get, seen } = await site(
      async (request, response) => {
        const session = await readSession(new RequestCookies(new Headers({ cookie: request.headers.cookie ?? "" })));
        const name = session?.member?.name ?? "Log in";
        if (request.url?.startsWith("/members/")) noteRenderPersonal();
        if (request.url?.startsWith("/trails/a")) noteRenderOwners(["author-1"]);
        const payload = `1:{"name":${JSON.stringify(name)},"initial":${JSON.stringify(session?.member ? memberInitial(session.member) : "")}}\n`;
        response.setHeader("content-type", "text/html; charset=utf-8");
        response.end(
          `<!DOCTYPE html><html><body>${renderToStaticMarkup(createElement("span", { title: name }, name))}<script>${BOOTSTRAP}</script>` +
            `<script>self.__next_f.push(${htmlEscapeJsonString(JSON.stringify([1, payload]))})</script></body></html>`,
        );
      },
      { memberTemplates: true },
    );
    const cookieOf = async (id: string, name: string) => (await jarWithSession({ ...aMemberSession(), member: { id, name } })).header();
    const dana = await cookieOf("member-1", "Dana");
    const rowan = await cookieOf("member-2", `Ro "wan" </script><b>&`);

    const first = await get("/trails", { cookie: dana });
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(first.body.toString()).toContain('<span title="Dana">Dana</span>');
    expect(first.body.toString()).toContain('\\"name\\":\\"Dana\\",\\"initial\\":\\"D\\"');
    expect(first.headers["cache-control"]).toBe("private, no-store");
    // The render was the server's own, without a nonce, for a member who is neither of them.
    expect(seen).toHaveLength(1);
    expect(seen[0].headers[CACHE_RENDER_HEADER]).toBe("1");
    expect(seen[0].headers.cookie).not.toBe(dana);
    const second = await get("/trails", { cookie: rowan });
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(seen).toHaveLength(1);
    const html = second.body.toString();
    expect(html).toContain('<span title="Ro &quot;wan&quot; &lt;/script&gt;&lt;b&gt;&amp;">Ro &quot;wan&quot; &lt;/script&gt;&lt;b&gt;&amp;</span>');
    expect(html).not.toContain("Dana");
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, text]) => text);
    expect(scripts).toHaveLength(2);
    for (const script of scripts) expect(allowsInlineScript(second.headers["content-security-policy"] as string, script)).toBe(true);

    // A render that read with the member's tokens is not kept, nor tried again soon: Next.js answers each member.
    expect((await get("/members/x", { cookie: dana })).headers["x-cache"]).toBe("BYPASS");
    expect((await get("/members/x", { cookie: rowan })).headers["x-cache"]).toBe("BYPASS");
    expect(seen.map((request) => request.url)).toEqual(["/trails", "/members/x", "/members/x", "/members/x"]);
    // The author of a report shown gets the page from Next.js; anyone else the template.
    expect((await get("/trails/a", { cookie: await cookieOf("author-1", "Alex") })).headers["x-cache"]).toBe("BYPASS");
    expect((await get("/trails/a", { cookie: dana })).headers["x-cache"]).toBe("HIT");
    expect((await get("/trails", { cookie: `${dana}; wms_notice=logged-in` })).headers["x-cache"]).toBe("BYPASS");
  });

  it("keeps a member's own pages for their cookies alone, drops them when they send a form, and keeps no page shown once", async () => {
    const { get, seen } = await site(
      async (request, response, count) => {
        const session = await readSession(new RequestCookies(new Headers({ cookie: request.headers.cookie ?? "" })));
        noteRenderPersonal();
        response.setHeader("content-type", "text/html; charset=utf-8");
        response.end(document(`${session?.member?.name ?? "nobody"} at ${request.url} render ${count}`));
      },
      { memberTemplates: true },
    );
    const cookieOf = async (id: string, name: string) => (await jarWithSession({ ...aMemberSession(), member: { id, name } })).header();
    const [dana, rowan] = [await cookieOf("member-1", "Dana"), await cookieOf("member-2", "Rowan")];

    const first = await get("/account", { cookie: dana });
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(first.body.toString()).toContain("Dana at /account render 1");
    expect(seen[0].headers.cookie).toBe(dana);
    expect(seen[0].headers[CACHE_RENDER_HEADER]).toBe("1");
    const again = await get("/account", { cookie: dana, "accept-encoding": "gzip" });
    expect(again.headers["x-cache"]).toBe("HIT");
    expect(zlib.gunzipSync(again.body).toString()).toBe(first.body.toString());
    expect(again.headers["cache-control"]).toBe("private, no-store");
    const header = again.headers["content-security-policy"] as string;
    expect(allowsInlineScript(header, BOOTSTRAP)).toBe(true);
    expect(allowsInlineScript(header, "alert(1)")).toBe(false);

    // Another member, or the same member's cookies with one more (another browser state), gets a render of their own.
    expect((await get("/account", { cookie: rowan })).body.toString()).toContain("Rowan at /account render 2");
    expect((await get("/account", { cookie: `${dana}; wms_ask_first=app` })).headers["x-cache"]).toBe("MISS");
    expect((await get("/outings/family-creek-walk", { cookie: dana })).body.toString()).toContain("Dana at /outings/family-creek-walk");
    expect((await get("/outings/family-creek-walk", { cookie: dana })).headers["x-cache"]).toBe("HIT");
    expect(seen).toHaveLength(4);

    // Dana sends a form: her pages go, Rowan's stay.
    await get("/account", { cookie: dana, "content-type": "application/x-www-form-urlencoded", "content-length": "0" }, "POST");
    const afterForm = await get("/account", { cookie: dana });
    expect(afterForm.headers["x-cache"]).toBe("MISS");
    expect((await get("/outings/family-creek-walk", { cookie: dana })).headers["x-cache"]).toBe("MISS");
    expect((await get("/account", { cookie: rowan })).headers["x-cache"]).toBe("HIT");

    // Data anyone reads changed: every member's own pages go, since their reads name no tag.
    announceRevalidation(["wix:collection:Outings"]);
    expect((await get("/account", { cookie: rowan })).headers["x-cache"]).toBe("MISS");

    // Pages shown once (the recovery codes), a query, a visitor and a notice waiting: Next.js answers each time.
    for (const [path, cookie] of [
      ["/account/recovery-codes", dana],
      ["/account?x=1", dana],
      ["/account", `${dana}; wms_notice=logged-in`],
    ]) {
      expect((await get(path, { cookie })).headers["x-cache"]).toBe("BYPASS");
      expect((await get(path, { cookie })).headers["x-cache"]).toBe("BYPASS");
    }
    expect((await get("/account")).headers["x-cache"]).toBe("BYPASS");
  });

  it("never answers a member from the cache, and never lets a client ask for a render without a nonce", async () => {
    const { get, seen } = await site();
    await get("/trails");
    const member = await get("/trails", { cookie: "wms_session=sealed", [CACHE_RENDER_HEADER]: "1" });
    expect(member.headers["x-cache"]).toBe("BYPASS");
    expect(member.body.toString()).toContain("render 2 plain");
    expect(seen[1].headers[CACHE_RENDER_HEADER]).toBeUndefined();
    const forged = await get("/account", { [CACHE_RENDER_HEADER]: "1" });
    expect(forged.body.toString()).toContain("plain");
  });

  it("names the App Router's prefetches to middleware, which cannot see Next.js's own headers; a client cannot name one itself", async () => {
    const { get, seen } = await site();
    const member = { cookie: "wms_session=sealed" };
    await get("/trails", { ...member, "next-router-prefetch": "1" });
    await get("/trails", { ...member, "next-router-segment-prefetch": "/_tree" });
    await get("/trails", { ...member, [ROUTER_PREFETCH_HEADER]: "1" });
    expect(seen.map((request) => request.headers[ROUTER_PREFETCH_HEADER])).toEqual(["1", "1", undefined]);
  });

  it("redirects a query the page does not understand to its canonical URL without rendering", async () => {
    const { get, seen } = await site();
    const redirect = await get("/trails?q=lake&utm_source=newsletter");
    expect(redirect.status).toBe(307);
    expect(redirect.headers.location).toBe("/trails?q=lake");
    expect(seen).toHaveLength(0);
  });

  it("drops a page when its data is revalidated, and the next view renders it again", async () => {
    const { get, seen } = await site();
    await get("/trails");
    announceRevalidation(["wix:collection:Journal"]);
    expect((await get("/trails")).headers["x-cache"]).toBe("HIT");
    announceRevalidation(["wix:collection:Trails"]);
    const after = await get("/trails");
    expect(after.headers["x-cache"]).toBe("MISS");
    expect(seen).toHaveLength(2);
  });

  it("shows a degraded page or one that sets a cookie to those who waited, and keeps neither", async () => {
    let degraded = true;
    const { get, seen } = await site((_request, response, count) => {
      if (degraded) noteRenderDegraded();
      else response.setHeader("set-cookie", "x=1");
      response.setHeader("content-type", "text/html");
      response.end(document(`render ${count}`));
    });
    const shown = await get("/journal");
    expect(shown.status).toBe(200);
    expect(shown.headers["cache-control"]).toMatch(/no-store/);
    expect((await get("/journal")).headers["x-cache"]).toBe("MISS");
    expect(seen).toHaveLength(2);
    degraded = false;
    const withCookie = await get("/journal");
    // The cache's render set a cookie: the request was answered by its own render, which carries it.
    expect(withCookie.headers["x-cache"]).toBe("BYPASS");
    expect(withCookie.headers["set-cookie"]).toEqual(["x=1"]);
  });

  it("logs how the cache answered, and each render with the tags it read", async () => {
    const { get, lines } = await site();
    await get("/trails");
    await get("/trails");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.filter((line) => line.msg === "request").map((line) => line.cache)).toEqual(["MISS", "HIT"]);
    expect(lines.find((line) => line.msg === "page cache render")).toMatchObject({
      render: "/trails",
      status: 200,
      kept: true,
      tags: ["wix:collection:Trails"],
    });
  });
});
