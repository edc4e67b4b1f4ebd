import "server-only";
import { siteUrl } from "@/lib/auth/responses";
import { getConfig } from "@/lib/config";
import type { CollectionWithOutings } from "@/lib/site-config";
import type { FieldValue, SiteItem } from "@/lib/wix/site-item";
import { calendarFile } from "./ics";

/** A detail as calendar text: times with their zone ("Meet at: 06:15 MST"), words, referenced titles. */
function plainText(value: FieldValue): string | undefined {
  if (value.type === "time") return value.zone ? `${value.text} ${value.zone}` : value.text;
  if (value.type === "text" || value.type === "plain") return value.text;
  if (value.type === "reference") return value.title;
  return undefined;
}

/**
 * The outing's .ics download. `audience` "members" keeps it out of shared caches: a
 * members-only outing's file is for the member who asked.
 */
export function calendarResponse(collection: CollectionWithOutings, item: SiteItem, audience: "everyone" | "members"): Response {
  const { startsAt, timeZone } = item.outing ?? {};
  if (!startsAt || !timeZone) return new Response("This outing has no start time yet, so it cannot go in a calendar.\n", { status: 404 });
  const details = collection.detailFields.flatMap((key) => {
    const field = item.fields[key];
    const text = field && key !== collection.outing.startsField && key !== collection.summaryField ? plainText(field.value) : undefined;
    return text ? [`${field.label}: ${text}`] : [];
  });
  const location = Object.values(item.fields).find((field) => field.value.type === "reference");
  const url = siteUrl(item.href).href;
  const body = calendarFile({
    uid: `${collection.collectionId}-${item.id}@${getConfig().siteUrl.hostname}`,
    startsAt,
    timeZone,
    title: item.title,
    description: [item.summary, ...details, url].filter(Boolean).join("\n"),
    ...(location && { location: plainText(location.value) }),
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
