import type { FastifyBaseLogger } from "fastify";
import type { PlatformContext } from "./context";

/** One sweep of every store: rows that can no longer be used (docs/platform/operations.md §2). */
export function pruneExpired(ctx: PlatformContext) {
  return {
    tokens: ctx.tokens.prune(ctx.config.visitorTokenIdleSeconds),
    authorizationCodes: ctx.codes.prune(),
    redirectSessions: ctx.redirects.prune(),
    loginSessions: ctx.loginSessions.prune(),
    hostedFormStates: ctx.formStates.prune(),
    verifications: ctx.verifications.prune(),
    recoveryTokens: ctx.recoveries.prune(),
    deletedCollections: ctx.data.trash.prune(),
  };
}

/** Sweeps every `pruneIntervalSeconds`; the timer never keeps the process alive. Returns what stops it. */
export function startPruning(ctx: PlatformContext, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    try {
      log.debug({ pruned: pruneExpired(ctx) }, "pruned expired rows");
    } catch (error) {
      log.warn({ err: error }, "pruning expired rows failed");
    }
  }, ctx.config.pruneIntervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
