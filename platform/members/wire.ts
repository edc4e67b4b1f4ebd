import { z } from "zod";
import { MEMBER_STATUSES } from "../identity/store";
import type { Member } from "./store";

/** `members` fieldsets (docs/platform/members.md §3); PUBLIC is the default. */
export const FIELDSETS = ["PUBLIC", "EXTENDED", "FULL"] as const;
export type Fieldset = (typeof FIELDSETS)[number];

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A member in the REST shape the `@wix/members` client expects (`id`, `createdDate`, ...; the
 * SDK renames them). PUBLIC hides status fields as "UNKNOWN" and leaves out the login email;
 * EXTENDED adds them; FULL adds the contact, email verification and last login.
 */
export function toMemberWire({ identity, details, activityStatus }: Member, fieldsets: readonly Fieldset[]) {
  const full = fieldsets.includes("FULL");
  const extended = full || fieldsets.includes("EXTENDED");
  return {
    id: identity.id,
    contactId: identity.contactId,
    createdDate: iso(identity.createdAt),
    updatedDate: iso(identity.updatedAt),
    profile: {
      nickname: identity.nickname,
      slug: identity.slug,
      ...(details.photo && { photo: details.photo }),
      ...(details.cover && { cover: details.cover }),
      ...(details.title !== undefined && { title: details.title }),
    },
    status: extended ? identity.status : "UNKNOWN",
    privacyStatus: extended ? identity.privacyStatus : "UNKNOWN",
    activityStatus: extended ? activityStatus : "UNKNOWN",
    ...(extended && { loginEmail: identity.loginEmail }),
    ...(full && {
      loginEmailVerified: identity.emailVerified,
      ...(identity.lastLoginAt !== null && { lastLoginDate: iso(identity.lastLoginAt) }),
      contact: {
        ...(identity.firstName !== null && { firstName: identity.firstName }),
        ...(identity.lastName !== null && { lastName: identity.lastName }),
        emails: details.emails ?? [identity.loginEmail],
        phones: details.phones ?? [],
        addresses: details.addresses ?? [],
        ...(details.birthdate !== undefined && { birthdate: details.birthdate }),
        ...(details.company !== undefined && { company: details.company }),
        ...(details.jobTitle !== undefined && { jobTitle: details.jobTitle }),
        customFields: details.customFields ?? {},
      },
    }),
  };
}

export type MemberWire = ReturnType<typeof toMemberWire>;

/** Lower-case letters and digits in hyphen-separated runs, as profile URLs use them. */
export const slugSchema = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "a slug is lower-case letters and digits separated by single hyphens");

const imageSchema = z.object({
  id: z.string().max(500).optional(),
  url: z.string().max(2000).optional(),
  height: z.number().int().nonnegative().optional(),
  width: z.number().int().nonnegative().optional(),
  offsetX: z.number().int().optional(),
  offsetY: z.number().int().optional(),
});

const text = z.string().max(1000);

const addressSchema = z.object({
  id: z.string().max(100).optional(),
  addressLine: text.optional(),
  addressLine2: text.optional(),
  streetAddress: z.object({ number: text.optional(), name: text.optional(), apt: text.optional() }).optional(),
  city: text.optional(),
  subdivision: text.optional(),
  country: text.optional(),
  postalCode: text.optional(),
});

/**
 * A member as create and update send it (REST names). Unknown fields, and the read-only ones a
 * caller may echo back (`createdDate`, `contactId`, ...), are ignored.
 */
export const memberInputSchema = z.object({
  loginEmail: z.string().email().max(254).optional(),
  status: z.enum(MEMBER_STATUSES).optional(),
  privacyStatus: z.enum(["PUBLIC", "PRIVATE"]).optional(),
  profile: z
    .object({
      nickname: z.string().trim().min(1).max(255).optional(),
      slug: slugSchema.optional(),
      photo: imageSchema.optional(),
      cover: imageSchema.optional(),
      title: text.optional(),
    })
    .optional(),
  contact: z
    .object({
      firstName: text.nullable().optional(),
      lastName: text.nullable().optional(),
      emails: z.array(z.string().email().max(254)).max(50).optional(),
      phones: z.array(z.string().max(50)).max(50).optional(),
      addresses: z.array(addressSchema).max(50).optional(),
      birthdate: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, "birthdate is YYYY-MM-DD")
        .optional(),
      company: text.optional(),
      jobTitle: text.optional(),
      customFields: z.record(z.string().max(200), z.object({ name: text.optional(), value: z.unknown() })).optional(),
    })
    .optional(),
});

export type MemberInput = z.infer<typeof memberInputSchema>;
