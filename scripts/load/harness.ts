// The load harness `npm run bench` and `npm run soak` share: a production build of the site in
// local mode on its own ports with a fresh platform database, a member signed in through the
// hosted login whose session cookie is kept as a browser keeps it, autocannon runs, the server
// process's CPU time, and the platform's own request counter (docs/performance.md).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type Request as LoadRequest } from "autocannon";
import { SESSION_COOKIE } from "../../lib/auth/cookie-names";
import { AUTH_ROUTES, loginHref } from "../../lib/auth/routes";
import { DEFAULT_API_KEY } from "../../platform/config";
import { ensureBuild, startProductionSite } from "../production-site";

export const LOAD_DEFAULTS = {
  sitePort: Number(process.env.LOAD_SITE_PORT ?? 3200),
  platformPort: Number(process.env.LOAD_PLATFORM_PORT ?? 4210),
  /** The data folder under .data/. */
  name: "load",
};

/** The demo member the local platform seeds (README). */
const DEMO_MEMBER = { email: "demo@ridgeline.example", password: "ridgeline-demo" };

export type Stack = {
  siteUrl: string;
  platformUrl: string;
  /** A signed-in member's session cookie, as their browser keeps it. */
  member: MemberCookie;
  /** Every platform request so far, as the platform counts them. */
  platformCalls(): Promise<number>;
  /** Resident memory of the Next.js server process, in MiB. */
  siteRssMiB(): number;
  /** CPU time (user and system) the Next.js server process has used so far, in ms. */
  siteCpuMs(): number;
  /** Requests the server has logged so far: answered, or abandoned by a client that left. */
  requestsServed(): number;
  /** Waits until the server has finished the requests under way (its CPU time stops growing). */
  settle(): Promise<void>;
  /** How many times the page cache has rendered each URL so far. */
  renders: Map<string, number>;
  stop(): Promise<void>;
};

function rssMiB(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("VmRSS:"));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

/** Clock ticks a second, in which /proc counts CPU time (USER_HZ: 100 on Linux). */
const CLOCK_TICKS = 100;

function cpuMs(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the command's closing parenthesis.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * A member's session cookie, sent alone (as a browser sends it to the site, with no cookie of the
 * hosted login's) and replaced whenever the site re-seals it (a renewal, the last view recorded
 * every 5 minutes), as a browser does: a bench that ignored Set-Cookie would, 5 minutes after
 * the login, have every view re-sealed. Shared by all of a run's connections, like one browser's tabs.
 */
export class MemberCookie {
  /** Answers that set the cookie anew, since the sign-in. */
  resealed = 0;
  /** Whether the site has ended the session (cleared the cookie): the views since are a visitor's. */
  ended = false;

  constructor(private value: string) {}

  get header(): Record<string, string> {
    return { cookie: `${SESSION_COOKIE}=${this.value}` };
  }

  /** Takes the session cookie from an answer's Set-Cookie headers, if it sets one. */
  take(setCookie: string | string[] | undefined): void {
    for (const header of typeof setCookie === "string" ? [setCookie] : (setCookie ?? [])) {
      if (!header.startsWith(`${SESSION_COOKIE}=`)) continue;
      const value = header.slice(SESSION_COOKIE.length + 1).split(";")[0];
      if (!value || /max-age=0/i.test(header)) this.ended = true;
      else this.value = value;
      this.resealed++;
    }
  }

  /**
   * An autocannon request for `path` that sends the current cookie and keeps what the site sets.
   * `renderEach`: each request adds a cookie of its own that means nothing to the site, so no page
   * kept for the member's cookies answers it (the page cache keys them by the whole Cookie header).
   */
  request(path: string, headers: Record<string, string> = {}, { renderEach = false } = {}): LoadRequest {
    let views = 0;
    const cookie = () => (renderEach ? { cookie: `${this.header.cookie}; bench-view=${views++}` } : this.header);
    return {
      path,
      headers,
      setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...cookie() } }),
      onResponse: (_status, _body, _context, answerHeaders) => {
        const setCookie = Object.entries(answerHeaders ?? {}).find(([name]) => name.toLowerCase() === "set-cookie")?.[1];
        if (setCookie) this.take(setCookie as string | string[]);
      },
    };
  }
}

/** A browser's cookies, per origin, enough for the login round trip between the site and the platform. */
class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, string>>();

  header(url: string): string {
    return [...(this.byOrigin.get(new URL(url).origin) ?? [])].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  take(url: string, response: Response): void {
    const jar = this.byOrigin.get(new URL(url).origin) ?? new Map<string, string>();
    this.byOrigin.set(new URL(url).origin, jar);
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(";")[0];
      const name = pair.slice(0, pair.indexOf("="));
      if (/max-age=0/i.test(header)) jar.delete(name);
      else jar.set(name, pair.slice(pair.indexOf("=") + 1));
    }
  }

  /** One cookie's value, for this origin. */
  value(url: string, name: string): string | undefined {
    return this.byOrigin.get(new URL(url).origin)?.get(name);
  }
}

/**
 * Signs the demo member in as a browser would: the site's login route, the platform's hosted
 * login page and its form, back through the site's callback. Returns the member's session cookie.
 */
