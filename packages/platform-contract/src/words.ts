/**
 * Words the site's forms and the platform's hosted pages both say to the same people, so a wait
 * reads alike wherever it is shown. Plain functions: the site's browser code imports this file.
 */

/** How long to wait, in words, rounded up: "30 seconds", "1 minute", "15 minutes", "24 hours". */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `${Math.ceil(minutes / 60)} hours`;
}
