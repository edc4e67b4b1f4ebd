import type { Locator, Page } from "@playwright/test";

/**
 * Waits until React has hydrated the element: before that, a server-rendered button ignores
 * keys and clicks, and a test that presses them early fails on a slow machine. React keeps its
 * props on hydrated DOM nodes under a `__reactProps` key.
 */
export async function hydrated(element: Locator): Promise<Locator> {
  await element.evaluate(
    (node) =>
      new Promise<void>((resolve) => {
        const check = () => (Object.keys(node).some((key) => key.startsWith("__reactProps")) ? resolve() : setTimeout(check, 20));
        check();
      }),
  );
  return element;
}

/**
 * Holds the page's scripts back, as a slow phone would, until the returned function is called:
 * until then the page is its server HTML alone, and its forms post natively.
 */
export async function holdPageScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
