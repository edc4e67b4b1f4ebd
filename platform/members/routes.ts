import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { PlatformError } from "../http/errors";
import { decodeQueryParams } from "../http/request-params";
import { FIELDSETS, toMemberWire } from "./wire";

/** `fieldsets` arrives as one string or a repeated key (wire contract §1.5); at most 3 values. */
const fieldsetsParam = z
  .union([z.enum(FIELDSETS), z.array(z.enum(FIELDSETS)).max(3)])
  .optional()
  .transform((value) => (value === undefined ? (["PUBLIC"] as const) : Array.isArray(value) ? value : [value]));

export function registerMemberRoutes(app: FastifyInstance, ctx: PlatformContext) {
  // members.getCurrentMember({fieldsets}) → {member}
  app.get("/members/v1/members/my", async (request) => {
    const caller = ctx.callerOf(request);
    if (caller.kind !== "member") {
      throw new PlatformError(403, "PERMISSION_DENIED", "getCurrentMember needs a signed-in member's token; this caller is not a member.");
    }
    const query = decodeQueryParams(request.query as Record<string, string | string[] | undefined>);
    const fieldsets = fieldsetsParam.safeParse(query.fieldsets);
    if (!fieldsets.success) {
      throw new PlatformError(400, "INVALID_ARGUMENT", `fieldsets must be up to three of ${FIELDSETS.join(", ")}.`);
    }
    const identity = ctx.identities.get(caller.id);
    if (!identity) throw new PlatformError(404, "NOT_FOUND", "The current member no longer exists.");
    return { member: toMemberWire(identity, fieldsets.data) };
  });
}
