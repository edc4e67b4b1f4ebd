import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportedCollections, type CollectionWithReports } from "@/lib/site-config";
import { sessionClient } from "@/lib/wix/client";
import { removeReport, reportSummary, reportsAbout, writeReport } from "@/lib/wix/reports";
import { toSiteItem } from "@/lib/wix/site-item";
import { LOCAL_CLIENT_ID } from "@/platform/config";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

/** The top of a trail's page: directions to its trailhead and its reports' rating summary. */

const trails = reportedCollections.find((collection) => collection.route === "trails") as CollectionWithReports;

describe("directions to a trail's trailhead", () => {
  const trail = { _id: "t1", title: "Summit Loop", slug: "summit-loop" };
  const at = (location: unknown, formatted: unknown = "Lookout Road trailhead") =>
    toSiteItem(trails, { ...trail, trailhead: { parking: "Lot", location: { formatted, location } } });

  it("link to the route planner with the trailhead's coordinates, and name the place", () => {
    expect(at({ latitude: 38.8571, longitude: -106.1184 })?.directions).toEqual({
      label: "Directions to the trailhead",
      place: "Lookout Road trailhead",
      href: "https://www.google.com/maps/dir/?api=1&destination=38.8571%2C-106.1184",
    });
    expect(at({ latitude: 0, longitude: 0 }, "")?.directions).toEqual({
      label: "Directions to the trailhead",
      href: "https://www.google.com/maps/dir/?api=1&destination=0%2C0",
    });
  });

  it("are left out for a trail without a place on the map, or with one that is not a place", () => {
    expect(toSiteItem(trails, trail)?.directions).toBeUndefined();
    expect(toSiteItem(trails, { ...trail, trailhead: { parking: "Lot" } })?.directions).toBeUndefined();
    expect(toSiteItem(trails, { ...trail, trailhead: "the car park" })?.directions).toBeUndefined();
    expect(at(undefined)?.directions).toBeUndefined();
    expect(at({ latitude: 91, longitude: 0 })?.directions).toBeUndefined();
    expect(at({ latitude: "38.8", longitude: "-106.1" })?.directions).toBeUndefined();
  });
});

describe("a trail's rating summary on the local platform", () => {
  let platform: TestPlatform;
  const clientOf = (email: string) => {
    const subjectId = platform.ctx.identities.findForLogin(email)!.identity.id;
    return sessionClient(platform.ctx.tokens.issuePair({ role: "member", subjectId, clientId: LOCAL_CLIENT_ID }).accessToken);
  };
  const report = { title: "Windy", body: "Gusts on the crest.", hikedOn: "2026-11-21" };

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("counts the seeded reports and averages their ratings", async () => {
    expect(await reportSummary(trails, "trail-mirror-lakes")).toEqual({ count: 1, averageRating: 5 });
    expect(await reportSummary(trails, "trail-red-canyon")).toEqual({ count: 1, averageRating: 3 });
  });

  it("has no average for a trail nobody has reported on", async () => {
    expect(await reportSummary(trails, "trail-arch-spur")).toEqual({ count: 0, averageRating: null });
    expect(await reportSummary(trails, "no-such-trail")).toEqual({ count: 0, averageRating: null });
  });

  it("agrees with the reports listed, as members write more; and is served from the cache until the reports' tag is dropped", async () => {
    const written = [
      [DEMO_MEMBER.email, 5],
      [SECOND_DEMO_MEMBER.email, 2],
      [DEMO_MEMBER.email, 2],
    ] as const;
    for (const [email, rating] of written)
      expect(await writeReport(clientOf(email), trails.memberReports, "trail-falls-overlook", { ...report, rating })).toEqual({ ok: true });
    const summary = await reportSummary(trails, "trail-falls-overlook");
    const listed = (await reportsAbout(trails, "trail-falls-overlook")).reports;
    expect(summary).toEqual({ count: 3, averageRating: 3 });
    expect(summary.count).toBe(listed.length);

    // Removed on the platform, but the cached summary stands until a revalidation of the reports' tag drops it.
    expect(await removeReport(clientOf(DEMO_MEMBER.email), trails.memberReports, listed.find((found) => found.rating === 5)!.id)).toEqual({ ok: true });
    expect(await reportSummary(trails, "trail-falls-overlook")).toEqual(summary);
  });
});
