import { randomBytes, randomUUID } from "node:crypto";
import { hashToken } from "../oauth/store";
import type { Db, Migration } from "../types";

/** How long a browser a member ticked "Remember this device" on skips the second step. */
export const REMEMBER_DEVICE_MS = 30 * 24 * 60 * 60 * 1000;

export const migrateRememberedDevices: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS identity_remembered_devices (
      device_id TEXT PRIMARY KEY,
      identity_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      token_hash TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS identity_remembered_devices_identity ON identity_remembered_devices (identity_id);
  `);
};

/** A browser a member asked to be remembered, as the member's own list shows it (never its token). */
export type RememberedDevice = { deviceId: string; name: string; createdAt: number; lastUsedAt: number; expiresAt: number };

type DeviceRow = { device_id: string; name: string; created_at: number; last_used_at: number };

const toDevice = (row: DeviceRow): RememberedDevice => ({
  deviceId: row.device_id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.created_at + REMEMBER_DEVICE_MS,
});

/**
 * A member's remembered browsers: each holds a random token (only its digest is kept here) that,
 * with the member's own password, skips the second step until it expires or is forgotten.
 */
export class RememberedDeviceStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Remembers a browser for the member; answers the token it is to present at its next logins. */
  remember(identityId: string, name: string): string {
    const token = randomBytes(32).toString("base64url");
    const at = this.now();
    this.db
      .prepare("INSERT INTO identity_remembered_devices (device_id, identity_id, token_hash, name, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(randomUUID(), identityId, hashToken(token), name, at, at);
    return token;
  }

  /** Whether the token is a live remembered device of this member (another member's is not); a match is noted as used. */
  recognise(identityId: string, token: string): boolean {
    const at = this.now();
    // Expired ones go as they are met.
    this.db.prepare("DELETE FROM identity_remembered_devices WHERE created_at <= ?").run(at - REMEMBER_DEVICE_MS);
    return (
      this.db.prepare("UPDATE identity_remembered_devices SET last_used_at = ? WHERE identity_id = ? AND token_hash = ?").run(at, identityId, hashToken(token))
        .changes > 0
    );
  }

  /** The member's live remembered devices, newest first. */
  list(identityId: string): RememberedDevice[] {
    const rows = this.db
      .prepare("SELECT * FROM identity_remembered_devices WHERE identity_id = ? AND created_at > ? ORDER BY created_at DESC, device_id")
      .all(identityId, this.now() - REMEMBER_DEVICE_MS) as DeviceRow[];
    return rows.map(toDevice);
  }

  /** Forgets one of the member's devices; false when they have no such device. */
  forget(identityId: string, deviceId: string): boolean {
    return this.db.prepare("DELETE FROM identity_remembered_devices WHERE identity_id = ? AND device_id = ?").run(identityId, deviceId).changes > 0;
  }

  /** Forgets every device of the member: after a password or factor change, or when they ask. */
  forgetAll(identityId: string): void {
    this.db.prepare("DELETE FROM identity_remembered_devices WHERE identity_id = ?").run(identityId);
  }
}

/** A short name a person recognises their browser by, from its User-Agent: "Firefox on Windows". */
export function deviceName(userAgent: string | undefined): string {
  const ua = userAgent ?? "";
  const browser = (
    [
      ["Edge", /Edg\//],
      ["Opera", /OPR\//],
      ["Firefox", /Firefox\//],
      ["Chrome", /Chrome\/|CriOS\//],
      ["Safari", /Safari\//],
    ] as const
  ).find(([, pattern]) => pattern.test(ua))?.[0];
  const system = (
    [
      ["Android", /Android/],
      ["iPhone", /iPhone/],
      ["iPad", /iPad/],
      ["Windows", /Windows/],
      ["macOS", /Mac OS X|Macintosh/],
      ["ChromeOS", /CrOS/],
      ["Linux", /Linux/],
    ] as const
  ).find(([, pattern]) => pattern.test(ua))?.[0];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown browser";
}
