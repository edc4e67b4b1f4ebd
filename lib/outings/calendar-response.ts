import "server-only";
import { siteUrl } from "@/lib/auth/responses";
import { getConfig } from "@/lib/config";
import type { CollectionWithOutings } from "@/lib/site-config";
import type { FieldValue, SiteItem } from "@/lib/wix/site-item";
import { calendarFile } from "./ics";

/** A detail as calendar text: times with their zone ("Meeting time: 06:15 MST"), words, referenced titles. */
function plainText(value: FieldValue): string | undefined {
  if (value.type === "time") return value.zone ? `${value.text} ${value.zone}` : value.text;
  if (value.type === "text" || value.type === "plain") return value.text;
  if (value.type === "reference") return value.title;
  return undefined;
}

/** How long an outing without its own length is taken to last: a calendar entry needs an end. */
const DEFAULT_HOURS = 2;

/**
 * The outing's .ics download: from its start to its end (its length in hours), where it starts
 * (its trail's trailhead) as the location. `audience` "members" keeps it out of shared caches: a
 * members-only outing's file is for the member who asked.
 */
export function calendarResponse(collection: CollectionWithOutings, item: SiteItem, audience: "everyone" | "members"): Response {
  const { startsAt, timeZone, hours = DEFAULT_HOURS, place } = item.outing ?? {};
  if (!startsAt || !timeZone) return new Response("This outing has no start time yet, so it cannot go in a calendar.\n", { status: 404 });
  const details = collection.detailFields.flatMap((key) => {
    const field = item.fields[key];
    const text = field && key !== collection.outing.startsField && key !== collection.summaryField ? plainText(field.value) : undefined;
    return text ? [`${field.label}: ${text}`] : [];
  });
  const url = siteUrl(item.href).href;
  const body = calendarFile({
    // The site's own host and port: two sites (or two local copies) never share an outing's UID.
    uid: `${collection.collectionId}-${item.id}@${getConfig().siteUrl.host}`,
    startsAt,
    endsAt: new Date(Date.parse(startsAt) + hours * 3_600_000).toISOString(),
    timeZone,
    title: item.title,
    description: [item.summary, ...details, url].filter(Boolean).join("\n"),
    ...(place && { location: place }),
    url,
    stamp: new Date(),
  });
  return new Response(body, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": `attachment; filename="${encodeURIComponent(item.slug)}.ics"`,
      "cache-control": audience === "members" ? "private, no-store" : "public, max-age=300",
    },
  });
}
