import { readAsMember, requireMember } from "@/lib/auth/request-session";
import { calendarResponse } from "@/lib/outings/calendar-response";
import { decodedSegment } from "@/lib/search-params";
import { memberOutings } from "@/lib/site-config";
import { whenAvailable } from "@/lib/wix/collections";
import { outingBySlug } from "@/lib/wix/signups";

type Context = { params: Promise<{ slug: string }> };

/** "Add to calendar" for a members' outing: members only (a visitor is sent to log in), read with their own session. */
export async function GET(_request: Request, { params }: Context): Promise<Response> {
  const { slug } = await params;
  const page = `/${memberOutings.route}/${slug}`;
  const session = await requireMember(page);
  const read = await whenAvailable(() => readAsMember(session, page, (client) => outingBySlug(client, memberOutings, decodedSegment(slug))));
  if (!read.reachable) return new Response("The club's database cannot be reached just now. Please try again in a minute.\n", { status: 503 });
  if (!read.value) return new Response("Not found.\n", { status: 404 });
  return calendarResponse(memberOutings, read.value, "members");
}
