import type { ChildProcess } from "node:child_process";
import type { Page } from "@playwright/test";
import { expect } from "vitest";
import { DEMO_MEMBER } from "../../platform/seed/seed";

/**
 * Test support for the tests that run `npm run dev` as a newcomer does (tests/dev-server.test.ts,
 * tests/fresh-clone.test.ts): its output, and the demo member's login with the site's own form.
 * `next dev` compiles each page at its first request, so their waits are long.
 */

export const FIRST_LOAD_TIMEOUT = 90_000;

/** Everything the process prints, as it comes. */
export function collectOutput(child: ChildProcess): () => string {
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return () => output;
}

/** Resolves once the output matches, rejects if the process ends first. */
export function waitForOutput(child: ChildProcess, output: () => string, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => pattern.test(output()) && resolve();
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.on("exit", (code, signal) => reject(new Error(`npm run dev ended (${signal ?? code}):\n${output()}`)));
  });
}

/** The demo member logs in with the site's form and lands on their account page. */
export async function logInAsDemoMember(page: Page): Promise<void> {
  await page.goto("/login?returnTo=%2Faccount", { timeout: FIRST_LOAD_TIMEOUT });
  await page.getByLabel("E-mail").fill(DEMO_MEMBER.email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_MEMBER.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Your account" }).waitFor({ timeout: FIRST_LOAD_TIMEOUT });
  expect(await page.getByTestId("member-name").textContent()).toBe(DEMO_MEMBER.nickname);
}
