/**
 * Debian's Chromium, as the browser tests and the Lighthouse audit run it: no sandbox (CI runs
 * as root), and none of the background traffic a machine without internet access cannot answer.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const chromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
