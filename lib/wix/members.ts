import "server-only";
import { z } from "zod";
import { TAGS, cachedRead } from "./cache";
import { sessionClient, type WixClient } from "./client";
import { refusalOf } from "./errors";
import { date, imageUrl } from "./reshape";

/** The signed-in member as the header and account page show them. */
export type Member = {
  id: string;
  name: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  joinedAt?: Date;
};

export type PostalAddress = {
  addressLine: string;
  addressLine2: string;
  streetNumber: string;
  streetName: string;
  /** The apartment or suite of the street address. */
  apt: string;
  city: string;
  subdivision: string;
  country: string;
  postalCode: string;
};

/** The member's whole profile, as they see and edit it on the account page. */
export type Profile = Member & {
  nickname: string;
  slug: string;
  title: string;
  photoUrl?: string;
  emails: string[];
  phones: string[];
  addresses: PostalAddress[];
  customFields: Array<{ key: string; name: string; value: string }>;
  isPrivate: boolean;
};

/** What anyone may see of a member: the PUBLIC fieldset. */
export type PublicMember = { id: string; slug: string; name: string; title: string; photoUrl?: string };

const textOrEmpty = z
  .string()
  .nullish()
  .transform((value) => value ?? "")
  .catch("");
const strings = z
  .array(z.string())
  .nullish()
  .transform((value) => value ?? [])
  .catch([]);

const addressData = z.object({
  addressLine: textOrEmpty,
  addressLine2: textOrEmpty,
  streetAddress: z.object({ number: textOrEmpty, name: textOrEmpty, apt: textOrEmpty }).nullish().catch(undefined),
  city: textOrEmpty,
  subdivision: textOrEmpty,
  country: textOrEmpty,
  postalCode: textOrEmpty,
});

const memberData = z.object({
  _id: z.string(),
  loginEmail: z.string().nullish().catch(undefined),
  privacyStatus: z.string().nullish().catch(undefined),
  profile: z
    .object({ nickname: textOrEmpty, slug: textOrEmpty, title: textOrEmpty, photo: z.object({ url: z.string().nullish() }).nullish().catch(undefined) })
    .partial()
    .nullish()
    .catch(undefined),
  contact: z
    .object({
      firstName: textOrEmpty,
      lastName: textOrEmpty,
      emails: strings,
      phones: strings,
      addresses: z.array(addressData).nullish().catch([]),
      customFields: z
        .record(z.string(), z.object({ name: z.string().nullish(), value: z.unknown() }))
        .nullish()
        .catch(undefined),
    })
    .partial()
    .nullish()
    .catch(undefined),
  _createdDate: date,
});

function displayName(nickname: string, firstName: string, lastName: string, email?: string): string {
  return nickname || [firstName, lastName].filter(Boolean).join(" ") || email || "Member";
}

/** Reshapes the platform's member (FULL fieldset) into the site's profile. */
export function toProfile(raw: unknown): Profile {
  const parsed = memberData.parse(raw);
  const contact = parsed.contact ?? {};
  const profile = parsed.profile ?? {};
  const firstName = contact.firstName ?? "";
  const lastName = contact.lastName ?? "";
  const nickname = profile.nickname ?? "";
  const email = parsed.loginEmail ?? undefined;
  return {
    id: parsed._id,
    name: displayName(nickname, firstName, lastName, email),
    email,
    firstName: firstName || undefined,
    lastName: lastName || undefined,
    joinedAt: parsed._createdDate,
    nickname,
    slug: profile.slug ?? "",
    title: profile.title ?? "",
    photoUrl: imageUrl(profile.photo?.url),
    emails: contact.emails ?? [],
    phones: contact.phones ?? [],
    addresses: (contact.addresses ?? []).map((address) => ({
      addressLine: address.addressLine,
      addressLine2: address.addressLine2,
      streetNumber: address.streetAddress?.number ?? "",
      streetName: address.streetAddress?.name ?? "",
      apt: address.streetAddress?.apt ?? "",
      city: address.city,
      subdivision: address.subdivision,
      country: address.country,
      postalCode: address.postalCode,
    })),
    customFields: Object.entries(contact.customFields ?? {}).map(([key, field]) => ({
      key,
      name: field.name || key,
      value: typeof field.value === "string" || typeof field.value === "number" ? String(field.value) : "",
    })),
    isPrivate: parsed.privacyStatus === "PRIVATE",
  };
}

/** Reshapes a member of the PUBLIC fieldset. */
export function toPublicMember(raw: unknown): PublicMember {
  const profile = toProfile(raw);
  return { id: profile.id, slug: profile.slug, name: displayName(profile.nickname, "", "", undefined), title: profile.title, photoUrl: profile.photoUrl };
}

/** The member a session's client belongs to, with the whole profile. */
export async function currentProfile(client: WixClient): Promise<Profile> {
  const { member } = await client.members.getCurrentMember({ fieldsets: ["FULL"] });
  return toProfile(member);
}

