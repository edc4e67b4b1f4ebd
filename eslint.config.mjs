import { FlatCompat } from "@eslint/eslintrc";

const compat = new FlatCompat({ baseDirectory: import.meta.dirname });

const config = [
  { ignores: [".next/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "platform/studio/dist/**"] },
  ...compat.extends("next/core-web-vitals", "next/typescript"),
];

export default config;
