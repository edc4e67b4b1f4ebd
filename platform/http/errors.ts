import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { waitInWords } from "@ridgeline/platform-contract/words";

/**
 * An error the platform answers on purpose, in the envelope the `@wix/*` clients parse:
 * `{message, details: {applicationError: {code, description, data}}}`.
 */
export class PlatformError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

// The catalogue of the platform's own refusals (the data service's WDE codes are in
// data/errors.ts, built on the same class): every route throws one of these, so each code keeps
// one status and one wording.

export const invalidArgument = (message: string) => new PlatformError(400, "INVALID_ARGUMENT", message);
export const permissionDenied = (message: string) => new PlatformError(403, "PERMISSION_DENIED", message);
export const notFound = (message: string) => new PlatformError(404, "NOT_FOUND", message);
/** A looked-up value, or the refusal when there is none (a lookup's 404). */
export function found<T>(value: T | null | undefined, refusal: () => PlatformError): T {
  if (value === null || value === undefined) throw refusal();
  return value;
}
export const unauthenticated = () => new PlatformError(401, "UNAUTHENTICATED", "The access token is invalid or has expired.");
export const faultInjected = (status: number) => new PlatformError(status, "FAULT_INJECTED", "The local platform's fault mode failed this request on purpose.");

/** Identity and recovery refusals, each with the code the real IAM service answers. */
export const identityRefused = (code: string, message: string, status = 400) => new PlatformError(status, code, message);

/** A login's code (an e-mail verification or a second factor): wrong, no longer live, or tried too often. */
export const wrongCode = () => new PlatformError(400, "VERIFICATION_FAILED", "The code is not right.");
export const codeExpired = () => new PlatformError(400, "VERIFICATION_EXPIRED", "This code has expired or was already used. Log in again for a new one.");
/**
 * Too many codes for one account just now (mailed, or entered wrong over a day): refused for as
 * long as `retryAfterSeconds` says, so a client can tell the person the true wait.
 */
