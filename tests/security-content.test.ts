import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT_LIMITS } from "@/lib/reports/forms";
import { reportedCollections, type CollectionWithReports } from "@/lib/site-config";
import { sessionClient } from "@/lib/wix/client";
import { REPORTS_SHOWN, reportsAbout } from "@/lib/wix/reports";
import { LOCAL_CLIENT_ID } from "@ridgeline/platform-contract";
import { DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

/**
 * The unbounded-content attack of issue 19: a member writes reports far over the form's limit
 * straight to the data API (20 × 450 KB grew a trail page to 18 MB). What the site reshapes
 * stays within the form's limits, and a list is paged, a bounded number of reports a page.
 */

const trails = reportedCollections.find((collection) => collection.route === "trails") as CollectionWithReports;
const { collectionId, itemField } = trails.memberReports;
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

describe("reports written straight to the data API", () => {
  it("are cut to the form's limits and paged a bounded number at a time, whatever their size and number", async () => {
    const dana = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    const client = sessionClient(platform.ctx.tokens.issuePair({ role: "member", subjectId: dana, clientId: LOCAL_CLIENT_ID }).accessToken);
    // The platform refuses such reports now (the fields declare the form's limits); without
    // limits, as on a Wix site whose collection declares none, the site must still cope.
    for (const key of ["title", "body"]) {
      await platform.adminClient().collections.updateDataCollectionField(collectionId, { field: { key, type: "TEXT" } as never });
    }
    const huge = "x".repeat(450_000);
    for (let i = 0; i < REPORTS_SHOWN + 5; i++) {
      await client.items.insert(collectionId, {
        title: `${i} ${huge.slice(0, 5000)}`,
        body: huge,
        rating: 4,
        hikedOn: "2026-11-01",
        [itemField]: "trail-cedar-creek",
      });
    }
    const total = await platform.adminClient().items.query(collectionId).eq(itemField, "trail-cedar-creek").count();
    const first = await reportsAbout(trails, "trail-cedar-creek");
    const shown = first.reports;
    expect(shown).toHaveLength(REPORTS_SHOWN);
    expect(first.pageCount).toBe(Math.ceil(total / REPORTS_SHOWN));
    expect(first.pageCount).toBeGreaterThan(1);
    // The older pages hold the rest, each report once, newest walk first throughout.
    const pages = [first, ...(await Promise.all(Array.from({ length: first.pageCount - 1 }, (_, i) => reportsAbout(trails, "trail-cedar-creek", i + 2))))];
    const all = pages.flatMap((page) => page.reports);
    expect(new Set(all.map((report) => report.id)).size).toBe(total);
    expect(all.map((report) => report.hikedOn)).toEqual(
      all
        .map((report) => report.hikedOn)
        .sort()
        .reverse(),
    );
    expect((await reportsAbout(trails, "trail-cedar-creek", first.pageCount + 1)).reports).toEqual([]);
    for (const report of shown) {
      expect(report.body.length).toBeLessThanOrEqual(REPORT_LIMITS.body);
      expect(report.title.length).toBeLessThanOrEqual(REPORT_LIMITS.title);
    }
    // What the page renders from: bounded, where the stored reports hold over ten megabytes.
    expect(JSON.stringify(shown).length).toBeLessThan(REPORTS_SHOWN * (REPORT_LIMITS.body + REPORT_LIMITS.title + 1000));
  }, 60_000);
});
