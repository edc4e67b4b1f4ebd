import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { PlatformConfig } from "./config";
import type { DataStore } from "./data/store";
import { accessSubjectOf } from "./http/access-subject";
import { unauthenticated } from "./http/errors";
import type { FaultStore } from "./http/faults";
import type { RequestLog } from "./http/request-log";
import type { FactorStore } from "./identity/factors";
import type { RecoveryCodeStore } from "./identity/recovery-codes";
import type { HostedFormStateStore } from "./identity/form-states";
import type { SettingsStore } from "./identity/settings";
import type { LoginSessionStore } from "./identity/login-sessions";
import type { RecoveryTokenStore } from "./identity/recovery-tokens";
import type { IdentityStore } from "./identity/store";
import type { MailLimit, Throttle } from "./identity/throttle";
import type { VerificationStore } from "./identity/verifications";
import type { Outbox } from "./mail/outbox";
import type { ClientRegistry } from "./oauth/clients";
import type { AuthCodeStore } from "./oauth/codes";
import type { TokenStore } from "./oauth/store";
import type { RedirectSessionStore } from "./redirects/store";
import type { Caller, Db } from "./types";

export type PlatformContext = {
  config: PlatformConfig;
  db: Db;
  tokens: TokenStore;
  clients: ClientRegistry;
  codes: AuthCodeStore;
  identities: IdentityStore;
  /** Verification codes in progress: e-mail addresses and second factors. */
  verifications: VerificationStore;
  /** Members' second factors. */
  factors: FactorStore;
  /** Members' one-time recovery codes (hashed). */
  recoveryCodes: RecoveryCodeStore;
  /** Password reset links. */
  recoveries: RecoveryTokenStore;
  /** Platform login sessions: what the hosted pages' cookie and a form login's session token stand for. */
  loginSessions: LoginSessionStore;
  /** What a hosted form's POST leaves for the page it redirects to. */
  formStates: HostedFormStateStore;
  /** The site owner's sign-up settings, changeable while the platform runs. */
  settings: SettingsStore;
  /** Every e-mail the platform "sends". */
  outbox: Outbox;
  loginThrottle: Throttle;
  /** Mails per identity and kind, so repeated logins or sign-ups cannot flood an inbox. */
  mailLimit: MailLimit;
  redirects: RedirectSessionStore;
  /** The data service's store, built once per platform. */
  data: DataStore;
  /** Fault mode: how the platform misbehaves on purpose just now. */
  faults: FaultStore;
  /** The last calls answered, for the Studio's Requests area. */
  requests: RequestLog;
  callerOf(request: FastifyRequest): Caller;
};

/** Whether a credential is exactly the admin API key; hashing first makes the comparison constant-time at any length. */
export function isAdminKey(config: PlatformConfig, candidate: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(candidate), digest(config.apiKey));
}

/**
 * The `<accessToken>,<apiKey>` header the SDK's external-login helpers send to the token endpoint
 * (docs/platform/oauth.md §3): the access token when the key part is exactly the admin key, else null.
 */
export function externalLoginToken(config: PlatformConfig, header: string | undefined): string | null {
  const parts = (header ?? "").split(",");
  if (parts.length !== 2) return null;
  const [accessToken, apiKey] = parts.map((part) => part.trim());
  return accessToken && isAdminKey(config, apiKey) ? accessToken : null;
}

export function createCallerResolver(config: PlatformConfig, tokens: TokenStore) {
  return (request: FastifyRequest): Caller => {
    const header = request.headers.authorization?.trim();
    if (!header) return { kind: "anonymous" };
    // ApiKeyStrategy sends the key alone; the two-part external-login form is accepted only where it is sent.
    if (isAdminKey(config, header)) return { kind: "admin" };
    const subject = accessSubjectOf(request, tokens, header);
    if (!subject) throw unauthenticated();
    return subject.role === "member"
      ? { kind: "member", id: subject.subjectId, loginSessionId: subject.loginSessionId ?? null }
      : { kind: "visitor", id: subject.subjectId };
  };
}
