import { describe, expect, it } from "vitest";
import { openPlatformDatabase } from "../db";
import type { Member } from "../members/store";
import { watchWebhookChanges, type Change } from "./changes";
import { eventsOf } from "./events";

/**
 * Which writes become webhook events, on a real database: a rolled-back write leaves none, and
 * the records whose status tells their end (an index dropped, a job terminated) are deleted.
 */

function watched() {
  const db = openPlatformDatabase({ dataDir: "unused", inMemory: true });
  let noted = 0;
  const changes = watchWebhookChanges(db, { noted: () => noted++, identity: () => null });
  db.prepare("INSERT INTO data_collections (id, doc, created_date, updated_date) VALUES ('Notes', '{}', 'x', 'x')").run();
  return { db, changes, noted: () => noted };
}

const insertItem = "INSERT INTO data_items (collection_id, id, data, created_date, updated_date) VALUES ('Notes', ?, ?, 'x', 'x')";

describe("the recorded changes", () => {
  it("keep a committed write with its data as written, and lose a write that was rolled back", () => {
    const { db, changes, noted } = watched();
    db.prepare(insertItem).run("kept", JSON.stringify({ _id: "kept", title: "one" }));
    expect(() =>
      db.transaction(() => {
        db.prepare(insertItem).run("lost", JSON.stringify({ _id: "lost" }));
        throw new Error("the condition is not met");
      })(),
    ).toThrow();
    db.prepare("UPDATE data_items SET data = ? WHERE id = 'kept'").run(JSON.stringify({ _id: "kept", title: "two" }));
    expect(noted()).toBe(3);
    const events = eventsOf(changes.drain(), { member: () => null, badge: () => null });
    expect(events.map((event) => [event.eventType, event.payload.entityId])).toEqual([
      ["wix.data.v2.data_item_created", "kept"],
      ["wix.data.v2.data_item_updated", "kept"],
    ]);
    expect(events[0].payload.createdEvent).toEqual({ entity: { id: "kept", dataCollectionId: "Notes", data: { _id: "kept", title: "one" } } });
    expect(changes.drain()).toEqual([]);
  });

  it("announce a job's status, not its progress, and its termination as its deletion", () => {
    const { db, changes } = watched();
    const save = db.prepare("INSERT INTO data_movement_jobs (id, doc, requested_date) VALUES ('j1', ?, 'x') ON CONFLICT (id) DO UPDATE SET doc = excluded.doc");
    save.run(JSON.stringify({ id: "j1", status: "IN_PROGRESS", progress: { current: 0 } }));
    save.run(JSON.stringify({ id: "j1", status: "IN_PROGRESS", progress: { current: 10 } }));
    save.run(JSON.stringify({ id: "j1", status: "FAILED", error: { code: "CANCELLED" } }));
    expect(eventsOf(changes.drain(), { member: () => null, badge: () => null }).map((event) => event.eventType)).toEqual([
      "wix.hub.v1.job_created",
      "wix.hub.v1.job_deleted",
    ]);
  });
});

describe("a member's changes in one batch", () => {
  const change = (action: "created" | "updated" | "deleted", key1: string): Change => ({
    source: "member",
    action,
    key1,
    key2: null,
    snapshot: null,
    at: "2026-01-01T00:00:00.000Z",
    identity: null,
  });
  const member = (id: string) =>
    ({
      identity: {
        id,
        contactId: id,
        loginEmail: `${id}@x.example`,
        emailVerified: true,
        nickname: id,
        slug: id,
        status: "APPROVED",
        privacyStatus: "PUBLIC",
        createdAt: 0,
        updatedAt: 0,
        lastLoginAt: null,
        firstName: null,
        lastName: null,
      },
      details: {},
      activityStatus: "ACTIVE",
    }) as unknown as Member;

  it("become one event: created however often changed after, updated, or only deleted when it is gone", () => {
    const present = new Set(["new", "changed"]);
    const events = eventsOf(
      [
        change("created", "new"),
        change("updated", "changed"),
        change("updated", "new"),
        change("updated", "changed"),
        change("created", "brief"),
        change("deleted", "brief"),
      ],
      { member: (id) => (present.has(id) ? member(id) : null), badge: () => null },
    );
    expect(events.map((event) => [event.eventType, event.payload.entityId])).toEqual([
      ["wix.members.v1.member_created", "new"],
      ["wix.members.v1.member_updated", "changed"],
      ["wix.members.v1.member_deleted", "brief"],
    ]);
  });
});
