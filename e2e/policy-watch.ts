import type { Page } from "@playwright/test";

/**
 * Collects every refusal by the security policy on this page from now on, across navigations:
 * the `securitypolicyviolation` event and Chromium's console line for it. The returned function
 * hands over what was collected since it was last called.
 */
export async function watchPolicy(page: Page): Promise<() => string[]> {
  const refusals: string[] = [];
  const where = () => new URL(page.url()).pathname;
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load)/i.test(message.text())) refusals.push(`${where()}: ${message.text()}`);
  });
  await page.exposeFunction("reportPolicyRefusal", (refusal: string) => refusals.push(`${where()}: ${refusal}`));
  await page.addInitScript(() => {
    const report = (window as unknown as { reportPolicyRefusal: (refusal: string) => void }).reportPolicyRefusal;
    document.addEventListener("securitypolicyviolation", (event) => report(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return () => refusals.splice(0);
}
