import { createHash } from "node:crypto";
import path from "node:path";
import { buildSync } from "esbuild";
import type { FastifyInstance } from "fastify";
import { notFound } from "../http/errors";

/** Where the hosted pages' own scripts are served, on the platform's origin. */
const ASSETS_PATH = "/hosted/assets";

type Asset = { path: string; body: string };

let passkeyStep: Asset | undefined;

/**
 * The passkey step's script: passkey-step.ts bundled with @simplewebauthn/browser into one file,
 * once per process. Its name carries its content's hash, so it is cached for good and a page's
 * CSP can allow exactly it.
 */
export function passkeyStepScript(): Asset {
  if (passkeyStep) return passkeyStep;
  const built = buildSync({
    entryPoints: [path.join(import.meta.dirname, "passkey-step.ts")],
    bundle: true,
    minify: true,
    write: false,
    format: "iife",
    target: "es2020",
    legalComments: "none",
  });
  const body = built.outputFiles[0].text;
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 16);
  passkeyStep = { path: `${ASSETS_PATH}/passkey-step.${hash}.js`, body };
  return passkeyStep;
}

/**
 * Serves the hosted pages' scripts: immutable, as their names change with their content. Bundled
 * at the first request that needs one (a page offering passkeys names it), not at start-up.
 */
export function registerHostedAssets(app: FastifyInstance) {
  app.get(`${ASSETS_PATH}/:file`, async (request, reply) => {
    const script = passkeyStepScript();
    if (request.url !== script.path) throw notFound("No such asset.");
    return reply
      .header("content-type", "text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=31536000, immutable")
      .header("x-content-type-options", "nosniff")
      .send(script.body);
  });
}
