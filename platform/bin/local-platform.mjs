#!/usr/bin/env node
// `npx local-wix-platform [command] [--port N] [--data DIR]`: the local platform's CLI, run from
// its TypeScript sources through tsx (the package ships no build step).
import { register } from "tsx/esm/api";

register();
await import("../cli.ts");
