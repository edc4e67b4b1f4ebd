import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";
import { hashPassword, verifyPassword } from "./passwords";

describe("password hashing", () => {
  it("salts every hash and verifies only the right password", async () => {
    const [a, b] = await Promise.all([hashPassword("ridgeline-demo"), hashPassword("ridgeline-demo")]);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("ridgeline-demo", a)).toBe(true);
    expect(await verifyPassword("ridgeline-demo", b)).toBe(true);
    expect(await verifyPassword("ridgeline-demO", a)).toBe(false);
    expect(await verifyPassword("ridgeline-demo", "plaintext")).toBe(false);
  });
});

describe("stored identities", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    // A file database this time, to read it the way anyone with the file could.
    platform = await startTestPlatform({ inMemory: false });
  });
  afterAll(() => platform.close());

  it("keep only a scrypt hash of the demo members' passwords", () => {
    const db = new Database(`${platform.config.dataDir}/platform.db`, { readonly: true });
    try {
      const rows = db.prepare("SELECT login_email, password_hash FROM identities").all() as { login_email: string; password_hash: string }[];
      const scrypt = expect.stringMatching(/^scrypt\$/);
      expect(rows).toEqual([
        { login_email: DEMO_MEMBER.email, password_hash: scrypt },
        { login_email: SECOND_DEMO_MEMBER.email, password_hash: scrypt },
      ]);
      const dump = JSON.stringify(db.prepare("SELECT * FROM identities").all());
      expect(dump).not.toContain(DEMO_MEMBER.password);
      expect(dump).not.toContain(SECOND_DEMO_MEMBER.password);
    } finally {
      db.close();
    }
  });
});