/** The member a session's client belongs to. */
export async function currentMember(client: WixClient): Promise<Member> {
  const { id, name, email, firstName, lastName, joinedAt } = await currentProfile(client);
  return { id, name, email, firstName, lastName, joinedAt };
}

/** The platform's privacy status for the site's one choice: a public profile or a private one. */
export function privacyStatusOf(publicProfile: boolean): "PUBLIC" | "PRIVATE" {
  return publicProfile ? "PUBLIC" : "PRIVATE";
}

/** What the account page's form changes: lists are replaced whole. */
export type ProfileChanges = Pick<Profile, "nickname" | "title" | "emails" | "phones" | "addresses"> & {
  publicProfile: boolean;
  firstName: string;
  lastName: string;
  photoUrl: string;
  customFields: Array<{ key: string; value: string }>;
};

/**
 * Saves the member's own profile. The platform ignores an empty list in an update, so a list
 * the member emptied is cleared with its own call.
 */
export async function updateProfile(client: WixClient, id: string, changes: ProfileChanges): Promise<Profile> {
  const member = await client.members.updateMember(id, {
    privacyStatus: privacyStatusOf(changes.publicProfile),
    profile: { nickname: changes.nickname, title: changes.title, ...(changes.photoUrl ? { photo: { url: changes.photoUrl } } : {}) },
    contact: {
      firstName: changes.firstName,
      lastName: changes.lastName,
      ...(changes.emails.length ? { emails: changes.emails } : {}),
      ...(changes.phones.length ? { phones: changes.phones } : {}),
      ...(changes.addresses.length
        ? {
            addresses: changes.addresses.map(({ streetNumber, streetName, apt, ...address }) => ({
              ...address,
              // The members module's type leaves out `apt`, which the platform's street address has; the client passes it through.
              ...(streetNumber || streetName || apt
                ? { streetAddress: { number: streetNumber, name: streetName, apt } as { number: string; name: string } }
                : {}),
            })),
          }
        : {}),
      ...(changes.customFields.length ? { customFields: Object.fromEntries(changes.customFields.map(({ key, value }) => [key, { value }])) } : {}),
    },
  });
  const clears = [
    !changes.emails.length && client.members.deleteMemberEmails(id),
    !changes.phones.length && client.members.deleteMemberPhones(id),
    !changes.addresses.length && client.members.deleteMemberAddresses(id),
  ].filter((call): call is Promise<never> => Boolean(call));
  if (clears.length === 0) return toProfile(member);
  await Promise.all(clears);
  return currentProfile(client);
}

/** Changes the member's profile address; a slug someone else holds is refused, not an error. */
export async function changeMySlug(client: WixClient, slug: string): Promise<{ ok: true; slug: string } | { ok: false; reason: "taken" }> {
  try {
    const { member } = await client.members.updateCurrentMemberSlug(slug);
    return { ok: true, slug: toProfile(member).slug };
  } catch (error) {
    if (refusalOf(error)?.code === "SLUG_ALREADY_EXISTS") return { ok: false, reason: "taken" };
    throw error;
  }
}

/** Deletes the member's own account on the platform. */
export async function deleteMyAccount(client: WixClient): Promise<void> {
  await client.members.deleteMyMember();
}

/** A member's public profile by slug, or null; private members are not shown to others. */
export async function publicMemberBySlug(slug: string): Promise<PublicMember | null> {
  const items = await cachedRead(
    ["members", "by-slug", slug],
    [TAGS.members],
    async (client) => (await client.members.queryMembers().eq("profile.slug", slug).limit(1).find()).items,
  );
  return items[0] ? toPublicMember(items[0]) : null;
}

export const MEMBERS_PER_PAGE = 24;

/** The member directory by name: public profiles only (the platform leaves private members out). */
export async function listPublicMembers(page: number): Promise<{ members: PublicMember[]; pageCount: number }> {
  const { items, total } = await cachedRead(["members", "directory", page], [TAGS.members], async (client) => {
    const found = await client.members.listMembers({
      paging: { limit: MEMBERS_PER_PAGE, offset: (page - 1) * MEMBERS_PER_PAGE },
      sorting: [{ fieldName: "profile.nickname", order: "ASC" }],
    });
    return { items: found.members ?? [], total: found.metadata?.total ?? 0 };
  });
  return { members: items.map(toPublicMember).filter((member) => member.slug), pageCount: Math.max(1, Math.ceil(total / MEMBERS_PER_PAGE)) };
}

/** How long a login waits for the member's display name before going on without it. */
export const DISPLAY_LOOKUP_TIMEOUT_MS = 3_000;

/** The id and display name the header shows, bounded in time. */
export async function memberDisplay(accessToken: string): Promise<{ id: string; name: string }> {
  const { id, name } = await currentMember(sessionClient(accessToken, AbortSignal.timeout(DISPLAY_LOOKUP_TIMEOUT_MS)));
  return { id, name };
}
