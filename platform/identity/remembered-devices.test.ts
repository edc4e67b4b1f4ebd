import { describe, expect, it } from "vitest";
import { openPlatformDatabase } from "../db";
import { IdentityStore } from "./store";
import { deviceName, REMEMBER_DEVICE_MS, RememberedDeviceStore } from "./remembered-devices";

describe("remembered devices", () => {
  it("recognises a device for its member until 30 days after it was remembered, then forgets it", () => {
    let now = 1_000_000;
    const db = openPlatformDatabase({ dataDir: "", inMemory: true });
    const identities = new IdentityStore(db);
    const member = (email: string) => identities.create({ email, passwordHash: "x", nickname: "M" })!.id;
    const [alice, bob] = [member("alice@ridgeline.example"), member("bob@ridgeline.example")];
    const store = new RememberedDeviceStore(db, () => now);
    const token = store.remember(alice, "Chrome on Linux");
    expect(store.recognise(bob, token)).toBe(false);
    now += REMEMBER_DEVICE_MS - 1;
    expect(store.recognise(alice, token)).toBe(true);
    expect(store.list(alice)).toEqual([
      { deviceId: expect.any(String), name: "Chrome on Linux", createdAt: 1_000_000, lastUsedAt: now, expiresAt: 1_000_000 + REMEMBER_DEVICE_MS },
    ]);
    now += 1;
    expect(store.recognise(alice, token)).toBe(false);
    expect(store.list(alice)).toEqual([]);
  });

  it("names a browser from its User-Agent", () => {
    expect(deviceName("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36")).toBe("Chrome on Linux");
    expect(
      deviceName("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"),
    ).toBe("Safari on iPhone");
    expect(deviceName("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0")).toBe(
      "Edge on Windows",
    );
    expect(deviceName(undefined)).toBe("Unknown browser");
  });
});
