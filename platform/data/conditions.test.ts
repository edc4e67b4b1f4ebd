import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../identity/passwords";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection, failureOf, memberClient } from "./test-support";

/**
 * Writes with a `condition` (docs/platform/data.md §5) through the real `@wix/data` client: the
 * item is written only if it matches; otherwise the platform answers WDE0073, which the client
 * turns into a rejection (update, patch), `null` (remove) or a skipped entry (bulk).
 */

let platform: TestPlatform;
const admin = () => platform.adminClient().items;
const stock = (id: string) => admin().get("Stock", id);

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    "Stock",
    [
      { key: "name", type: "TEXT" },
      { key: "count", type: "NUMBER" },
    ],
    { read: "ANYONE", insert: "SITE_MEMBER", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" },
  );
});
afterAll(() => platform.close());

beforeEach(async () => {
  await admin().truncate("Stock");
  await admin().bulkInsert("Stock", [
    { _id: "a", name: "rope", count: 1 },
    { _id: "b", name: "boots", count: 5 },
    { _id: "c", name: "tent", count: 9 },
  ]);
});

describe("update with a condition", () => {
  it("writes an item that matches, and refuses one that does not with WDE0073, leaving it as it was", async () => {
    const updated = await admin().update("Stock", { _id: "b", name: "boots", count: 4 }, { condition: admin().filter().gt("count", 3) });
    expect(updated).toMatchObject({ _id: "b", count: 4 });

    const refused = await failureOf(admin().update("Stock", { _id: "a", name: "rope", count: 0 }, { condition: { count: { $gt: 3 } } }));
    expect(refused.details?.applicationError?.code).toBe("WDE0073");
    expect(refused.message).toBe("Item [a] does not exist in collection [Stock] or does not meet the condition.");
    expect(await stock("a")).toMatchObject({ count: 1 });
  });

  it("makes an optimistic write: only the version the caller read is replaced", async () => {
    const read = (await stock("c"))!;
    const sameVersion = { condition: admin().filter().eq("_updatedDate", read._updatedDate) };
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await admin().update("Stock", { ...read, count: 8 }, sameVersion)).count).toBe(8);
    // The first write moved `_updatedDate` on, so the second, made from the same read, is refused.
    expect(await codeOf(admin().update("Stock", { ...read, count: 7 }, sameVersion))).toBe("WDE0073");
    expect((await stock("c"))!.count).toBe(8);
  });

  it("refuses a malformed condition with a 400, not a silent write", async () => {
    expect(await codeOf(admin().update("Stock", { _id: "a", count: 2 }, { condition: { count: { $regex: "1" } } }))).toBe("WDE0070");
    expect(await codeOf(admin().update("Stock", { _id: "a", count: 2 }, { condition: { count: { $near: 1 } } }))).toBe("WDE0075");
    expect((await stock("a"))!.count).toBe(1);
  });

  it("cannot probe another member's item: the permission answers first", async () => {
    const [owner, other] = await Promise.all(["owner", "other"].map(memberId));
    const mine = await memberClient(platform, owner).items.insert("Stock", { _id: "m", name: "stove", count: 2 });
    const theirs = memberClient(platform, other).items;
    for (const condition of [{ count: 2 }, { count: 3 }]) {
      expect(await codeOf(theirs.update("Stock", { ...mine, count: 0 }, { condition }))).toBe("WDE0027");
    }
  });
});

describe("patch and remove with a condition", () => {
  it("patches only an item that matches, in the builder and the direct form", async () => {
    expect(
      await admin()
        .patch("Stock", "b")
        .incrementField("count", 1)
        .run({ condition: admin().filter().eq("name", "boots") }),
    ).toMatchObject({ count: 6 });
    expect(
      await codeOf(
        admin()
          .patch("Stock", "b")
          .incrementField("count", 1)
          .run({ condition: { name: "rope" } }),
      ),
    ).toBe("WDE0073");
    expect(await codeOf(admin().patch("Stock", "a", [{ fieldPath: "count", action: "SET_FIELD", value: 0 }], { condition: { count: 5 } }))).toBe("WDE0073");
    expect((await stock("b"))!.count).toBe(6);
    expect((await stock("a"))!.count).toBe(1);
  });

  it("removes only an item that matches; otherwise remove answers null and the item stays", async () => {
    expect(await admin().remove("Stock", "a", { condition: { count: { $gte: 2 } } })).toBeNull();
    expect(await stock("a")).not.toBeNull();
    expect(await admin().remove("Stock", "a", { condition: { count: { $lt: 2 } } })).toMatchObject({ _id: "a" });
    expect(await stock("a")).toBeNull();
  });
});

describe("bulk writes with a condition", () => {
  it("bulkUpdate writes the matching items and skips the rest", async () => {
    const result = await admin().bulkUpdate(
      "Stock",
      [
        { _id: "a", name: "rope", count: 10 },
        { _id: "b", name: "boots", count: 10 },
        { _id: "c", name: "tent", count: 10 },
      ],
      { condition: admin().filter().ge("count", 5) },
    );
    expect(result).toMatchObject({ updated: 2, skipped: 1, errors: [], updatedItemIds: ["b", "c"] });
    expect((await stock("a"))!.count).toBe(1);
  });

  it("bulkPatch and bulkRemove reach only the matching items", async () => {
    const patched = await admin()
      .bulkPatch("Stock", ["a", "b", "c"])
      .setField("name", "sold")
      .run({ condition: { count: { $in: [1, 9] } } });
    expect(patched).toMatchObject({ updated: 2, skipped: 1, updatedItemIds: ["a", "c"] });
    expect((await stock("b"))!.name).toBe("boots");

    const removed = await admin().bulkRemove("Stock", ["a", "b", "c"], { condition: admin().filter().eq("name", "sold") });
    expect(removed).toMatchObject({ removed: 2, skipped: 1, removedItemIds: ["a", "c"] });
    expect((await admin().query("Stock").find()).items.map((item) => item._id)).toEqual(["b"]);
  });

  it("refuses a malformed condition for the whole request", async () => {
    expect(await codeOf(admin().bulkRemove("Stock", ["a", "b"], { condition: { count: { $near: 1 } } }))).toBe("WDE0075");
    expect(await admin().query("Stock").count()).toBe(3);
  });
});

async function memberId(name: string): Promise<string> {
  const identity = platform.ctx.identities.create({
    email: `${name}-${Date.now()}@ridgeline.example`,
    passwordHash: await hashPassword("pw-condition-42"),
    nickname: name,
  });
  return identity!.id;
}
