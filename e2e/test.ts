import { createHash } from "node:crypto";
import { test as base } from "@playwright/test";

export { expect } from "@playwright/test";

/**
 * Each test is a visitor of its own, at an address of its own (198.18.0.0/15, kept for tests):
 * the site under test trusts X-Forwarded-For (playwright.config.ts), so the per-address limits
 * (20 sign-ups an hour, say) count each test's requests apart, as they would count the many
 * visitors a whole run stands for, and no test spends another's allowance.
 */
export const test = base.extend<{ visitorAddress: string }>({
  visitorAddress: [
    async ({ context }, use, testInfo) => {
      const [a, b] = createHash("sha256").update(`${testInfo.testId}:${testInfo.retry}`).digest();
      const address = `198.${18 + (a & 1)}.${b}.${(a >> 1) + 1}`;
      await context.setExtraHTTPHeaders({ "x-forwarded-for": address });
      await use(address);
    },
    { auto: true },
  ],
});
