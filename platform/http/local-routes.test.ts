import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const revoke = (body: unknown, authorization?: string) =>
  fetch(`${platform.url}/_local/revoke`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(authorization && { authorization }) },
    body: JSON.stringify(body),
  });

describe("/_local/revoke", () => {
  it("revokes every session of a member named by email, with the admin key", async () => {
    const member = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity;
    const pair = platform.ctx.tokens.issuePair({ role: "member", subjectId: member.id, clientId: LOCAL_CLIENT_ID });
    const response = await revoke({ email: DEMO_MEMBER.email }, platform.config.apiKey);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { revoked: number }).revoked).toBe(1);
    expect(platform.ctx.tokens.resolveAccess(pair.accessToken)).toBeNull();
    expect(platform.ctx.tokens.refresh(pair.refreshToken, LOCAL_CLIENT_ID)).toBeNull();
  });

  it("refuses callers without the admin key, and unknown members", async () => {
    expect((await revoke({ email: DEMO_MEMBER.email })).status).toBe(403);
    expect((await revoke({ email: "nobody@example.com" }, platform.config.apiKey)).status).toBe(404);
    expect((await revoke({}, platform.config.apiKey)).status).toBe(400);
  });
});

describe("/_local/settings and the outbox", () => {
  const call = (path: string, init: { method?: string; body?: unknown; key?: boolean } = {}) =>
    fetch(`${platform.url}${path}`, {
      method: init.method ?? "GET",
      headers: { "content-type": "application/json", ...(init.key && { authorization: platform.config.apiKey }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  it("reads and changes the sign-up settings with the admin key only, answering all of them", async () => {
    expect((await call("/_local/settings")).status).toBe(403);
    expect((await call("/_local/settings", { method: "PATCH", body: { requireCaptcha: true } })).status).toBe(403);
    expect(await (await call("/_local/settings", { key: true })).json()).toEqual({
      requireEmailVerification: false,
      requireOwnerApproval: false,
      requireCaptcha: false,
      rejectInvisibleCaptcha: false,
    });
    const changed = await call("/_local/settings", { method: "PATCH", body: { requireOwnerApproval: true }, key: true });
    expect(await changed.json()).toEqual({ requireEmailVerification: false, requireOwnerApproval: true, requireCaptcha: false, rejectInvisibleCaptcha: false });
    for (const body of [{ requireOwnerApproval: "yes" }, { somethingElse: true }, []]) {
      expect((await call("/_local/settings", { method: "PATCH", body, key: true })).status).toBe(400);
    }
    await call("/_local/settings", { method: "PATCH", body: { requireOwnerApproval: false }, key: true });
  });

  it("lists an address's messages newest first with the admin key, and to the Studio's mailbox on this machine", async () => {
    platform.ctx.outbox.send({ to: "Reader@Ridgeline.example", kind: "verification", subject: "First", text: "1", code: "123456" });
    platform.ctx.outbox.send({ to: "reader@ridgeline.example", kind: "password-reset", subject: "Second", text: "2", link: "http://x/r", recoveryToken: "t" });
    expect((await call("/_local/outbox?to=reader@ridgeline.example")).status).toBe(403);
    const { messages } = (await (await call("/_local/outbox?to=READER@ridgeline.example", { key: true })).json()) as {
      messages: Array<{ subject: string; sentAt: string }>;
    };
    expect(messages.map((m) => m.subject)).toEqual(["Second", "First"]);
    expect(messages[0].sentAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const mailbox = (await (await call("/_local/studio/api/mailbox")).json()) as { messages: Array<{ code?: string; link?: string }> };
    expect(mailbox.messages.map((m) => m.code ?? m.link)).toEqual(["http://x/r", "123456"]);
  });
});
