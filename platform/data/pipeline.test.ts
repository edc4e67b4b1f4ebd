import { items } from "@wix/data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection } from "./test-support";

/** The aggregation pipeline, built with the SDK's own stage and expression builders. */

let platform: TestPlatform;
const { stages, expressions, pipelineBuilder } = items;
const run = (...pipelineStages: unknown[]) =>
  platform.visitorClient().items.aggregatePipeline(
    "Orders",
    pipelineBuilder()
      .withStages(pipelineStages as never)
      .build(),
  );

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    "Orders",
    [
      { key: "shop", type: "TEXT" },
      { key: "total", type: "NUMBER" },
    ],
    { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
  );
  await platform.adminClient().items.bulkInsert("Orders", [
    { _id: "o1", shop: "north", total: 10, qty: 2, lines: ["tent", "mat"], stock: { red: 1, blue: 2 } },
    { _id: "o2", shop: "north", total: 30, qty: 1, lines: ["stove"] },
    { _id: "o3", shop: "south", total: 5, qty: 5, lines: [] },
    { _id: "o4", shop: "south", total: 20, qty: 4 },
  ]);
});
afterAll(() => platform.close());

describe("aggregation pipeline", () => {
  it("filters, groups with accumulators and sorts", async () => {
    const { results } = await run(
      stages.filter().gt("total", 5),
      stages
        .group()
        .by(expressions.field("shop"), "shop")
        .sum(expressions.field("total"), "sum")
        .count("n")
        .avg(expressions.field("total"), "avg")
        .max(expressions.field("total"), "max")
        .push(expressions.field("_id"), "ids"),
      stages.sort().descending("sum"),
    );
    expect(results).toEqual([
      { _id: { shop: "north" }, sum: 40, n: 2, avg: 20, max: 30, ids: ["o1", "o2"] },
      { _id: { shop: "south" }, sum: 20, n: 1, avg: 20, max: 20, ids: ["o4"] },
    ]);
  });

  it("reshapes with arithmetic and text expressions, and excludes fields", async () => {
    const { results } = await run(
      stages.sort().ascending("_id"),
      stages
        .project()
        .include("shop")
        .reshape(expressions.multiply(expressions.field("total"), expressions.field("qty")), "value")
        .reshape(expressions.toUpper(expressions.field("shop")), "loud"),
      stages.limit(2),
    );
    expect(results).toEqual([
      { _id: "o1", shop: "north", value: 20, loud: "NORTH" },
      { _id: "o2", shop: "north", value: 30, loud: "NORTH" },
    ]);
    const excluded = await run(
      stages.sort().ascending("_id"),
      stages.project().exclude("lines", "stock", "_createdDate", "_updatedDate", "_owner"),
      stages.skip(3),
    );
    expect(excluded.results).toEqual([{ _id: "o4", shop: "south", total: 20, qty: 4 }]);
  });

  it("unwinds arrays, one result per element, dropping empty and missing arrays", async () => {
    const { results } = await run(stages.sort().ascending("_id"), stages.unwind("lines"), stages.project().include("lines"));
    expect(results).toEqual([
      { _id: "o1", lines: "tent" },
      { _id: "o1", lines: "mat" },
      { _id: "o2", lines: "stove" },
    ]);
  });

  it("projects nested objects: includes under the parent, expressions over the whole item", async () => {
    const { results } = await run(
      stages.sort().ascending("_id"),
      stages
        .project()
        .include("shop")
        .projectNested(stages.project().include("red").exclude("blue").reshape(expressions.field("total"), "total"), "stock"),
      stages.limit(2),
    );
    expect(results).toEqual([
      { _id: "o1", shop: "north", stock: { red: 1, total: 10 } },
      { _id: "o2", shop: "north", stock: { total: 30 } },
    ]);
    const excludedOnly = await run(
      stages.sort().ascending("_id"),
      stages.project().include("shop").projectNested(stages.project().exclude("blue"), "stock"),
      stages.limit(1),
    );
    expect(excludedOnly.results).toEqual([{ _id: "o1", shop: "north", stock: { red: 1 } }]);
  });

  it("turns an object into k/v pairs", async () => {
    const { results } = await run(stages.objectToArray("stock", "pairs"), stages.project().include("pairs"));
    expect(results).toEqual([
      {
        _id: "o1",
        pairs: [
          { k: "red", v: 1 },
          { k: "blue", v: 2 },
        ],
      },
    ]);
  });

  it("pages results and counts them", async () => {
    const response = await platform.visitorClient().items.aggregatePipeline(
      "Orders",
      pipelineBuilder()
        .withStages([stages.sort().ascending("total")] as never)
        .withPaging({ limit: 3, offset: 1 })
        .build(),
      { returnTotalCount: true } as never,
    );
    expect(response.results?.map((r) => (r as { _id: string })._id)).toEqual(["o1", "o4", "o2"]);
    expect(response.pagingMetadata).toMatchObject({ count: 3, total: 4, hasNext: false });
  });

  it("rejects unsupported stages with a 400", async () => {
    const response = await fetch("https://www.wixapis.com/wix-data/v2/items/aggregate-pipeline", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dataCollectionId: "Orders", pipeline: { stages: [{ lookup: {} }] } }),
    });
    expect(response.status).toBe(400);
    expect(await codeOf(platform.visitorClient().items.aggregatePipeline("Nope", { stages: [] } as never))).toBe("WDE0025");
  });
});
