import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Next.js resolves this marker itself; in tests every module may import it.
      "server-only": path.resolve(import.meta.dirname, "tests/support/empty-module.ts"),
    },
  },
  test: {
    include: ["platform/**/*.test.{ts,tsx}", "tests/**/*.test.{ts,tsx}"],
    environment: "node",
    pool: "forks",
    setupFiles: ["tests/support/next-cache.ts"],
    testTimeout: 20_000,
    // The site's configuration as tests see it: local mode with a fixed secret.
    env: { SESSION_SECRET: "test-session-secret-0123456789abcdef", LOCAL_PLATFORM_DATA_DIR: ".data/test" },
  },
});
