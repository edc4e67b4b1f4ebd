import "server-only";
import { z } from "zod";
import { REPORT_LIMITS, type ReportContent } from "@/lib/reports/forms";
import type { CollectionWithReports, MemberReportsConfig } from "@/lib/site-config";
import { TAGS, cachedRead } from "./cache";
import type { WixClient } from "./client";
import { refusalOf } from "./errors";
import { isMuted, toPublicMember, type PublicMember } from "./members";

/**
 * Reports members write about an item (trail reports): anyone reads them, members write them,
 * and only a report's author may change or remove it. The platform enforces that last rule
 * (SITE_MEMBER_AUTHOR); the site only hides controls that would be refused.
 */

export type Report = {
  id: string;
  /** The item the report is about, and its page when it is public. */
  itemId: string;
  about?: { title: string; href: string };
  title: string;
  body: string;
  rating: number;
  hikedOn: string;
  authorId: string;
  /** The author's public profile; absent for a private or deleted member. */
  author?: Pick<PublicMember, "name" | "slug">;
  createdAt: string;
};

const referencedId = z.union([z.string(), z.object({ _id: z.string() }).transform((item) => item._id)]);
const referencedItem = z.object({ _id: z.string() }).catchall(z.unknown());

const reportData = z.object({
  _id: z.string(),
  _owner: z.string().catch(""),
  // Cut to the form's limits: a report written straight to the data API can be any size, and
  // the page must stay small whatever the platform holds.
  title: z
    .string()
    .catch("")
    .transform((value) => value.slice(0, REPORT_LIMITS.title)),
  body: z
    .string()
    .catch("")
    .transform((value) => value.slice(0, REPORT_LIMITS.body)),
  rating: z.number().int().min(1).max(5).catch(3),
  hikedOn: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .catch(""),
  _createdDate: z
    .union([z.date(), z.string(), z.object({ $date: z.string() }).transform((value) => value.$date)])
    .transform((value) => new Date(value).toISOString())
    .catch(""),
});

/**
 * Reshapes a stored report about an item of `collection`; one that names no item is dropped.
 * The item's title and page come along when the query included the reference.
 */
export function toReport(collection: CollectionWithReports, raw: unknown): Omit<Report, "author"> | null {
  const parsed = reportData.safeParse(raw);
  const reference = (raw as Record<string, unknown> | null)?.[collection.memberReports.itemField];
  const itemId = referencedId.safeParse(reference);
  if (!parsed.success || !itemId.success) return null;
  const { _id, _owner, title, body, rating, hikedOn, _createdDate } = parsed.data;
  const item = referencedItem.safeParse(reference);
  const itemTitle = item.success ? item.data[collection.titleField] : undefined;
  const itemSlug = item.success ? item.data[collection.slugField] : undefined;
  const about =
    typeof itemTitle === "string" && typeof itemSlug === "string" && itemSlug
      ? { title: itemTitle, href: `/${collection.route}/${encodeURIComponent(itemSlug)}` }
      : undefined;
  return { id: _id, itemId: itemId.data, about, title, body, rating, hikedOn, authorId: _owner, createdAt: _createdDate };
}

/** Reports shown per page of an item's or a member's reports: with each cut to its limits, a page stays well under a megabyte. */
export const REPORTS_SHOWN = 20;

/** One page of reports, newest walk first, and how many pages there are (at least one). */
export type ReportPage = { reports: Report[]; page: number; pageCount: number };

/** The public profiles of the reports' authors, one cached members query for all of them. */
async function withAuthors(reports: Omit<Report, "author">[]): Promise<Report[]> {
  const ids = [...new Set(reports.map((report) => report.authorId).filter(Boolean))].sort();
  if (ids.length === 0) return reports;
  const authors = await cachedRead(["public-members", "by-id", ...ids], [TAGS.members], async (client) =>
    (await client.members.queryMembers().in("_id", ids).limit(ids.length).find()).items
      .map(toPublicMember)
      .filter((member) => member.slug)
      .map((member) => ({ id: member.id, name: member.name, slug: member.slug })),
  );
  const byId = new Map(authors.map(({ id, name, slug }) => [id, { name, slug }]));
  return reports.map((report) => ({ ...report, author: byId.get(report.authorId) }));
}

async function readReports(collection: CollectionWithReports, key: "about" | "by", value: string, page: number): Promise<ReportPage> {
  const { collectionId, itemField } = collection.memberReports;
  const field = key === "about" ? itemField : "_owner";
  const found = await cachedRead(
    ["reports", collectionId, key, value, page],
    [TAGS.collection(collectionId), TAGS.collection(collection.collectionId)],
    async (client) => {
      const result = await client.items.query(
        collectionId,
        {
          filter: { [field]: value },
          // The id breaks ties between walks of one day, so pages neither overlap nor skip.
          sort: [
            { fieldName: "hikedOn", order: "DESC" },
            { fieldName: "_id", order: "DESC" },
          ],
          paging: { limit: REPORTS_SHOWN, offset: (page - 1) * REPORTS_SHOWN },
        },
        { includeReferences: [{ field: itemField }], returnTotalCount: true },
      );
      // Reshaped (and so cut to size) before it is cached: the raw items may be megabytes.
      return { reports: result.items.flatMap((item) => toReport(collection, item) ?? []), total: result.pagingMetadata?.total ?? 0 };
    },
  );
  const reports = await withAuthors(found.reports);
  return { reports, page, pageCount: Math.max(1, Math.ceil(found.total / REPORTS_SHOWN)) };
}

