/** "7 of 12 places left", "Full: all 12 places are taken", or nothing for an outing without a limit. */
export function placesLeftText(left: number | undefined, capacity: number | undefined): string {
  if (left === undefined || capacity === undefined) return "";
  if (left === 0) return `Full: all ${capacity} places are taken`;
  return `${left} of ${capacity} ${capacity === 1 ? "place" : "places"} left`;
}

export function PlacesLeft({ left, capacity, className = "" }: { left: number | undefined; capacity: number | undefined; className?: string }) {
  const text = placesLeftText(left, capacity);
  return text ? (
    <p className={className} data-testid="places-left">
      {text}
    </p>
  ) : null;
}
