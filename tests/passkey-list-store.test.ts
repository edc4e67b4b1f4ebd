import { describe, expect, it } from "vitest";
import { createPasskeyListStore } from "@/lib/auth/passkey-list-store";
import { freePort, useRedisServer } from "./support/redis-server";

const ids = Array.from({ length: 50 }, (_, index) => Buffer.alloc(768, index).toString("base64url"));

describe("a pending login's passkey list kept on the server", () => {
  it("is kept for the step's life, by its challenge id", async () => {
    const store = createPasskeyListStore();
    await store.put("challenge-1", ids, 60);
    expect(await store.get("challenge-1")).toEqual(ids);
    expect(await store.get("challenge-2")).toBeNull();
    await store.put("challenge-3", ids, 0);
    expect(await store.get("challenge-3")).toBeNull();
  });
});

describe("a pending login's passkey list in Redis (a real redis-server)", () => {
  const redisUrl = useRedisServer();

  it("is shared by instances: the login on one, its passkey step on another", async () => {
    const [first, second] = [createPasskeyListStore(redisUrl()), createPasskeyListStore(redisUrl())];
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await first.put("shared-challenge", ids, 60);
      expect(await second.get("shared-challenge")).toEqual(ids);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("is kept in memory while Redis is unreachable", async () => {
    const store = createPasskeyListStore(`redis://127.0.0.1:${await freePort()}`);
    try {
      await store.put("offline-challenge", ids, 60);
      expect(await store.get("offline-challenge")).toEqual(ids);
    } finally {
      await store.close();
    }
  });
});