/** One page of the reports about one item, for everyone (read from the shared cache). */
export function reportsAbout(collection: CollectionWithReports, itemId: string, page = 1): Promise<ReportPage> {
  return readReports(collection, "about", itemId, page);
}

/** One page of the reports one member wrote, for their public profile. */
export function reportsBy(collection: CollectionWithReports, memberId: string, page = 1): Promise<ReportPage> {
  return readReports(collection, "by", memberId, page);
}

/** How many reports an item has and their average rating (null without reports). */
export type ReportSummary = { count: number; averageRating: number | null };

/** The aggregation's row: the SDK names its results `count` and `<field>Avg`. */
const summaryRow = z.object({ count: z.number().int().min(0).catch(0), ratingAvg: z.number().min(1).max(5).nullable().catch(null) });

/**
 * The count and average rating of the reports about one item, for everyone: one aggregation on
 * the platform, cached under the reports' tag, so a report written, edited or removed shows at once.
 */
export async function reportSummary(collection: CollectionWithReports, itemId: string): Promise<ReportSummary> {
  const { collectionId, itemField } = collection.memberReports;
  const row = await cachedRead(["report-summary", collectionId, itemId], [TAGS.collection(collectionId)], async (client) => {
    const result = await client.items.aggregate(collectionId).filter(client.items.filter().eq(itemField, itemId)).count().avg("rating").run();
    // No group: one row for all the item's reports, or none when it has none.
    return result.items[0] ?? {};
  });
  const { count, ratingAvg } = summaryRow.parse(row);
  return { count, averageRating: count > 0 ? ratingAvg : null };
}

/** Why a member's change to a report was refused: by the platform, or because the site's owner muted them. */
export type ReportRefusal = "not-author" | "not-found" | "muted";

/** WDE0027: the caller may not do this (not the author); WDE0073: no such report any more. */
function refusalReason(error: unknown): ReportRefusal | null {
  const code = refusalOf(error)?.code;
  if (code === "WDE0027") return "not-author";
  if (code === "WDE0073") return "not-found";
  return null;
}

async function refusedOr(write: () => Promise<unknown>): Promise<{ ok: true } | { ok: false; reason: ReportRefusal }> {
  try {
    await write();
    return { ok: true };
  } catch (error) {
    const reason = refusalReason(error);
    if (!reason) throw error;
    return { ok: false, reason };
  }
}

/**
 * A report is something the member says to the community, so a muted member may neither publish
 * nor change one. The data API does not know about muting (on Wix, only the community apps do),
 * so this check, made with the member's own client before every write, is what refuses them.
 * Removing stays open: taking one's own words down says nothing new.
 */
async function unlessMuted(client: WixClient, write: () => Promise<unknown>): Promise<{ ok: true } | { ok: false; reason: ReportRefusal }> {
  if (await isMuted(client)) return { ok: false, reason: "muted" };
  return refusedOr(write);
}

/** A member writes a report with their own client: the platform stamps them as its author. */
export function writeReport(client: WixClient, config: MemberReportsConfig, itemId: string, content: ReportContent) {
  return unlessMuted(client, () => client.items.insert(config.collectionId, { [config.itemField]: itemId, ...content }));
}

/** Changes a report's text, rating and day, leaving what it is about and who wrote it alone. */
export function editReport(client: WixClient, config: MemberReportsConfig, reportId: string, content: ReportContent) {
  return unlessMuted(client, () => {
    let patch = client.items.patch(config.collectionId, reportId);
    for (const [field, value] of Object.entries(content)) patch = patch.setField(field, value);
    return patch.run();
  });
}

export function removeReport(client: WixClient, config: MemberReportsConfig, reportId: string) {
  return refusedOr(() => client.items.remove(config.collectionId, reportId));
}

/** How many of a member's reports one query finds for removal at a time. */
const REMOVAL_BATCH = 100;

/**
 * Removes every report a member wrote, with their own client (so before their account goes):
 * the collections it removed reports from. A report the platform will not remove fails the whole
 * call, so an account is never deleted with reports left that the member asked to remove.
 */
export async function removeReportsBy(client: WixClient, collections: CollectionWithReports[], memberId: string): Promise<string[]> {
  const changed: string[] = [];
  for (const { memberReports } of collections) {
    for (;;) {
      const { items } = await client.items.query(memberReports.collectionId, { filter: { _owner: memberId }, paging: { limit: REMOVAL_BATCH } });
      const ids = items.flatMap((item) => (item._id ? [item._id] : []));
      if (ids.length === 0) break;
      const { removed } = await client.items.bulkRemove(memberReports.collectionId, ids);
      if (removed < ids.length) throw new Error(`the platform removed ${removed} of ${ids.length} reports in ${memberReports.collectionId}`);
      if (!changed.includes(memberReports.collectionId)) changed.push(memberReports.collectionId);
    }
  }
  return changed;
}