async function signIn(siteUrl: string): Promise<MemberCookie> {
  const jar = new CookieJar();
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, cookie: jar.header(url) } });
    jar.take(url, response);
    return response;
  };
  let url = new URL(loginHref("/account"), siteUrl).href;
  let response = await go(url);
  for (let step = 0; step < 10; step++) {
    const location = response.headers.get("location");
    if (location) {
      url = new URL(location, url).href;
      if (new URL(url).origin === new URL(siteUrl).origin && new URL(url).pathname === "/account") {
        const session = jar.value(siteUrl, SESSION_COOKIE);
        if (session) return new MemberCookie(session);
        break;
      }
      response = await go(url);
      continue;
    }
    const html = await response.text();
    const form = /<form\b[^>]*\baction="([^"]*)"/.exec(html);
    if (response.status !== 200 || !form || !/name="password"/.test(html)) break;
    const hidden = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name, value]));
    url = new URL(form[1].replaceAll("&amp;", "&"), url).href;
    response = await go(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...hidden, email: DEMO_MEMBER.email, password: DEMO_MEMBER.password }).toString(),
    });
  }
  throw new Error(`The member login did not come back to ${AUTH_ROUTES.callback} and /account (stopped at ${url}, ${response.status}).`);
}

/**
 * Starts `npm start`'s pair (site and local platform) on the load ports with a fresh database, and signs the member in.
 * `root`: another checkout with a build of its own, to measure it side by side with this one.
 */
export async function startStack(options: Partial<typeof LOAD_DEFAULTS> & { root?: string } = {}): Promise<Stack> {
  const { sitePort, platformPort, name, root } = { ...LOAD_DEFAULTS, ...options };
  const site = await startProductionSite({ sitePort, platformPort, name, root });
  try {
    const member = await signIn(site.url);
    return {
      siteUrl: site.url,
      platformUrl: site.platformUrl,
      member,
      async platformCalls() {
        const { requests } = (await (
          await fetch(`${site.platformUrl}/_local/stats`, { headers: { authorization: process.env.LOCAL_PLATFORM_API_KEY ?? DEFAULT_API_KEY } })
        ).json()) as { requests: Record<string, number> };
        return Object.values(requests).reduce((total, count) => total + count, 0);
      },
      siteRssMiB: () => rssMiB(site.sitePid),
      siteCpuMs: () => cpuMs(site.sitePid),
      requestsServed: site.requestsLogged,
      async settle() {
        // A run ends with requests still being served (and the clients' abandoned ones): their CPU and log lines come after it.
        const deadline = Date.now() + 30_000;
        let last = -1;
        for (let quiet = 0; quiet < 3 && Date.now() < deadline;) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const now = cpuMs(site.sitePid);
          quiet = now === last ? quiet + 1 : 0;
          last = now;
        }
      },
      renders: site.renders,
      stop: site.stop,
    };
  } catch (error) {
    await site.stop();
    throw error;
  }
}

export type LoadResult = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Connection errors (a reset, a refused connection), timeouts not included. */
  errors: number;
  /** Requests with no answer within autocannon's 10 s. */
  timeouts: number;
  /** Answers by status class: { "2xx": n, "5xx": n, … }. */
  statuses: Record<string, number>;
};

/** One autocannon run; `requests` cycles through several paths on each connection. */
export async function load(options: {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  requests?: LoadRequest[];
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
    requests: options.requests,
  });
  const statuses: Record<string, number> = {};
  for (const [code, { count = 0 }] of Object.entries(result.statusCodeStats ?? {})) {
    const kind = /^[1-5]\d\d$/.test(code) ? `${code[0]}xx` : `status ${code}`;
    statuses[kind] = (statuses[kind] ?? 0) + count;
  }
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    statuses,
  };
}

/** Views each path a few times, so the cache is warm and the server has compiled what it runs; a member's, with their cookie. */
export async function warm(siteUrl: string, paths: string[], headers: Record<string, string> = {}, member?: MemberCookie): Promise<void> {
  for (let round = 0; round < 3; round++) {
    for (const target of paths) {
      const response = await fetch(new URL(target, siteUrl), { headers: { ...headers, ...member?.header }, redirect: "manual" });
      if (response.status !== 200) throw new Error(`Warming ${target}: ${response.status}`);
      member?.take(response.headers.getSetCookie());
      await response.arrayBuffer();
    }
  }
}

/** What the figures were measured on: they mean little without it (the machine is shared). */
export function machine(): string {
  const [one, five] = os.loadavg();
  const memory = `${Math.round(os.totalmem() / 2 ** 30)} GiB`;
  return `${os.cpus().length} cores, ${memory}, load average ${one.toFixed(2)} (1 min) ${five.toFixed(2)} (5 min), Node ${process.version}`;
}

export const format = {
  rate: (value: number) => value.toFixed(0).padStart(7),
  ms: (value: number) => `${value.toFixed(0)} ms`.padStart(8),
};

/** Runs `main` with a stack, always stopping it; exits 1 when `main` reports missed targets. */
export async function withStack(main: (stack: Stack) => Promise<boolean>): Promise<void> {
  await withStacks([], ([stack]) => main(stack));
}

/**
 * Runs `main` with this checkout's stack first, then one for each of `others` (checkouts with a
 * build of their own, on the next ports), always stopping them; exits 1 when `main` reports missed targets.
 */
export async function withStacks(others: string[], main: (stacks: Stack[]) => Promise<boolean>): Promise<void> {
  process.chdir(path.resolve(import.meta.dirname, "../.."));
  ensureBuild();
  const stacks: Stack[] = [];
  let passed = false;
  try {
    stacks.push(await startStack());
    for (const [index, root] of others.entries()) {
      const offset = index + 1;
      stacks.push(
        await startStack({
          root: path.resolve(root),
          sitePort: LOAD_DEFAULTS.sitePort + offset,
          platformPort: LOAD_DEFAULTS.platformPort + offset,
          name: `load-${offset}`,
        }),
      );
    }
    passed = await main(stacks);
  } finally {
    for (const stack of stacks) await stack.stop();
  }
  process.exit(passed ? 0 : 1);
}
