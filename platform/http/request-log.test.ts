import { describe, expect, it } from "vitest";
import { statusMatches, type LoggedRequest } from "./request-entry";
import { redactBody, redactQuery, REDACTED, RequestLog, TOO_DEEP } from "./request-log";

const entry = (status = 200): Omit<LoggedRequest, "id"> => ({
  time: new Date().toISOString(),
  method: "GET",
  path: "/wix-data/v2/items/query",
  query: "",
  status,
  durationMs: 1,
  caller: "visitor",
  requestId: "r",
});

describe("redaction", () => {
  it("replaces credential fields at any depth, whatever their spelling, and keeps the rest", () => {
    const body = {
      loginId: { email: "a@b.example" },
      password: "hunter2-hunter2",
      captchaTokens: [{ Recaptcha: "x" }],
      nested: { refresh_token: "r1", accessToken: "a1", "api-key": "k", ApiKey: "k2", sessionToken: "s", stateToken: "t", newPassword: "p" },
      grant: { code: "auth-code", codeVerifier: "v", clientId: "local-site-client" },
      list: [{ token: "t2", title: "kept" }],
      countryCode: "NZ",
    };
    const redacted = redactBody(body) as typeof body;
    expect(redacted.loginId).toEqual({ email: "a@b.example" });
    expect(redacted.password).toBe(REDACTED);
    expect(redacted.captchaTokens).toBe(REDACTED);
    expect(Object.values(redacted.nested).every((value) => value === REDACTED)).toBe(true);
    expect(redacted.grant).toEqual({ code: REDACTED, codeVerifier: REDACTED, clientId: "local-site-client" });
    expect(redacted.list).toEqual([{ token: REDACTED, title: "kept" }]);
    expect(redacted.countryCode).toBe("NZ");
    expect(JSON.stringify(redacted)).not.toMatch(/hunter2|auth-code|r1|a1|"s"|"t2"/);
    // The input is left as it was.
    expect(body.password).toBe("hunter2-hunter2");
  });

  it("keeps the error envelope's code, which names the error, but not a `code` anywhere else in it", () => {
    const envelope = { message: "m", details: { applicationError: { code: "WDE0025", description: "d", data: { code: "123456" } } } };
    expect(redactBody(envelope)).toEqual({ message: "m", details: { applicationError: { code: "WDE0025", description: "d", data: { code: REDACTED } } } });
  });

  it("cuts a body nested thousands deep at a fixed depth instead of exhausting the stack", () => {
    let deep: unknown = { password: "hunter2" };
    for (let level = 0; level < 10_000; level++) deep = level % 2 ? { a: deep } : [deep];
    const text = JSON.stringify(redactBody(deep));
    expect(text).toContain(TOO_DEEP);
    expect(text).not.toContain("hunter2");
    expect(text.length).toBeLessThan(1000);
  });

  it("replaces secret query parameters and keeps the others", () => {
    expect(redactQuery("token=abc&lang=en")).toBe(`token=${REDACTED}&lang=en`);
    expect(redactQuery("code=1&code=2&state=s&access_token=x")).toBe(`code=${REDACTED}&state=s&access_token=${REDACTED}`);
    expect(redactQuery("q=a%20b")).toBe("q=a+b");
    expect(redactQuery(".r=eyJhIjoxfQ")).toBe(".r=[the request, shown decoded]");
  });
});

describe("the ring of entries", () => {
  it("keeps the newest `capacity` entries, oldest first, and tells listeners of each", () => {
    const log = new RequestLog(3);
    const heard: string[] = [];
    const stop = log.subscribe((logged) => heard.push(logged.id));
    for (const status of [200, 201, 404, 500]) log.add(entry(status));
    expect(log.list().map((logged) => logged.status)).toEqual([201, 404, 500]);
    expect(heard).toEqual([1, 2, 3, 4].map((n) => `${log.boot}:${n}`));
    stop();
    log.add(entry());
    expect(heard).toHaveLength(4);
  });

  it("gives a reconnecting reader what it missed, or null when that is no longer there", () => {
    const log = new RequestLog(3);
    const ids = [1, 2, 3, 4, 5].map(() => log.add(entry()).id);
    expect(log.since(ids[2])!.map((logged) => logged.id)).toEqual(ids.slice(3));
    expect(log.since(ids[4])).toEqual([]);
    // The entry after ids[0] (ids[1]) was dropped: the reader must start over.
    expect(log.since(ids[0])).toBeNull();
    expect(log.since(ids[1])!.map((logged) => logged.id)).toEqual(ids.slice(2));
    expect(log.since("00000000:2")).toBeNull();
    expect(log.since(`${log.boot}:99`)).toBeNull();
    expect(log.since("nonsense")).toBeNull();
  });

  it("filters by status class, errors or an exact status", () => {
    expect(statusMatches(404, "4xx")).toBe(true);
    expect(statusMatches(404, "5xx")).toBe(false);
    expect(statusMatches(503, "errors")).toBe(true);
    expect(statusMatches(302, "errors")).toBe(false);
    expect(statusMatches(404, "404")).toBe(true);
    expect(statusMatches(200, "")).toBe(true);
  });
});
