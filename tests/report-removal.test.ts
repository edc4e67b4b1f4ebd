import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportedCollections } from "@/lib/site-config";
import { sessionClient } from "@/lib/wix/client";
import { removeReportsBy, writeReport } from "@/lib/wix/reports";
import { LOCAL_CLIENT_ID } from "@/platform/config";
import { hashPassword } from "@/platform/identity/passwords";
import { DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

/** A member leaving with their reports: every one of theirs goes, nobody else's. */
describe("removing a member's reports, on the local platform", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  const [trails] = reportedCollections;
  /** How many reports a member has, as the site's owner counts them. */
  const reportsOf = async (ownerId: string) => {
    const reply = await platform.app.inject({
      method: "POST",
      url: "/wix-data/v2/items/query",
      headers: { authorization: platform.config.apiKey },
      payload: { dataCollectionId: trails.memberReports.collectionId, query: { filter: { _owner: ownerId }, paging: { limit: 1000 } } },
    });
    return (reply.json() as { dataItems: unknown[] }).dataItems.length;
  };

  it("removes all of the member's reports, more than one query's worth, and leaves the others", async () => {
    const leaving = platform.ctx.identities.create({
      email: "leaving.writer@ridgeline.example",
      passwordHash: await hashPassword("Leaving-writer-42"),
      nickname: "Leaving",
    })!;
    const client = sessionClient(platform.ctx.tokens.issuePair({ role: "member", subjectId: leaving.id, clientId: LOCAL_CLIENT_ID }).accessToken);
    const content = { title: "A walk", body: "Muddy but fine.", rating: 4, hikedOn: "2026-10-01" };
    for (let n = 0; n < 105; n++) expect((await writeReport(client, trails.memberReports, "trail-cedar-creek", content)).ok).toBe(true);
    const dana = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    const danasBefore = await reportsOf(dana);
    expect(danasBefore).toBeGreaterThan(0);
    expect(await reportsOf(leaving.id)).toBe(105);

    expect(await removeReportsBy(client, reportedCollections, leaving.id)).toEqual([trails.memberReports.collectionId]);
    expect(await reportsOf(leaving.id)).toBe(0);
    expect(await reportsOf(dana)).toBe(danasBefore);
    // Nothing left: nothing to do, and no collection changed.
    expect(await removeReportsBy(client, reportedCollections, leaving.id)).toEqual([]);
  });
});
