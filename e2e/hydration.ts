import type { Locator } from "@playwright/test";

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
