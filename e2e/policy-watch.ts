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

/**
 * Collects what shows that the App Router fetched a URL that is answered by a redirect to
 * `origin` (the platform's), where it should have navigated: a fetch or XHR the page made to
 * that origin, and the router's console error when its fetch failed and it fell back to a full
 * navigation. Frames and the page itself going there are navigations, and are not collected.
 */
export function watchFetchesTo(page: Page, origin: string): () => string[] {
  const fetched: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).origin === origin && request.resourceType() !== "document") fetched.push(`${request.resourceType()} ${request.url()}`);
  });
  page.on("console", (message) => {
    if (message.text().includes("Failed to fetch RSC payload")) fetched.push(message.text());
  });
  return () => fetched.splice(0);
}
