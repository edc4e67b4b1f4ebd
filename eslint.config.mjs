import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

export default defineConfig([
  globalIgnores([
    ".next/**",
    "node_modules/**",
    ".data/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
    "platform/studio/dist/**",
    // The Astro example's build output and generated types; its own sources are .astro pages.
    "platform/examples/astro-app/dist/**",
    "platform/examples/astro-app/.astro/**",
    ".tools/**",
  ]),
  ...nextVitals,
  ...nextTypescript,
]);
