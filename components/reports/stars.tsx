/** Five stars, `filled` of them full, read out as `label` ("Rated 4 of 5"). */
export function Stars({ filled, label }: { filled: number; label: string }) {
  const full = Math.min(5, Math.max(0, Math.round(filled)));
  return (
    <span role="img" className="text-amber-800" aria-label={label}>
      {"★".repeat(full)}
      {"☆".repeat(5 - full)}
    </span>
  );
}
