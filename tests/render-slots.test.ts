import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { SLOT_HEADER } from "@/server/serve";
import { startServerEntry } from "./support/server-entry";

/**
 * A request that needs a second render while it holds a slot never waits for one
 * (docs/security.md, "Requests made on behalf of another"): the production server's listener
 * with its queue of 8, in front of a stand-in for Next.js that, as Next.js does for a server
 * action posted to a page that lacks it and for an action's redirect within the site, asks this
 * same server for another page over HTTP with the request's headers, and waits for the answer.
 */

const SITE = "http://localhost:3000";
/** Not copied onto Next.js's own requests (`actionsForbiddenHeaders`), or set anew by fetch. */
const NOT_COPIED = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

type Answer = { status: number | "no answer"; ms: number };

describe("render slots", () => {
  const closers: Array<() => void> = [];
  afterEach(() => closers.splice(0).forEach((close) => close()));

  async function site() {
    const seen: Array<{ url: string; token: string | undefined }> = [];
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let port = 0;
    const handle = async (request: IncomingMessage, response: ServerResponse) => {
      const token = request.headers[SLOT_HEADER];
      seen.push({ url: request.url!, token: typeof token === "string" ? token : undefined });
      if (request.url === "/held") await held;
      if (request.url === "/action") {
        const headers = Object.entries(request.headers).filter(([name, value]) => !NOT_COPIED.has(name) && typeof value === "string");
        const inner = await fetch(`http://127.0.0.1:${port}/next-page`, { headers: Object.fromEntries(headers) as Record<string, string> });
        response.end(`action, then ${await inner.text()}`);
        return;
      }
      response.end(`page ${request.url}`);
    };
    const started = await startServerEntry(handle, { siteOrigin: SITE });
    const server = started.server;
    port = started.port;
    closers.push(() => {
      release();
      server.closeAllConnections();
      server.close();
    });

    /** A GET that gives up after `patienceMs`. */
    const get = (path: string, headers: Record<string, string> = {}, patienceMs = 3000) =>
      new Promise<Answer & { text: string }>((resolve) => {
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
    return { get, seen, release };
  }

  it.each([8, 16, 64])("%i requests that each need another page while in their slot are all answered, and so is a page", async (burst) => {
    const { get } = await site();
    const answers = await Promise.all([...Array.from({ length: burst }, () => get("/action")), get("/account")]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(burst + 1).fill(200));
    expect(answers[0].text).toBe("action, then page /next-page");
    for (const answer of answers) expect(answer.ms).toBeLessThan(2000);
  });

  it("a token a client sends, made up or of a request that has ended, names no slot: its request waits its turn", async () => {
    const { get, seen, release } = await site();
    expect((await get("/first")).status).toBe(200);
    const ended = seen[0].token!;
    expect(ended).toMatch(/^[\w-]{22}$/);
    const held = Array.from({ length: 8 }, () => get("/held", {}, 5000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const live = seen.filter((request) => request.url === "/held").map((request) => request.token);
    expect(new Set(live).size).toBe(8);

    const waiting = [get("/made-up", { [SLOT_HEADER]: "made-up" }), get("/ended", { [SLOT_HEADER]: ended })];
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.map((request) => request.url)).not.toContain("/made-up");
    expect(seen.map((request) => request.url)).not.toContain("/ended");
    // A request on behalf of one in its slot (here, one that shows its token) is answered at once.
    expect(await get("/on-behalf", { [SLOT_HEADER]: live[0]! })).toMatchObject({ status: 200, text: "page /on-behalf" });

    release();
    const answers = await Promise.all([...held, ...waiting]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    // Each got a slot, and a token, of its own: none kept the one it sent.
    const tokens = seen.filter((request) => request.url === "/made-up" || request.url === "/ended").map((request) => request.token);
    expect(tokens).not.toContain("made-up");
    expect(tokens).not.toContain(ended);
  });
});
