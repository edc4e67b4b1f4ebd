import type { FastifyInstance } from "fastify";
import type { PlatformContext } from "../context";
import { createDataServices } from "./routes/common";
import { registerAggregateRoutes } from "./routes/aggregate";
import { registerBulkRoutes } from "./routes/bulk";
import { registerCollectionRoutes } from "./routes/collections";
import { registerItemRoutes } from "./routes/items";
import { registerQueryRoutes } from "./routes/query";
import { registerReferenceRoutes } from "./routes/references";

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./routes/query";

/** The data service: items, bulk, references, aggregations and collections under `/wix-data/v2`. */
export function registerDataRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const services = createDataServices(ctx);
  registerQueryRoutes(app, services);
  registerItemRoutes(app, services);
  registerBulkRoutes(app, services);
  registerReferenceRoutes(app, services);
  registerAggregateRoutes(app, services);
  registerCollectionRoutes(app, services);
}
