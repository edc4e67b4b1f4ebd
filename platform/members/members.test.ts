import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberSiteClient, signInThroughHostedPage, type SiteClient } from "../identity/test-browser";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";

let platform: TestPlatform;
let dana: SiteClient;
beforeAll(async () => {
  platform = await startTestPlatform();
  ({ client: dana } = await signInThroughHostedPage(`${platform.config.siteUrl}/api/auth/callback`));
});
afterAll(() => platform.close());

describe("members.getCurrentMember through the real @wix/members client", () => {
  it("returns the demo member with the PUBLIC fieldset by default", async () => {
    const { member } = await dana.members.getCurrentMember();
    expect(member).toMatchObject({
      profile: { nickname: "Dana", slug: "dana" },
      status: "UNKNOWN",
      privacyStatus: "UNKNOWN",
      activityStatus: "UNKNOWN",
    });
    expect(member?._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(member?.contactId).toMatch(/^[0-9a-f-]{36}$/);
    expect(member?._createdDate).toBeInstanceOf(Date);
    expect(member?._updatedDate).toBeInstanceOf(Date);
    expect(member).not.toHaveProperty("loginEmail");
    expect(member).not.toHaveProperty("contact");
  });

  it("adds the login email and statuses with EXTENDED", async () => {
    const { member } = await dana.members.getCurrentMember({ fieldsets: ["EXTENDED"] });
    expect(member).toMatchObject({ loginEmail: DEMO_MEMBER.email, status: "APPROVED", privacyStatus: "PUBLIC", activityStatus: "ACTIVE" });
    expect(member).not.toHaveProperty("contact");
  });

  it("adds the contact, email verification and last login with FULL", async () => {
    const { member } = await dana.members.getCurrentMember({ fieldsets: ["FULL"] });
    expect(member).toMatchObject({
      loginEmail: DEMO_MEMBER.email,
      loginEmailVerified: true,
      status: "APPROVED",
      contact: { firstName: "Dana", lastName: "Demo", emails: [DEMO_MEMBER.email] },
    });
    expect(member?.lastLoginDate).toBeInstanceOf(Date);
  });

  it("refuses a visitor with a clear error", async () => {
    const visitor = memberSiteClient();
    const error = await visitor.members.getCurrentMember().catch((e: unknown) => e);
    expect(error).toMatchObject({ details: { applicationError: { code: "PERMISSION_DENIED" } } });
    expect((error as { status?: number }).status).toBe(403);
  });

  it("refuses an unknown fieldset with a 400, not a 500", async () => {
    const { accessToken } = dana.auth.getTokens();
    const response = await fetch("https://edge.wixapis.com/members/v1/members/my?fieldsets=SECRET", {
      headers: { authorization: accessToken.value },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ details: { applicationError: { code: "INVALID_ARGUMENT" } } });
  });
});
