import type { FastifyRequest } from "fastify";
import type { PlatformConfig } from "./config";
import type { DataStore } from "./data/store";
import { accessSubjectOf } from "./http/access-subject";
import { equalSecrets } from "./http/constant-time";
import { unauthenticated } from "./http/errors";
import type { FaultStore } from "./http/faults";
import type { RequestLog } from "./http/request-log";
import type { FactorStore } from "./identity/factors";
import type { RecoveryCodeStore } from "./identity/recovery-codes";
import type { RememberedDeviceStore } from "./identity/remembered-devices";
import type { PasskeyStore } from "./identity/webauthn-store";
import type { HostedFormStateStore } from "./identity/form-states";
import type { SettingsStore } from "./identity/settings";
import type { LoginSessionStore } from "./identity/login-sessions";
import type { RecoveryTokenStore } from "./identity/recovery-tokens";
import type { IdentityStore } from "./identity/store";
import type { AddressLimit, Throttle, WindowLimit } from "./identity/throttle";
import type { VerificationStore } from "./identity/verifications";
import type { Outbox } from "./mail/outbox";
import type { ClientRegistry } from "./oauth/clients";
import type { AuthCodeStore } from "./oauth/codes";
import type { TokenStore } from "./oauth/store";
import type { RedirectSessionStore } from "./redirects/store";
import type { Caller, Db } from "./types";
import type { WebhookKeys } from "./webhooks/keys";

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
  /** Browsers members asked to be remembered, which skip the second step for a while. */
  rememberedDevices: RememberedDeviceStore;
  passkeys: PasskeyStore;
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
  /** A login session's proofs of who its member is (re-checks, factor-change proofs), wrong or still being checked (PROOFS_PER_SESSION). */
  sessionProofs: WindowLimit;
  /** Failed logins per client address, where the address is the person's own. */
  addressLimit: AddressLimit;
  /** Mails per identity and kind, so repeated logins or sign-ups cannot flood an inbox. */
  mailLimit: WindowLimit;
  /** Wrong second-step codes per identity over a day: the ceiling a code guesser with the password meets. */
  wrongCodes: WindowLimit;
  redirects: RedirectSessionStore;
  /** The data service's store, built once per platform. */
  data: DataStore;
  /** Fault mode: how the platform misbehaves on purpose just now. */
  faults: FaultStore;
  /** The last calls answered, for the Studio's Requests area. */
  requests: RequestLog;
  callerOf(request: FastifyRequest): Caller;
  /** The key the platform signs apps' webhooks with, and its public half for them (docs/platform/webhooks.md §2). */
  webhookKeys: WebhookKeys;
};

/** Whether a credential is exactly the admin API key, compared in constant time. */
export function isAdminKey(config: PlatformConfig, candidate: string): boolean {
  return equalSecrets(candidate, config.apiKey);
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
    // An app's own token (client_credentials) carries the site owner's rights on the site's APIs,
    // as an app's identity does on Wix (docs/platform/oauth.md §5); `app` keeps it out of the platform's own endpoints.
    if (subject.role === "app") return { kind: "admin", app: subject.clientId };
    return subject.role === "member"
      ? { kind: "member", id: subject.subjectId, loginSessionId: subject.loginSessionId ?? null }
      : { kind: "visitor", id: subject.subjectId };
  };
}
