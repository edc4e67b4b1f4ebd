import { defineConfig } from "vitest/config";

/** The platform's own tests, run from its folder (`npm test -w @ridgeline/local-platform`); the site's `npm test` runs them too. */
export default defineConfig({
  test: {
    include: ["**/*.test.{ts,tsx}"],
    // The Astro example has node_modules of its own (it is not a workspace).
    exclude: ["**/node_modules/**"],
    environment: "node",
    pool: "forks",
    testTimeout: 20_000,
    env: { LOCAL_PLATFORM_DATA_DIR: ".data/test" },
  },
});
