import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../../context";
import { invalidArgument } from "../../http/errors";

const MAILBOX_QUERY = z.object({
  to: z.string().trim().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** The outbox, newest first, optionally to the addresses and numbers that have `to` in them (a whole address, a name, a domain). */
export function registerMailboxApi(api: FastifyInstance, ctx: PlatformContext) {
  api.get("/mailbox", async (request) => {
    const query = MAILBOX_QUERY.safeParse(request.query ?? {});
    if (!query.success) throw invalidArgument("Give `to` as (part of) an address or phone number and `limit` from 1 to 500.");
    const { to, limit } = query.data;
    return { messages: to ? ctx.outbox.matching(to, limit) : ctx.outbox.list(undefined, limit) };
  });
}
