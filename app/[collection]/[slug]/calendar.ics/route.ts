import { calendarResponse } from "@/lib/outings/calendar-response";
import { decodedSegment } from "@/lib/search-params";
import { collectionByRoute } from "@/lib/site-config";
import { itemBySlug, whenAvailable } from "@/lib/wix/collections";

type Context = { params: Promise<{ collection: string; slug: string }> };

/** "Add to calendar" for a public outing: the same file for everyone, from the cached item. */
export async function GET(_request: Request, { params }: Context): Promise<Response> {
  const { collection: route, slug } = await params;
  const collection = collectionByRoute(route);
  if (!collection?.outing) return new Response("Not found.\n", { status: 404 });
  const read = await whenAvailable(() => itemBySlug(collection, decodedSegment(slug)));
  if (!read.reachable) return new Response("The club's database cannot be reached just now. Please try again in a minute.\n", { status: 503 });
  if (!read.value) return new Response("Not found.\n", { status: 404 });
  return calendarResponse({ ...collection, outing: collection.outing }, read.value.item, "everyone");
}
