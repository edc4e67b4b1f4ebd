import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT_LIMITS } from "@/lib/reports/forms";
import { reportedCollections, type CollectionWithReports } from "@/lib/site-config";
import { sessionClient } from "@/lib/wix/client";
import { REPORTS_SHOWN, reportsAbout } from "@/lib/wix/reports";
import { LOCAL_CLIENT_ID } from "@/lib/local-mode";
import { DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

/**
 * The unbounded-content attack of issue 19: a member writes reports far over the form's limit
 * straight to the data API (20 × 450 KB grew a trail page to 18 MB). What the site reshapes
 * stays within the form's limits, and a list holds a bounded number of reports.
 */

const trails = reportedCollections.find((collection) => collection.route === "trails") as CollectionWithReports;
const { collectionId, itemField } = trails.memberReports;
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

describe("reports written straight to the data API", () => {
  it("are cut to the form's limits and listed a bounded number at a time, whatever their size and number", async () => {
    const dana = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    const client = sessionClient(platform.ctx.tokens.issuePair({ role: "member", subjectId: dana, clientId: LOCAL_CLIENT_ID }).accessToken);
    const huge = "x".repeat(450_000);
    for (let i = 0; i < REPORTS_SHOWN + 5; i++) {
      await client.items.insert(collectionId, { title: `${i} ${huge.slice(0, 5000)}`, body: huge, rating: 4, hikedOn: "2026-11-01", [itemField]: "trail-cedar-creek" });
    }
    const shown = await reportsAbout(trails, "trail-cedar-creek");
    expect(shown.length).toBeLessThanOrEqual(REPORTS_SHOWN);
    for (const report of shown) {
      expect(report.body.length).toBeLessThanOrEqual(REPORT_LIMITS.body);
      expect(report.title.length).toBeLessThanOrEqual(REPORT_LIMITS.title);
    }
    // What the page renders from: bounded, where the stored reports hold over ten megabytes.
    expect(JSON.stringify(shown).length).toBeLessThan(REPORTS_SHOWN * (REPORT_LIMITS.body + REPORT_LIMITS.title + 1000));
  }, 60_000);
});
