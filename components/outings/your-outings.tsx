import Link from "next/link";
import { FieldValueView } from "@/components/collection/field-value";
import type { JoinedOuting } from "@/lib/wix/signups";
import { RsvpButton, RsvpFeedback } from "./rsvp-button";

/**
 * The account page's list of the outings the member has joined, each with its cancel button; what
 * a cancel says stands above the list, which no longer has that outing.
 */
export function YourOutings({ outings }: { outings: JoinedOuting[] }) {
  return (
    <div className="space-y-3">
      <RsvpFeedback>
        <OutingList outings={outings} />
      </RsvpFeedback>
    </div>
  );
}

function OutingList({ outings }: { outings: JoinedOuting[] }) {
  if (outings.length === 0) {
    return (
      <p className="text-stone-700">
        You have not joined any outings yet.{" "}
        <Link href="/outings" className="font-medium text-pine-700 underline underline-offset-2">
          See what is planned
        </Link>
        .
      </p>
    );
  }
  return (
    <ul className="space-y-3" aria-label="Outings you have joined">
      {outings.map(({ collection, item }) => {
        const starts = item.fields[collection.outing.startsField];
        return (
          <li
            key={`${collection.collectionId}-${item.id}`}
            className="flex flex-wrap items-start justify-between gap-3 rounded-xl border border-stone-200 bg-white p-4"
          >
            <div>
              <Link href={item.href} className="font-medium text-pine-800 underline underline-offset-2 hover:text-pine-900">
                {item.title}
              </Link>
              {starts && (
                <p className="text-sm text-stone-700">
                  <FieldValueView value={starts.value} />
                </p>
              )}
            </div>
            <RsvpButton intent="cancel" route={collection.route} outingId={item.id} />
          </li>
        );
      })}
    </ul>
  );
}
