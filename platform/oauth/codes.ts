import { createHash, timingSafeEqual } from "node:crypto";
import type { Db, Migration } from "../types";
import { hashToken, newToken } from "./store";

/** What an authorization code was issued for; the token exchange must match all of it. */
export type CodeGrant = {
  clientId: string;
  /** Null when the request named none (direct login through web_message). */
  redirectUri: string | null;
  codeChallenge: string;
  memberId: string;
  loginSessionId: string;
};

export type RedeemResult =
  { ok: true; grant: CodeGrant } | { ok: false; reason: string; /** Set when the code had already been exchanged. */ issuedRefreshHash?: string | null };

export const migrateAuthCodes: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS oauth_codes (
      code_hash TEXT PRIMARY KEY,
      client_id TEXT NOT NULL,
      redirect_uri TEXT,
      code_challenge TEXT NOT NULL,
      member_id TEXT NOT NULL,
      login_session_id TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER,
      refresh_hash TEXT
    );
  `);
};

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** base64url of a SHA-256 digest. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function pkceS256Matches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

type CodeRow = {
  client_id: string;
  redirect_uri: string | null;
  code_challenge: string;
  member_id: string;
  login_session_id: string;
  expires_at: number;
  used_at: number | null;
  refresh_hash: string | null;
};

/** Single-use authorization codes, stored as hashes, bound to client, redirect URI and PKCE challenge. */
export class AuthCodeStore {
  constructor(
    private readonly db: Db,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  issue(grant: CodeGrant): string {
    const code = newToken("OAC");
    const now = this.now();
    this.prune();
    this.db
      .prepare(
        `INSERT INTO oauth_codes (code_hash, client_id, redirect_uri, code_challenge, member_id, login_session_id, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(hashToken(code), grant.clientId, grant.redirectUri, grant.codeChallenge, grant.memberId, grant.loginSessionId, now + this.ttlSeconds * 1000);
    return code;
  }

  /**
   * Checks a token request against its code. Any attempt on a live code uses it up, so a
   * wrong verifier cannot be retried against the same code.
   */
  redeem(code: string, request: { clientId: string; redirectUri: string | null; codeVerifier: string }): RedeemResult {
    const hash = hashToken(code);
    return this.db.transaction((): RedeemResult => {
      const row = this.db.prepare("SELECT * FROM oauth_codes WHERE code_hash = ?").get(hash) as CodeRow | undefined;
      if (!row) return { ok: false, reason: "The authorization code is unknown." };
      if (row.used_at !== null) {
        return { ok: false, reason: "The authorization code has already been used.", issuedRefreshHash: row.refresh_hash };
      }
      this.db.prepare("UPDATE oauth_codes SET used_at = ? WHERE code_hash = ?").run(this.now(), hash);
      if (row.expires_at <= this.now()) return { ok: false, reason: "The authorization code has expired." };
      if (row.client_id !== request.clientId) return { ok: false, reason: "The authorization code was issued to another client." };
      if (row.redirect_uri !== request.redirectUri) {
        return { ok: false, reason: "redirectUri does not match the one the authorization code was issued for." };
      }
      if (!pkceS256Matches(request.codeVerifier, row.code_challenge)) {
        return { ok: false, reason: "The PKCE code verifier does not match the code challenge." };
      }
      return {
        ok: true,
        grant: {
          clientId: row.client_id,
          redirectUri: row.redirect_uri,
          codeChallenge: row.code_challenge,
          memberId: row.member_id,
          loginSessionId: row.login_session_id,
        },
      };
    })();
  }

  /** Deletes expired codes, used or not; used ones live until then so a replay can still be recognised. */
  prune(): number {
    return this.db.prepare("DELETE FROM oauth_codes WHERE expires_at <= ?").run(this.now()).changes;
  }

  /** Remembers which refresh token a code produced, so a replay of the code can revoke it. */
  recordIssued(code: string, refreshHash: string): void {
    this.db.prepare("UPDATE oauth_codes SET refresh_hash = ? WHERE code_hash = ?").run(refreshHash, hashToken(code));
  }
}
