import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type RecordedRequest, type TestPlatform } from "../testing";
import { codeOf, createCollection, memberClient } from "./test-support";

/**
 * Offset pages hand back self-contained cursors, so the real `@wix/data` client's `next()` and
 * `prev()` continue by cursor (sending neither filter nor sort) and see what the offset pages show.
 */

let platform: TestPlatform;
const STEPS = 260;
const id = (n: number) => `s${String(n).padStart(3, "0")}`;

type Paging = { count: number; offset?: number; total?: number; hasNext: boolean; cursors?: { next?: string; prev?: string } };
type Answer = { status: number; dataItems: { id: string; data: Record<string, unknown> }[]; pagingMetadata: Paging; code?: string };

async function post(path: string, body: unknown, authorization?: string): Promise<Answer> {
  const response = await fetch(`https://www.wixapis.com/wix-data/v2${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(authorization && { authorization }) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Omit<Answer, "status"> & { details?: { applicationError?: { code?: string } } };
  return { ...json, status: response.status, code: json.details?.applicationError?.code };
}
const query = (body: Record<string, unknown>) => post("/items/query", { dataCollectionId: "Steps", ...body });
const ids = (answer: Answer) => answer.dataItems.map((item) => item.id);

/** The data calls recorded while `run` ran, with their `query` (or `search`) part. */
async function dataCalls(run: () => Promise<unknown>, path = "/wix-data/v2/items/query") {
  const recorder = platform.recordRequests();
  try {
    await run();
  } finally {
    recorder.stop();
  }
  return recorder.requests.filter((request: RecordedRequest) => request.path === path).map((request) => request.body ?? {});
}

beforeAll(async () => {
  platform = await startTestPlatform();
  const anyone = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;
  await createCollection(
    platform,
    "Steps",
    [
      { key: "n", type: "NUMBER" },
      { key: "group", type: "TEXT" },
    ],
    anyone,
  );
  await createCollection(
    platform,
    "Routes",
    [{ key: "steps", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Steps" } } }],
    anyone,
  );
  await createCollection(platform, "Diary", [{ key: "n", type: "NUMBER" }], {
    read: "SITE_MEMBER_AUTHOR",
    insert: "SITE_MEMBER",
    update: "SITE_MEMBER_AUTHOR",
    remove: "SITE_MEMBER_AUTHOR",
  });
  await createCollection(platform, "Vault", [{ key: "n", type: "NUMBER" }], { read: "ADMIN", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
  const admin = platform.adminClient().items;
  await admin.bulkInsert(
    "Steps",
    Array.from({ length: STEPS }, (_, n) => ({ _id: id(n), n, group: `g${n % 4}` })),
  );
  await admin.insert("Routes", { _id: "r1" });
  await admin.insertReference(
    "Routes",
    "steps",
    "r1",
    Array.from({ length: 12 }, (_, n) => id(n)),
  );
  await admin.bulkInsert(
    "Vault",
    Array.from({ length: 6 }, (_, n) => ({ _id: `v${n}`, n })),
  );
  for (const member of ["m-ann", "m-bob"]) {
    await memberClient(platform, member).items.bulkInsert(
      "Diary",
      Array.from({ length: 7 }, (_, n) => ({ _id: `${member}-${n}`, n })),
    );
  }
});
afterAll(() => platform.close());

describe("offset pages over raw HTTP", () => {
  const filter = { group: { $ne: "g0" } };
  const sort = [{ fieldName: "n", order: "DESC" }];

  it("carry a next cursor, a prev cursor past the start, and neither on a single page", async () => {
    const first = await query({ query: { filter, sort, paging: { limit: 10 } }, returnTotalCount: true });
    expect(first.pagingMetadata).toMatchObject({ count: 10, offset: 0, total: 195, hasNext: true });
    expect(typeof first.pagingMetadata.cursors?.next).toBe("string");
    expect(first.pagingMetadata.cursors?.prev).toBeUndefined();

    const later = await query({ query: { filter, sort, paging: { limit: 10, offset: 30 } } });
    expect(typeof later.pagingMetadata.cursors?.prev).toBe("string");
    const last = await query({ query: { filter, sort, paging: { limit: 10, offset: 190 } } });
    expect([last.pagingMetadata.count, last.pagingMetadata.hasNext, last.pagingMetadata.cursors?.next]).toEqual([5, false, undefined]);

    const single = await query({ query: { filter: { n: { $lt: 3 } }, paging: { limit: 10 } } });
    expect(single.pagingMetadata).toMatchObject({ count: 3, hasNext: false });
    expect(single.pagingMetadata.cursors).toEqual({});
  });

  it("continue by cursor alone with the filter and sort of the offset query, page for page", async () => {
    let page = await query({ query: { filter, sort, paging: { limit: 25, offset: 5 } } });
    for (let offset = 30; page.pagingMetadata.cursors?.next; offset += 25) {
      const byCursor = await query({ query: { cursorPaging: { cursor: page.pagingMetadata.cursors.next } } });
      expect(ids(byCursor)).toEqual(ids(await query({ query: { filter, sort, paging: { limit: 25, offset } } })));
      expect(byCursor.pagingMetadata.total).toBeUndefined();
      // Back one page by the cursor it hands back: the page it came from.
      const back = await query({ query: { cursorPaging: { cursor: byCursor.pagingMetadata.cursors!.prev } } });
      expect(ids(back)).toEqual(ids(page));
      page = byCursor;
    }
    expect(page.dataItems.at(-1)?.data.n).toBe(1);
  });

  it("keep the projection, and the search endpoint's expression", async () => {
    const fields = await query({ query: { fields: ["group"], paging: { limit: 2 } } });
    const next = await query({ query: { cursorPaging: { cursor: fields.pagingMetadata.cursors?.next } } });
    expect(Object.keys(next.dataItems[0].data).sort()).toEqual(["_id", "group"]);

    const search = { filter: { n: { $lt: 100 } }, sort: [{ fieldName: "n", order: "ASC" }], search: { expression: "g3" } };
    const found = await post("/items/search", { dataCollectionId: "Steps", search: { ...search, paging: { limit: 10 } } });
    const rest = await post("/items/search", { dataCollectionId: "Steps", search: { cursorPaging: { cursor: found.pagingMetadata.cursors?.next } } });
    expect([...ids(found), ...ids(rest)]).toEqual(Array.from({ length: 20 }, (_, k) => id(4 * k + 3)));
  });

  it("keep their page size past 100: a cursor from an offset page of 150 gives 150, asking for more is WDE0077", async () => {
    const first = await query({ query: { sort: [{ fieldName: "n", order: "ASC" }], paging: { limit: 150 } } });
    const cursor = first.pagingMetadata.cursors?.next;
    const second = await query({ query: { cursorPaging: { cursor } } });
    expect([second.status, second.pagingMetadata.count, second.dataItems[0].id]).toEqual([200, 110, id(150)]);
    expect((await query({ query: { cursorPaging: { cursor, limit: 150 } } })).status).toBe(200);
    expect((await query({ query: { cursorPaging: { cursor, limit: 151 } } })).code).toBe("WDE0077");
    // A cursor page of 100 stays at most 100.
    const small = await query({ query: { cursorPaging: { limit: 100 } } });
    expect((await query({ query: { cursorPaging: { cursor: small.pagingMetadata.cursors?.next, limit: 101 } } })).code).toBe("WDE0077");
  });

  it("give cursors on distinct values, aggregations, pipelines and referenced items too", async () => {
    const distinct = await post("/items/query-distinct-values", { dataCollectionId: "Steps", fieldName: "group", order: "DESC", paging: { limit: 3 } });
    const distinctRest = await post("/items/query-distinct-values", {
      dataCollectionId: "Steps",
      cursorPaging: { cursor: distinct.pagingMetadata.cursors?.next },
    });
    expect([distinct, distinctRest].map((answer) => (answer as unknown as { distinctValues: string[] }).distinctValues)).toEqual([["g3", "g2", "g1"], ["g0"]]);

    type Rows = { results: { _id: string; count: number }[]; pagingMetadata: Paging };
    const aggregation = { groupingFields: ["group"], operations: [{ resultFieldName: "count", itemCount: {} }] };
    const grouped = (await post("/items/aggregate", {
      dataCollectionId: "Steps",
      aggregation,
      sort: [{ fieldName: "group", order: "ASC" }],
      paging: { limit: 2 },
    })) as unknown as Rows;
    const groupedRest = (await post("/items/aggregate", {
      dataCollectionId: "Steps",
      cursorPaging: { cursor: grouped.pagingMetadata.cursors?.next },
    })) as unknown as Rows;
    expect([...grouped.results, ...groupedRest.results].map((row) => row.count)).toEqual([65, 65, 65, 65]);

    const stages = [{ filter: { n: { $lt: 9 } } }, { sort: { values: [{ fieldName: "n", order: "DESC" }] } }];
    const piped = (await post("/items/aggregate-pipeline", { dataCollectionId: "Steps", pipeline: { stages, paging: { limit: 5 } } })) as unknown as Rows;
    const pipedRest = (await post("/items/aggregate-pipeline", {
      dataCollectionId: "Steps",
      pipeline: { cursorPaging: { cursor: piped.pagingMetadata.cursors?.next } },
    })) as unknown as Rows;
    expect([...piped.results, ...pipedRest.results].map((row) => row._id)).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0].map(id));

    type Referenced = { results: { dataItem: { id: string } }[]; pagingMetadata: Paging };
    const referenced = (await post("/items/query-referenced", {
      dataCollectionId: "Routes",
      referringItemIds: ["r1"],
      referringItemFieldName: "steps",
      paging: { limit: 8 },
    })) as unknown as Referenced;
    const referencedRest = (await post("/items/query-referenced", {
      dataCollectionId: "Routes",
      cursorPaging: { cursor: referenced.pagingMetadata.cursors?.next },
    })) as unknown as Referenced;
    expect([...referenced.results, ...referencedRest.results].map((row) => row.dataItem.id)).toEqual(Array.from({ length: 12 }, (_, n) => id(n)));
  });
});

describe("the real @wix/data client", () => {
  it("pages a query forward with next() and back with prev() by cursor, seeing what the offset pages show", async () => {
    const steps = () => platform.visitorClient().items.query("Steps").ne("group", "g1").descending("n").limit(40);
    const offsetPages: string[][] = [];
    for (let skip = 0; skip < 195; skip += 40) offsetPages.push((await steps().skip(skip).find()).items.map((item) => item._id as string));

    const pages: string[][] = [];
    const calls = await dataCalls(async () => {
      let page = await steps().find({ returnTotalCount: true });
      expect([page.hasPrev(), page.totalCount, page.totalPages]).toEqual([false, 195, 5]);
      pages.push(page.items.map((item) => item._id as string));
      while (page.hasNext()) {
        page = await page.next();
        pages.push(page.items.map((item) => item._id as string));
      }
      expect(page.currentPage).toBe(4);
      while (page.hasPrev()) {
        page = await page.prev();
        pages.push(page.items.map((item) => item._id as string));
      }
      expect([page.currentPage, page.hasPrev()]).toEqual([0, false]);
    });
    expect(pages).toEqual([...offsetPages, ...offsetPages.slice(0, -1).reverse()]);

    // The first call goes by offset with the filter and sort; every later one by cursor alone.
    const [first, ...followUps] = calls.map((body) => body.query as Record<string, unknown>);
    expect(first).toMatchObject({ paging: { limit: 40 }, filter: { group: { $ne: "g1" } }, sort: [{ fieldName: "n", order: "DESC" }] });
    expect(followUps).toHaveLength(8);
    for (const sent of followUps) {
      expect(sent.cursorPaging).toMatchObject({ limit: 40, cursor: expect.any(String) });
      expect([sent.paging, sent.filter, sent.sort]).toEqual([undefined, undefined, undefined]);
    }
  });

  it("follows a cursor from the direct form of query, and a page size over 100", async () => {
    const items = platform.visitorClient().items;
    const first = await items.query("Steps", { sort: [{ fieldName: "n", order: "ASC" }], paging: { limit: 150 } });
    const second = await items.query("Steps", { cursorPaging: { limit: 150, cursor: first.pagingMetadata?.cursors?.next ?? undefined } });
    expect(second.items.map((item) => item._id)).toEqual(Array.from({ length: 110 }, (_, n) => id(n + 150)));
    expect(second.pagingMetadata?.hasNext).toBe(false);

    const big = await items.query("Steps").ascending("n").limit(200).find();
    const calls = await dataCalls(() => big.next());
    expect(calls.map((body) => (body.query as { cursorPaging?: unknown }).cursorPaging)).toEqual([{ limit: 200, cursor: expect.any(String) }]);
  });

  it("pages search, distinct values, aggregations and referenced items by cursor", async () => {
    const client = platform.visitorClient().items;
    const search = await client.search("Steps").expression("g2").lt("n", 40).ascending("n").limit(4).run();
    const searchCalls = await dataCalls(() => search.next(), "/wix-data/v2/items/search");
    expect(searchCalls.map((body) => (body.search as { cursorPaging?: { cursor?: string } }).cursorPaging?.cursor)).toEqual([expect.any(String)]);
    expect((await search.next()).items.map((item) => item.n)).toEqual([18, 22, 26, 30]);

    const distinct = await client.query("Steps").ascending("group").limit(3).distinct("group");
    const distinctCalls = await dataCalls(async () => expect((await distinct.next()).items).toEqual(["g3"]), "/wix-data/v2/items/query-distinct-values");
    expect(distinctCalls).toEqual([expect.objectContaining({ cursorPaging: { limit: 3, cursor: expect.any(String) } })]);
    expect(distinctCalls[0].fieldName).toBeUndefined();

    const grouped = await client.aggregate("Steps").group("group").count().ascending("group").limit(3).run();
    const groupedCalls = await dataCalls(
      async () => expect((await grouped.next()).items).toEqual([expect.objectContaining({ _id: "g3", count: 65 })]),
      "/wix-data/v2/items/aggregate",
    );
    expect(groupedCalls).toEqual([expect.objectContaining({ cursorPaging: { limit: 3, cursor: expect.any(String) } })]);
    expect(groupedCalls[0].aggregation).toBeUndefined();

    const referenced = await client.queryReferenced("Routes", "r1", "steps", { limit: 5 } as never);
    const referencedCalls = await dataCalls(async () => {
      const second = await referenced.next();
      expect(second.items.map((item) => item._id)).toEqual([5, 6, 7, 8, 9].map(id));
    }, "/wix-data/v2/items/query-referenced");
    expect(referencedCalls).toEqual([expect.objectContaining({ cursorPaging: { limit: 5, cursor: expect.any(String) } })]);
  });

  it("applies permissions again on every page: a member's cursor gives another member only their own items", async () => {
    const ann = memberClient(platform, "m-ann").items;
    const first = await ann.query("Diary").ascending("n").limit(3).find();
    const annPages = [first.items, (await first.next()).items, (await (await first.next()).next()).items].flat();
    expect(annPages.map((item) => item._id)).toEqual(Array.from({ length: 7 }, (_, n) => `m-ann-${n}`));

    const { pagingMetadata } = await ann.query("Diary", { sort: [{ fieldName: "n", order: "ASC" }], paging: { limit: 3 } });
    const cursor = pagingMetadata?.cursors?.next;
    const bob = await memberClient(platform, "m-bob").items.query("Diary", { cursorPaging: { cursor: cursor ?? undefined, limit: 3 } });
    expect(bob.items.map((item) => item._id)).toEqual(["m-bob-3", "m-bob-4", "m-bob-5"]);

    const vault = await platform.adminClient().items.query("Vault", { paging: { limit: 2 } });
    expect(await codeOf(platform.visitorClient().items.query("Vault", { cursorPaging: { cursor: vault.pagingMetadata?.cursors?.next ?? undefined } }))).toBe(
      "WDE0027",
    );
  });
});
