import http from "node:http";
import { OAuthStrategy } from "@wix/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../../config";
import type { LoggedRequest } from "../../http/request-entry";
import { REDACTED } from "../../http/request-log";
import { DEMO_MEMBER } from "../../seed/seed";
import { startTestPlatform, type TestPlatform } from "../../testing";

const WRONG_PASSWORD = "Not-the-demo-password-93";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const logged = async (query: Record<string, string> = {}) => {
  const reply = await platform.app.inject({ url: "/_local/studio/api/requests", query });
  expect(reply.statusCode).toBe(200);
  return reply.json<{ requests: LoggedRequest[] }>().requests;
};

/**
 * A server-sent event stream read over a connection of its own (fetch's pool would open a spare
 * connection behind it that holds a closing server for seconds).
 */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(url, { agent: false, headers }, resolve).on("error", reject));
  response.setEncoding("utf8");
  let text = "";
  const ended = new Promise<void>((resolve) => response.on("close", resolve));
  response.on("data", (chunk: string) => (text += chunk));
  return {
    response,
    ended,
    /** Waits until what arrived so far satisfies `done`, and returns it all. */
    async until(done: (text: string) => boolean): Promise<string> {
      while (!done(text)) await new Promise((resolve) => response.once("data", resolve));
      return text;
    },
    close: () => response.destroy(),
  };
}

const eventsIn = (text: string) =>
  text
    .split("\n\n")
    .filter((block) => block.includes("data: "))
    .map((block) => ({
      id: /^id: (.*)$/m.exec(block)?.[1],
      event: /^event: (.*)$/m.exec(block)![1],
      data: JSON.parse(/^data: (.*)$/m.exec(block)![1]) as unknown,
    }));

describe("the request log", () => {
  it("logs a failed data query with the visitor's role, its error code and the bodies", async () => {
    await expect(platform.visitorClient().items.query("NoSuchCollection").find()).rejects.toThrow();
    const [query] = await logged({ path: "/wix-data/v2/items/query", status: "4xx" });
    // The SDK sends a query as a GET with the request in `.r`: the log shows it decoded.
    expect(query).toMatchObject({ method: "GET", status: 404, caller: "visitor", errorCode: "WDE0025", query: ".r=[the request, shown decoded]" });
    expect(JSON.parse(query.requestBody!)).toMatchObject({ dataCollectionId: "NoSuchCollection" });
    expect(query.responseBody).toContain("The NoSuchCollection collection does not exist");
    // The token grant before it succeeded: logged, without bodies.
    const [grant] = await logged({ path: "/oauth2/token" });
    expect(grant).toMatchObject({ method: "POST", status: 200, caller: "none" });
    expect(grant.requestBody).toBeUndefined();
  });

  it("never keeps a password, a token or the Authorization header", async () => {
    const auth = OAuthStrategy({ clientId: LOCAL_CLIENT_ID });
    expect((await auth.login({ email: DEMO_MEMBER.email, password: WRONG_PASSWORD })).loginState).toBe("FAILURE");
    const [login] = await logged({ path: "/_api/iam/authentication/v2/login", status: "errors" });
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(login.errorCode).toBeTruthy();
    expect(login.requestBody).toContain(DEMO_MEMBER.email);
    expect(login.requestBody).toContain(`"password": "${REDACTED}"`);
    const everything = JSON.stringify(await logged());
    expect(everything).not.toContain(WRONG_PASSWORD);
    const tokens = auth.getTokens();
    expect(everything).not.toContain(tokens.accessToken.value);
    expect(everything).not.toContain(tokens.refreshToken.value);
    expect(everything).not.toMatch(/authorization/i);
  });

  it("redacts secrets in query strings and tells an unknown token from none", async () => {
    await platform.app.inject({ url: "/hosted/reset?token=secret-reset-token&lang=en" });
    await platform.app.inject({ url: "/members/v1/members/my", headers: { authorization: "not-a-token" } });
    const [reset] = await logged({ path: "/hosted/reset" });
    expect(reset.query).toBe(`token=${REDACTED}&lang=en`);
    const [my] = await logged({ path: "/members/v1/members/my" });
    expect(my).toMatchObject({ status: 401, caller: "unknown token", errorCode: "UNAUTHENTICATED" });
    await platform.app.inject({ url: "/members/v1/members/my", headers: { authorization: platform.config.apiKey } });
    expect((await logged({ path: "/members/v1/members/my" }))[0].caller).toBe("admin key");
  });

  it("leaves out /_local calls, the Studio's own among them", async () => {
    await platform.app.inject({ url: "/_local/health" });
    await platform.app.inject({ url: "/_local/studio/api/mailbox" });
    expect((await logged()).some((entry) => entry.path.startsWith("/_local"))).toBe(false);
  });

  it("refuses a filter it cannot read", async () => {
    const reply = await platform.app.inject({ url: "/_local/studio/api/requests", query: { status: "teapot" } });
    expect(reply.statusCode).toBe(400);
    expect(reply.json().details.applicationError.code).toBe("INVALID_ARGUMENT");
  });
});

describe("the request log's stream", () => {
  const streamUrl = () => `${platform.url}/_local/studio/api/requests/stream`;

  it("starts with the whole log, then sends each new call, and a reconnecting reader gets only what it missed", async () => {
    const first = await openStream(streamUrl());
    expect(first.response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    const start = eventsIn(await first.until((text) => text.includes("event: reset")));
    expect(start[0].event).toBe("reset");
    const backlog = (start[0].data as { requests: LoggedRequest[] }).requests;
    expect(backlog.length).toBe((await logged()).length);

    await platform.app.inject({ url: "/wix-data/v2/collections/Trails-stream-check" });
    const next = eventsIn(await first.until((text) => text.includes("event: request"))).slice(1);
    const live = next[0].data as LoggedRequest;
    expect(live).toMatchObject({ path: "/wix-data/v2/collections/Trails-stream-check", status: 404 });
    expect(next[0].id).toBe(live.id);
    first.close();

    await platform.app.inject({ url: "/wix-data/v2/collections/missed-while-away" });
    const again = await openStream(streamUrl(), { "last-event-id": live.id });
    const missed = eventsIn(await again.until((text) => text.includes("missed-while-away")));
    expect(missed.map((event) => event.event)).toEqual(["request"]);
    again.close();

    const stale = await openStream(streamUrl(), { "last-event-id": "00000000:1" });
    expect(eventsIn(await stale.until((text) => text.includes("event: reset")))[0].event).toBe("reset");
    stale.close();
  });

  it("is refused to other machines like the rest of the Studio", async () => {
    const remote = await platform.app.inject({ url: "/_local/studio/api/requests/stream", remoteAddress: "10.1.2.3" });
    expect(remote.statusCode).toBe(403);
  });

  it("does not keep the platform from closing while a browser still reads it", async () => {
    const own = await startTestPlatform();
    const open = await openStream(`${own.url}/_local/studio/api/requests/stream`);
    await open.until((text) => text.includes("event: reset"));
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await open.ended;
  });
});
