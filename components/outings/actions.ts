"use server";

import { z } from "zod";
import { actAsMember, type NotMember } from "@/lib/auth/request-session";
import { logger } from "@/lib/observability/log";
import { outingCollectionByRoute, type CollectionWithOutings } from "@/lib/site-config";
import { TAGS, updateTags } from "@/lib/wix/cache";
import type { WixClient } from "@/lib/wix/client";
import { describeFailure } from "@/lib/wix/errors";
import { joinRoster, leaveRoster } from "@/lib/wix/rosters";
import { cancelOuting, joinOuting, memberIdOf, type JoinOutcome } from "@/lib/wix/signups";

/** What the join and cancel buttons show after a press: a confirmation or an error. */
export type RsvpState = { done?: string; error?: string };

const NOT_MEMBER: Record<NotMember["reason"], string> = {
  "signed-out": "Log in to join outings.",
  "session-ended": "Your session has ended. Log in again, then join the outing.",
};

const JOINED: Record<JoinOutcome, RsvpState> = {
  joined: { done: "You're going. See you there!" },
  "already-joined": { done: "You had already joined this outing." },
  full: { error: "Sorry, this outing is full: there are no places left." },
  "not-found": { error: "This outing no longer exists." },
};

const UNAVAILABLE = "We could not reach the club's database. Nothing was changed; please try again in a minute.";

/** The hidden fields the button sends: join or cancel, which outings page, and which outing. */
const rsvpFields = z.object({ intent: z.enum(["join", "cancel"]), route: z.string().max(100), outingId: z.string().min(1).max(100) });

type Rsvp = (client: WixClient, collection: CollectionWithOutings, outingId: string, memberId: string) => Promise<RsvpState>;

/**
 * The roster entry (the member's name, for the organiser) is written before the place is taken and
 * removed before it is given back: a failure in between leaves an entry without a place, which
 * names nobody (lib/wix/rosters.ts), or a place the organiser sees counted but not named.
 */
const ACTS: Record<z.infer<typeof rsvpFields>["intent"], { what: string; act: Rsvp }> = {
  join: {
    what: "Joining an outing",
    act: async (...args) => {
      await joinRoster(...args);
      const outcome = await joinOuting(...args);
      if (outcome === "full" || outcome === "not-found") await leaveRoster(...args);
      return JOINED[outcome];
    },
  },
  cancel: {
    what: "Cancelling a sign-up",
    act: async (...args) => {
      await leaveRoster(...args);
      await cancelOuting(...args);
      return { done: "Your place is cancelled." };
    },
  },
};

/**
 * A member joins an outing or cancels their place, with their own session; every outcome is
 * a message for the button. One action for both, so the message survives the button changing.
 */
export async function rsvpAction(_previous: RsvpState, formData: FormData): Promise<RsvpState> {
  const parsed = rsvpFields.safeParse({ intent: formData.get("intent"), route: formData.get("route"), outingId: formData.get("outingId") });
  const collection = parsed.success ? outingCollectionByRoute(parsed.data.route) : undefined;
  if (!parsed.success || !collection) return { error: "This page does not take sign-ups. Reload it and try again." };
  const { what, act } = ACTS[parsed.data.intent];
  let outcome;
  try {
    outcome = await actAsMember(async (client, session) => act(client, collection, parsed.data.outingId, await memberIdOf(client, session.member?.id)));
  } catch (error) {
    logger().error({ failure: describeFailure(error) }, `${what} failed`);
    return { error: UNAVAILABLE };
  }
  if (!outcome.ok) return { error: NOT_MEMBER[outcome.reason] };
  // Places left are cached for everyone: the outing's public page shows the change at once.
  updateTags([TAGS.collection(collection.outing.signupsCollectionId)]);
  return outcome.value;
}
