import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileSchema } from "@/lib/account/forms";
import { sessionClient } from "@/lib/wix/client";
import { currentProfile, toPublicMember, updateProfile } from "@/lib/wix/members";
import { LOCAL_CLIENT_ID } from "@/platform/config";
import { memberSiteClient } from "@/platform/identity/test-browser";
import { SECOND_DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

/**
 * The account form's "Make my profile public" is the member's place in the community: saving it
 * off leaves the community and saving it on joins it again (`@wix/members`' own calls), and the
 * public reads the directory and the profile page make follow.
 */

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

/** How often the platform answered a route. */
async function answered(route: string): Promise<number> {
  const stats = await platform.app.inject({ url: "/_local/stats", headers: { authorization: platform.config.apiKey } });
  return (stats.json() as { requests: Record<string, number> }).requests[route] ?? 0;
}

/** What a visitor's client finds: the directory's slugs and the profile by slug. */
async function visitorSees(slug: string) {
  const visitor = memberSiteClient();
  const directory = (await visitor.members.listMembers()).members?.map((member) => toPublicMember(member).slug);
  const bySlug = (await visitor.members.queryMembers().eq("profile.slug", slug).find()).items.map((member) => toPublicMember(member).slug);
  return { listed: directory?.includes(slug), profile: bySlug[0] ?? null };
}

describe("joining and leaving the community from the account form", () => {
  it("leaves when the profile is saved private and joins when it is saved public; visitors' reads follow", async () => {
    const id = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
    const client = sessionClient(platform.ctx.tokens.issuePair({ role: "member", subjectId: id, clientId: LOCAL_CLIENT_ID }).accessToken);
    const before = await currentProfile(client);
    const save = (publicProfile: boolean) => updateProfile(client, id, profileSchema.parse({ nickname: before.nickname, publicProfile, title: before.title }));
    expect(await visitorSees("rowan")).toEqual({ listed: true, profile: "rowan" });

    expect((await save(false)).isPrivate).toBe(true);
    expect(await answered("POST /members/v1/members/leave-community")).toBe(1);
    expect(await visitorSees("rowan")).toEqual({ listed: false, profile: null });

    // Saving again unchanged calls neither.
    await save(false);
    expect(await answered("POST /members/v1/members/leave-community")).toBe(1);

    expect((await save(true)).isPrivate).toBe(false);
    expect(await answered("POST /members/v1/members/join-community")).toBe(1);
    expect(await visitorSees("rowan")).toEqual({ listed: true, profile: "rowan" });
    expect((await currentProfile(client)).title).toBe(before.title);
  });
});