export const codesThrottled = (retryAfterSeconds: number) =>
  new PlatformError(429, "THROTTLED_FEATURE", `Too many codes for this account. Try again in ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
/** A passkey's answer or registration refused, saying why (a wrong signature, another member's key, a counter that went back). */
export const passkeyRefused = (message: string) => new PlatformError(400, "VERIFICATION_FAILED", message);
/** Too many wrong proofs (passwords or app codes) or phone codes lately: `retryAfterSeconds` is the true wait. */
export const throttledFor = (what: string, retryAfterSeconds: number) =>
  new PlatformError(429, "THROTTLED_FEATURE", `${what} Try again in ${waitInWords(retryAfterSeconds)}.`, { retryAfterSeconds });
/** A password change asked for without the current password re-checked in the same session just before. */
export const currentPasswordFirst = () =>
  new PlatformError(403, "REAUTHENTICATION_REQUIRED", "Re-check the current password first: log in with this member's own token, then change the password.");
/** A password proof from a session that changed the password itself: it proves only that the session knows the new one. */
export const passwordChangedInSession = () =>
  new PlatformError(
    403,
    "REAUTHENTICATION_REQUIRED",
    "The password was changed in this session, so it is no proof here: give a code from the authenticator app, or log in again.",
  );
export const tooManyWrongCodes = () => new PlatformError(429, "THROTTLED_FEATURE", "Too many wrong codes. Log in again for a new one.");

export const unsupportedIntent = (intents: string[]) =>
  new PlatformError(400, "UNSUPPORTED_INTENT", `The local platform supports only the auth, login and logout intents, not ${intents.join(", ")}.`);
export const invalidClient = (clientId: string) => new PlatformError(400, "INVALID_CLIENT", `Unknown OAuth client id "${clientId}".`);
export const invalidRedirectUri = (redirectUri: string, clientId: string, allowedRedirectUris: readonly string[]) =>
  new PlatformError(400, "INVALID_REDIRECT_URI", `redirectUri "${redirectUri}" is not registered for client "${clientId}".`, { allowedRedirectUris });
export const unsupportedIdp = () => new PlatformError(400, "UNSUPPORTED_IDP", "The local platform has no external identity providers.");

export const memberNotFound = (id: string) => new PlatformError(404, "MEMBER_NOT_FOUND", `Member with id ${id} not found.`, { id });
// Member-to-member blocks (docs/platform/member-blocks.md), with the data the installed typings name.
export const memberAlreadyBlocked = (initiatorMemberId: string, targetMemberId: string) =>
  new PlatformError(409, "MEMBER_ALREADY_BLOCKED", `Member ${initiatorMemberId} already blocks member ${targetMemberId}.`, {
    initiatorMemberId,
    targetMemberId,
  });
export const selfBlockingForbidden = (initiatorMemberId: string) =>
  new PlatformError(400, "SELF_BLOCKING_FORBIDDEN", "A member cannot block themselves.", { initiatorMemberId });
export const selfUnblockingForbidden = (initiatorMemberId: string) =>
  new PlatformError(400, "SELF_UNBLOCKING_FORBIDDEN", "A member cannot unblock themselves.", { initiatorMemberId });
export const blockDoesNotExist = (blockingMemberId: string, blockedMemberId: string) =>
  new PlatformError(404, "BLOCK_DOES_NOT_EXIST", `Member ${blockingMemberId} does not block member ${blockedMemberId}.`, { blockingMemberId, blockedMemberId });
/** getMember by a member who blocks the requested one: a 404 that says why (Wix's blocks integration guide). */
export const memberToMemberBlocked = (memberId: string) =>
  new PlatformError(404, "MEMBER_TO_MEMBER_BLOCKED", `The current member blocks member ${memberId}.`, { memberId });
/** Disconnecting is for good: the member's status stays `OFFLINE`. */
export const memberDisconnected = (id: string) =>
  new PlatformError(400, "INVALID_ARGUMENT", `Member ${id} is disconnected; a disconnected member cannot be approved or blocked.`, { id });
/** A write naming a revision that is no longer the current one (settings, About sections): read again and retry. */
export const invalidRevision = (revision: string) =>
  new PlatformError(409, "INVALID_REVISION", `Revision ${revision} is not the current one; read it again and retry.`, { revision });
export const alreadyExists = (message: string, data: Record<string, unknown>) => new PlatformError(409, "ALREADY_EXISTS", message, data);
// The site's member privacy (docs/platform/member-privacy.md), with the codes the installed typings name.
export const invalidPrivacySettings = (data: { publicMemberVisibility?: string; publicMemberCandidates?: string }) =>
  new PlatformError(400, "INVALID_SETTINGS", "publicMemberVisibility and publicMemberCandidates cannot be UNKNOWN.", data);
export const communityJoinImpossible = () =>
  new PlatformError(400, "COMMUNITY_JOIN_IMPOSSIBLE", "The site lets no member have a public profile (publicMemberCandidates is NO_ONE).");
// Reports of members (docs/platform/member-reports.md), with the codes the installed typings name.
export const selfReportingForbidden = (memberId: string) =>
  new PlatformError(400, "SELF_REPORTING_FORBIDDEN", "A member cannot report themselves.", { memberId });
export const cannotReportBlockedMember = (memberId: string) =>
  new PlatformError(400, "CANNOT_REPORT_BLOCKED_MEMBER", `Member ${memberId} is blocked already and cannot be reported.`, { memberId });
// Member roles (docs/platform/member-roles.md), with the codes the installed typings name.
export const roleDoesNotExist = (roleKey: string) => new PlatformError(404, "ROLE_DOES_NOT_EXIST", `There is no role ${roleKey}.`, { roleKey });
export const memberBlockedForRole = (memberId: string, roleKey: string) =>
  new PlatformError(400, "MEMBER_BLOCKED", `Member ${memberId} is blocked, and role ${roleKey} cannot be given to blocked members.`, { memberId, roleKey });
export const roleNotAssigned = (memberId: string, roleKey: string) =>
  new FieldViolations([
    { field: "roleKey", description: `Member ${memberId} does not have role ${roleKey}.`, violatedRule: "OTHER", ruleName: "INVALID_ROLE", data: {} },
  ]);
// Custom profile fields (docs/platform/custom-fields.md), with the codes and data the installed typings name.
export const incorrectFieldType = (incorrectType: string, correctType: string) =>
  new PlatformError(400, "INCORRECT_FIELD_TYPE", `The field type ${incorrectType} is not right here; it is ${correctType}.`, { incorrectType, correctType });
export const incorrectFieldPrivacy = (incorrectPrivacy: string) =>
  new PlatformError(400, "INCORRECT_FIELD_PRIVACY", "A field's default privacy is PUBLIC or PRIVATE.", { incorrectPrivacy, correctPrivacy: "PRIVATE" });
export const invalidFieldSocialType = (invalidSocialType: string) =>
  new PlatformError(400, "INVALID_FIELD_SOCIAL_TYPE", "A SOCIAL field names its network (socialType); other fields name none.", { invalidSocialType });
export const slugAlreadyExists = (slug: string) => new PlatformError(409, "SLUG_ALREADY_EXISTS", `The slug ${slug} is already taken.`, { slug });
export const emailAlreadyExists = (loginEmail: string) =>
  new PlatformError(409, "EMAIL_ALREADY_EXISTS", "A member with this login email already exists.", { loginEmail });

/** One field at fault, in the shape the SDK reports as `INVALID_ARGUMENT: "field" description`. */
/** `ruleName` names a service's own rule where the typings list one (`INVALID_ROLE`, ...). */
export type FieldViolation = { field: string; description: string; violatedRule: string; ruleName?: string; data: Record<string, unknown> };

/**
 * A request whose fields are at fault: answered as a `validationError` listing each field with its
 * description, which the SDK keeps (and renames to its argument paths) instead of an application error.
 */
export class FieldViolations extends PlatformError {
  constructor(readonly violations: FieldViolation[]) {
    super(400, "INVALID_ARGUMENT", violations.map((v) => v.description).join(" "));
  }
}

/** A body that does not match its schema: one violation per field, with zod's description of what is wrong. */
/** A request part checked against its schema: the parsed value, or the schema's complaints as field violations. */
export function parseWith<T>(
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
  },
  value: unknown,
): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw schemaViolations(parsed.error.issues);
  return parsed.data;
}

export function schemaViolations(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldViolations {
  return new FieldViolations(
    issues.map((issue) => ({ field: issue.path.map(String).join(".") || "body", description: issue.message, violatedRule: "VALIDATION", data: {} })),
  );
}

/** What a genuine bug answers: no detail, only the request id to quote (the SDK's "System error occurred"). */
export const SYSTEM_ERROR_MESSAGE = "System error occurred";

export function errorBody(code: string, message: string, data: Record<string, unknown> = {}) {
  return { message, details: { applicationError: { code, description: message, data } } };
}

/**
 * A client error raised by the HTTP layer itself (unparseable body, unsupported content type,
 * body over the limit), with a clear message; undefined for anything else.
 */
export function transportClientError(error: FastifyError | PlatformError): { status: number; message: string } | undefined {
  if (error instanceof PlatformError) return undefined;
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) return undefined;
  if (status === 413) return { status, message: "Payload is too large." };
  const malformed = error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError;
  return { status, message: malformed ? "Request body is not valid JSON." : error.message };
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or URL over 16 KB,
 * malformed HTTP, a client too slow to send): answered in the same envelope as everything else.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "INVALID_ARGUMENT", "The request's URL or headers are too large; send the request in a POST body."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "REQUEST_TIMEOUT", "The request took too long to arrive."]
        : [400, "INVALID_ARGUMENT", "Malformed HTTP request."];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Maps every failure to a JSON envelope (docs/platform/transport.md §5); only genuine bugs become a 500, and never with a stack. */
export function handleError(error: FastifyError | PlatformError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof FieldViolations) {
    return reply.status(400).send({ message: error.message, details: { validationError: { fieldViolations: error.violations } } });
  }
  if (error instanceof PlatformError) {
    return reply.status(error.status).send(errorBody(error.code, error.message, error.data));
  }
  const clientError = transportClientError(error);
  if (clientError) {
    // The `@wix/data` client reports any 413 as WDE0109, so the code is the same for every module.
    const code = clientError.status === 413 ? "WDE0109" : "INVALID_ARGUMENT";
    return reply.status(clientError.status).send(errorBody(code, clientError.message));
  }
  request.log.error({ err: error }, "unhandled platform error");
  return reply.status(500).send(errorBody("INTERNAL_ERROR", SYSTEM_ERROR_MESSAGE, { requestId: request.id }));
}
