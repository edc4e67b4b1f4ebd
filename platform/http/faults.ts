import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { faultInjected, invalidArgument } from "./errors";

/**
 * Fault mode (docs/platform/operations.md §3): the platform misbehaves on purpose, per path
 * prefix, so the site's handling of a slow, failing or broken platform can be tested against
 * the real server. `/_local/*` is never affected, so faults can always be read and cleared.
 */

const rate = z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1");

export const faultRuleSchema = z
  .strictObject({
    /** Requests whose path starts with this; the longest matching prefix wins. */
    pathPrefix: z.string().startsWith("/", "must start with /").max(200),
    /** Waited before anything else happens to the request. */
    latencyMs: z.number().int().min(0).max(120_000).default(0),
    /** Share of requests answered with `errorStatus` in the error envelope. */
    errorRate: rate.default(0),
    errorStatus: z.number().int().min(500).max(599).default(503),
    /** Share of requests whose connection is closed without an answer. */
    dropRate: rate.default(0),
    /** Share of requests answered 200 with a body that is not JSON. */
    garbageRate: rate.default(0),
  })
  .refine((rule) => rule.errorRate + rule.dropRate + rule.garbageRate <= 1, "errorRate, dropRate and garbageRate add up to more than 1")
  .refine((rule) => !rule.pathPrefix.startsWith("/_local"), "/_local paths are never faulted");

export const faultsSchema = z.strictObject({ rules: z.array(faultRuleSchema).max(50) });

export type FaultRule = z.infer<typeof faultRuleSchema>;

/** The rules of a `{ rules: [...] }` body (`PUT /_local/faults`, the Studio); a clear 400 for anything else. */
export function parseFaults(body: unknown): FaultRule[] {
  const parsed = faultsSchema.safeParse(body);
  if (parsed.success) return parsed.data.rules;
  const issue = parsed.error.issues[0];
  throw invalidArgument(`Invalid faults: ${issue.path.join(".") || "body"}: ${issue.message}.`);
}

/** `LOCAL_PLATFORM_FAULTS`: the same JSON as the body of `PUT /_local/faults`, checked when the platform starts. */
export const faultsFromEnv = z
  .string()
  .optional()
  .transform((text, context): FaultRule[] => {
    if (text === undefined || text.trim() === "") return [];
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      context.addIssue({ code: "custom", message: 'must be JSON like {"rules":[{"pathPrefix":"/wix-data/","errorRate":0.5}]}' });
      return z.NEVER;
    }
    const parsed = faultsSchema.safeParse(json);
    if (parsed.success) return parsed.data.rules;
    for (const issue of parsed.error.issues) context.addIssue({ code: "custom", message: `${issue.path.join(".") || "(value)"}: ${issue.message}` });
    return z.NEVER;
  });

/** The faults in force; changed while the platform runs through `/_local/faults`. */
export class FaultStore {
  private rules: FaultRule[];

  constructor(initial: FaultRule[] = []) {
    this.rules = [...initial];
  }

  list(): FaultRule[] {
    return [...this.rules];
  }

  replace(rules: FaultRule[]): FaultRule[] {
    this.rules = [...rules];
    return this.list();
  }

  /** The rule for a path: the one with the longest matching prefix. */
  ruleFor(path: string): FaultRule | undefined {
    if (path.startsWith("/_local/")) return undefined;
    let best: FaultRule | undefined;
    for (const rule of this.rules) if (path.startsWith(rule.pathPrefix) && (!best || rule.pathPrefix.length > best.pathPrefix.length)) best = rule;
    return best;
  }
}

/** What happens to one request under a rule, from one roll of the dice in [0, 1). */
export function faultOutcome(rule: FaultRule, roll: number): "drop" | "error" | "garbage" | "pass" {
  if (roll < rule.dropRate) return "drop";
  if (roll < rule.dropRate + rule.errorRate) return "error";
  if (roll < rule.dropRate + rule.errorRate + rule.garbageRate) return "garbage";
  return "pass";
}

async function applyFault(rule: FaultRule, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (rule.latencyMs > 0) await sleep(rule.latencyMs);
  switch (faultOutcome(rule, Math.random())) {
    case "drop":
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    case "error":
      throw faultInjected(rule.errorStatus);
    case "garbage":
      return reply.status(200).header("content-type", "application/json").send("<html>fault mode: this is not JSON");
    case "pass":
      return undefined;
  }
}

/** Applies the rule for each request's path before it is handled. */
export function registerFaultHook(app: FastifyInstance, faults: FaultStore) {
  app.addHook("onRequest", async (request, reply) => {
    const rule = faults.ruleFor(request.url.split("?")[0]);
    if (rule) return applyFault(rule, request, reply);
  });
}
