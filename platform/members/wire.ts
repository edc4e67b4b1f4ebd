import type { Identity } from "../identity/store";

/** `members` fieldsets (wire contract §6.2); PUBLIC is the default. */
export const FIELDSETS = ["PUBLIC", "EXTENDED", "FULL"] as const;
export type Fieldset = (typeof FIELDSETS)[number];

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A member in the REST shape the `@wix/members` client expects (`id`, `createdDate`, ...; the
 * SDK renames them). PUBLIC hides status fields as "UNKNOWN" and leaves out the login email;
 * EXTENDED adds them; FULL adds the contact, email verification and last login.
 */
export function toMemberWire(identity: Identity, fieldsets: readonly Fieldset[]) {
  const full = fieldsets.includes("FULL");
  const extended = full || fieldsets.includes("EXTENDED");
  return {
    id: identity.id,
    contactId: identity.contactId,
    createdDate: iso(identity.createdAt),
    updatedDate: iso(identity.updatedAt),
    profile: { nickname: identity.nickname, slug: identity.slug },
    status: extended ? identity.status : "UNKNOWN",
    privacyStatus: extended ? identity.privacyStatus : "UNKNOWN",
    activityStatus: extended ? "ACTIVE" : "UNKNOWN",
    ...(extended && { loginEmail: identity.loginEmail }),
    ...(full && {
      loginEmailVerified: identity.emailVerified,
      ...(identity.lastLoginAt !== null && { lastLoginDate: iso(identity.lastLoginAt) }),
      contact: {
        ...(identity.firstName !== null && { firstName: identity.firstName }),
        ...(identity.lastName !== null && { lastName: identity.lastName }),
        emails: [identity.loginEmail],
        phones: [],
        addresses: [],
      },
    }),
  };
}
