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
