import { createHash, randomBytes, randomUUID, type KeyObject } from "node:crypto";
import type { Db, Migration } from "../types";
import { createAccessTokenSigner, newSigningKey, type TokenRole, type TokenSubject } from "./access-token";

export type IssuedTokens = { accessToken: string; refreshToken: string; expiresIn: number };

export const migrateOAuth: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS oauth_refresh_tokens (
      token_hash TEXT PRIMARY KEY,
      client_id TEXT NOT NULL,
      role TEXT NOT NULL,
      subject_id TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      revoked_at INTEGER
    );
    CREATE INDEX IF NOT EXISTS oauth_refresh_tokens_subject ON oauth_refresh_tokens (subject_id);
    CREATE TABLE IF NOT EXISTS oauth_access_tokens (
      token_hash TEXT PRIMARY KEY,
      refresh_hash TEXT NOT NULL REFERENCES oauth_refresh_tokens (token_hash) ON DELETE CASCADE,
      expires_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS oauth_access_tokens_refresh ON oauth_access_tokens (refresh_hash);
  `);
  // Added after the first release: databases created before it lack the column.
  const columns = db.prepare("PRAGMA table_info(oauth_refresh_tokens)").all() as { name: string }[];
  if (!columns.some((c) => c.name === "login_session_id")) {
    db.exec("ALTER TABLE oauth_refresh_tokens ADD COLUMN login_session_id TEXT");
  }
  db.exec("CREATE INDEX IF NOT EXISTS oauth_refresh_tokens_login_session ON oauth_refresh_tokens (login_session_id)");
  // Added later still: when a pair was last refreshed, so visitors' pairs no one uses can go.
  if (!columns.some((c) => c.name === "last_used_at")) {
    db.exec("ALTER TABLE oauth_refresh_tokens ADD COLUMN last_used_at INTEGER");
  }
};

/** Tokens are opaque random strings; only their hashes are stored. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/** An opaque secret with a readable prefix naming its kind. */
export function newToken(prefix: string): string {
  return `${prefix}.${randomBytes(32).toString("base64url")}`;
}

export class TokenStore {
  private readonly signAccessToken: ReturnType<typeof createAccessTokenSigner>;

  constructor(
    private readonly db: Db,
    private readonly accessTtlSeconds: number,
    private readonly now: () => number = Date.now,
    /** The key access tokens are signed with, whose public half `/oauth2/jwks` publishes. */
    readonly signingKey: KeyObject = newSigningKey(),
  ) {
    this.signAccessToken = createAccessTokenSigner(signingKey);
  }

  /** A new token pair for a subject (anonymous grant, code exchange). */
  issuePair(subject: TokenSubject): IssuedTokens {
    const refreshToken = newToken("ORT");
    this.db
      .prepare(
        `INSERT INTO oauth_refresh_tokens (token_hash, client_id, role, subject_id, login_session_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(hashToken(refreshToken), subject.clientId, subject.role, subject.subjectId, subject.loginSessionId ?? null, this.now());
    return { refreshToken, ...this.issueAccess(hashToken(refreshToken), subject) };
  }

  /**
   * An app's own access token (the client_credentials grant). It comes with no refresh token,
   * as in OAuth's client-credentials flow: the app asks again with its secret when it expires.
   */
  issueApp(clientId: string): { accessToken: string; expiresIn: number } {
    const { accessToken, expiresIn } = this.issuePair({ role: "app", subjectId: clientId, clientId });
    return { accessToken, expiresIn };
  }

  newVisitor(clientId: string): IssuedTokens {
    return this.issuePair({ role: "visitor", subjectId: randomUUID(), clientId });
  }

  /**
   * A new access token for a live refresh token. The refresh token is not rotated:
   * the SDK keeps the old one and ignores any new one (docs/platform/oauth.md §4).
   */
  refresh(refreshToken: string, clientId: string): IssuedTokens | null {
    const refreshHash = hashToken(refreshToken);
    const row = this.db.prepare("SELECT client_id, role, subject_id FROM oauth_refresh_tokens WHERE token_hash = ? AND revoked_at IS NULL").get(refreshHash) as
      { client_id: string; role: TokenRole; subject_id: string } | undefined;
    if (!row || row.client_id !== clientId) return null;
    this.db.prepare("UPDATE oauth_refresh_tokens SET last_used_at = ? WHERE token_hash = ?").run(this.now(), refreshHash);
    return { refreshToken, ...this.issueAccess(refreshHash, { role: row.role, subjectId: row.subject_id, clientId }) };
  }

  /** The subject of a live access token, or null when it is unknown, expired or revoked. */
  resolveAccess(accessToken: string): TokenSubject | null {
    const row = this.db
      .prepare(
        `SELECT r.client_id, r.role, r.subject_id, r.login_session_id FROM oauth_access_tokens a
         JOIN oauth_refresh_tokens r ON r.token_hash = a.refresh_hash
         WHERE a.token_hash = ? AND a.expires_at > ? AND r.revoked_at IS NULL`,
      )
      .get(hashToken(accessToken), this.now()) as { client_id: string; role: TokenRole; subject_id: string; login_session_id: string | null } | undefined;
    return row ? { clientId: row.client_id, role: row.role, subjectId: row.subject_id, loginSessionId: row.login_session_id } : null;
  }

  /** Ends every session of a subject (logout everywhere, or a test revoking a member), or every one but those of the login session `keep`. */
  revokeSubject(subjectId: string, keep: string | null = null): number {
    return (
      this.db
        // `IS NOT NULL` would spare the pairs issued without a login session (authorized_client): without `keep`, every pair ends.
        .prepare("UPDATE oauth_refresh_tokens SET revoked_at = ? WHERE subject_id = ? AND revoked_at IS NULL AND (? IS NULL OR login_session_id IS NOT ?)")
        .run(this.now(), subjectId, keep, keep).changes
    );
  }

  /** Ends the session a refresh or access token belongs to. */
  revokeSessionOf(token: string): boolean {
    const hash = hashToken(token);
    const refreshHash =
      (this.db.prepare("SELECT refresh_hash FROM oauth_access_tokens WHERE token_hash = ?").get(hash) as { refresh_hash: string } | undefined)?.refresh_hash ??
      hash;
    return this.revokeRefreshHash(refreshHash);
  }

  /** Ends one pair by its stored refresh hash (a replayed authorization code revokes what it first issued). */
  revokeRefreshHash(refreshHash: string): boolean {
    return (
      this.db.prepare("UPDATE oauth_refresh_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL").run(this.now(), refreshHash).changes > 0
    );
  }

  /** Ends every pair issued under one platform login session (hosted sign-out). */
  revokeLoginSession(loginSessionId: string): number {
    return this.db.prepare("UPDATE oauth_refresh_tokens SET revoked_at = ? WHERE login_session_id = ? AND revoked_at IS NULL").run(this.now(), loginSessionId)
      .changes;
  }

  /**
   * Deletes access tokens past their expiry and revoked pairs (their access tokens go with them):
   * neither can be used again, and a revoked pair no one holds only takes room. Visitors' pairs
   * not refreshed for `visitorIdleSeconds` go too: every first view of a site that keeps no
   * cookie (a crawler, a health check) leaves one behind, and nobody comes back for it.
   */
  prune(visitorIdleSeconds: number): number {
    const now = this.now();
    const expired = this.db.prepare("DELETE FROM oauth_access_tokens WHERE expires_at <= ?").run(now).changes;
    const revoked = this.db.prepare("DELETE FROM oauth_refresh_tokens WHERE revoked_at IS NOT NULL").run().changes;
    const idle = this.db
      .prepare("DELETE FROM oauth_refresh_tokens WHERE role = 'visitor' AND COALESCE(last_used_at, created_at) <= ?")
      .run(now - visitorIdleSeconds * 1000).changes;
    // An app's pair was never handed out whole: once its access token is gone, nothing can use it.
    const spentApps = this.db
      .prepare("DELETE FROM oauth_refresh_tokens WHERE role = 'app' AND token_hash NOT IN (SELECT refresh_hash FROM oauth_access_tokens)")
      .run().changes;
    return expired + revoked + idle + spentApps;
  }

  private issueAccess(refreshHash: string, subject: TokenSubject): { accessToken: string; expiresIn: number } {
    const nowMs = this.now();
    const accessToken = this.signAccessToken(subject, nowMs, nowMs + this.accessTtlSeconds * 1000);
    this.db.prepare("DELETE FROM oauth_access_tokens WHERE refresh_hash = ? AND expires_at <= ?").run(refreshHash, nowMs);
    this.db
      .prepare("INSERT INTO oauth_access_tokens (token_hash, refresh_hash, expires_at) VALUES (?, ?, ?)")
      .run(hashToken(accessToken), refreshHash, nowMs + this.accessTtlSeconds * 1000);
    return { accessToken, expiresIn: this.accessTtlSeconds };
  }
}
