/**
 * When a browser pre-warms the member's session on the platform's pages (the SDK's
 * `syncToWixPages` rules): at most once per 7 days, the time of the last run kept in
 * localStorage under the SDK's own key. Shared by the browser component and its tests.
 */
export const PREWARM_STORAGE_KEY = "wixRedirectSessionLastPreWarm";
export const PREWARM_INTERVAL_MS = 7 * 24 * 60 * 60 * 1000;

/** Whether a pre-warm is due, from the stored time of the last one (ms since the epoch, as text). */
export function prewarmDue(lastRun: string | null, now: number): boolean {
  const last = Number(lastRun);
  return !lastRun || !Number.isFinite(last) || now - last >= PREWARM_INTERVAL_MS;
}
