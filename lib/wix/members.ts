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

/**
 * A postal address as the member fills it in: one street line, then the apartment. The platform's
 * address holds the street either as that free-text line (`addressLine`) or as a number and a name
 * (`streetAddress`), one or the other, and the apartment, suite or floor in `addressLine2`; this
 * site writes the line and `addressLine2`, and reads addresses saved the other way into the same
 * two parts, so nothing saved before is lost.
 */
export type PostalAddress = {
  /** Number and street, like "12 Cedar Road". */
  addressLine: string;
  /** The apartment, suite or floor. */
  apt: string;
  city: string;
  subdivision: string;
  /** An ISO 3166-1 alpha-2 code, like "GB"; whatever was saved, when an older address holds something else. */
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
  /** The site's owner muted the member: they may not take part in the community (lib/wix/reports.ts). */
  isMuted: boolean;
};

/**
 * What anyone may see of a member: the PUBLIC fieldset. `named` is false for a member who chose
 * no nickname (the platform then gives the neutral one, `NEUTRAL_NAME`); `joinedAt` (an ISO
 * string, as the shared cache keeps JSON) tells such members apart in the directory.
 */
export type PublicMember = { id: string; slug: string; name: string; title: string; photoUrl?: string; named: boolean; joinedAt?: string };

/** The name the platform gives a member who chose none (and the site shows for one without any). */
export const NEUTRAL_NAME = "Member";

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
  activityStatus: z.string().nullish().catch(undefined),
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

/** The parts that hold text, each once, as one line: "Old Mill House, 4 Mill Lane". */
function joinedParts(parts: string[]): string {
  return [...new Set(parts.map((part) => part.trim()).filter(Boolean))].join(", ");
}

/**
 * A saved address in the form's two street parts. An address saved with a street number and
 * name (or with both that and a line, which the platform keeps) gets one line holding all of
 * it; an apartment kept in the street address joins the second line.
 */
function toPostalAddress(address: z.infer<typeof addressData>): PostalAddress {
  const street = [address.streetAddress?.number ?? "", address.streetAddress?.name ?? ""].filter(Boolean).join(" ");
  return {
    addressLine: joinedParts([address.addressLine, street]),
    apt: joinedParts([address.streetAddress?.apt ?? "", address.addressLine2]),
    city: address.city,
    subdivision: address.subdivision,
    country: address.country.trim().toUpperCase(),
    postalCode: address.postalCode,
  };
}

/** The name shown for a member: never anything of the e-mail address, which stays private. */
function displayName(nickname: string, firstName: string, lastName: string): string {
  return nickname || [firstName, lastName].filter(Boolean).join(" ") || NEUTRAL_NAME;
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
    name: displayName(nickname, firstName, lastName),
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
    addresses: (contact.addresses ?? []).map(toPostalAddress),
    customFields: Object.entries(contact.customFields ?? {}).map(([key, field]) => ({
      key,
      name: field.name || key,
      value: typeof field.value === "string" || typeof field.value === "number" ? String(field.value) : "",
    })),
    isPrivate: parsed.privacyStatus === "PRIVATE",
    isMuted: parsed.activityStatus === "MUTED",
  };
}

/** Reshapes a member of the PUBLIC fieldset. */
export function toPublicMember(raw: unknown): PublicMember {
  const profile = toProfile(raw);
  const name = displayName(profile.nickname, "", "");
  return {
    id: profile.id,
    slug: profile.slug,
    name,
    title: profile.title,
    photoUrl: profile.photoUrl,
    named: name !== NEUTRAL_NAME,
    ...(profile.joinedAt && { joinedAt: profile.joinedAt.toISOString() }),
  };
}

/** The member a session's client belongs to, with the whole profile. */
export async function currentProfile(client: WixClient): Promise<Profile> {
  const { member } = await client.members.getCurrentMember({ fieldsets: ["FULL"] });
  return toProfile(member);
}

/**
 * Whether the site's owner has muted the member a session's client belongs to: a muted member
 * keeps their access but may not take part in the community (docs/member-experience.md,
 * "Muted members"). Asked of the platform each time, never cached: the owner may mute at any moment.
 */
export async function isMuted(client: WixClient): Promise<boolean> {
  try {
    const { member } = await client.members.getCurrentMember({ fieldsets: ["EXTENDED"] });
    return member?.activityStatus === "MUTED";
  } catch (error) {
    // No member behind the client (a visitor's): nobody to mute, and the write's own permission decides.
    if (refusalOf(error)) return false;
    throw error;
  }
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
 * the member emptied is cleared with its own call. A public profile is the member's place in
 * the site's community: making it public joins the community, making it private leaves it,
 * each with the members API's own call.
 */
export async function updateProfile(client: WixClient, id: string, changes: ProfileChanges): Promise<Profile> {
  const member = await client.members.updateMember(id, {
    profile: { nickname: changes.nickname, title: changes.title, ...(changes.photoUrl ? { photo: { url: changes.photoUrl } } : {}) },
    contact: {
      firstName: changes.firstName,
      lastName: changes.lastName,
      ...(changes.emails.length ? { emails: changes.emails } : {}),
      ...(changes.phones.length ? { phones: changes.phones } : {}),
      ...(changes.addresses.length
        ? {
            // The line, never `streetAddress`: the platform holds one or the other.
            addresses: changes.addresses.map(({ apt, ...address }) => ({ ...address, addressLine2: apt })),
          }
        : {}),
      ...(changes.customFields.length ? { customFields: Object.fromEntries(changes.customFields.map(({ key, value }) => [key, { value }])) } : {}),
    },
  });
  const saved = toProfile(member);
  const followUps = [
    saved.isPrivate === changes.publicProfile && (changes.publicProfile ? client.members.joinCommunity() : client.members.leaveCommunity()),
    !changes.emails.length && client.members.deleteMemberEmails(id),
    !changes.phones.length && client.members.deleteMemberPhones(id),
    !changes.addresses.length && client.members.deleteMemberAddresses(id),
  ].filter((call): call is Promise<never> => Boolean(call));
  if (followUps.length === 0) return saved;
  await Promise.all(followUps);
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
  // Public profiles are reshaped before they are cached, so a cached one is only copied; the keys name what is kept.
  return cachedRead(["public-members", "by-slug", slug], [TAGS.members], async (client) => {
    const [found] = (await client.members.queryMembers().eq("profile.slug", slug).limit(1).find()).items;
    return found ? toPublicMember(found) : null;
  });
}

export const MEMBERS_PER_PAGE = 24;

/** A page of the directory, and how many members it holds in all. */
export type DirectoryPage = { members: PublicMember[]; total: number; pageCount: number };

/**
 * The member directory: public profiles only (the platform leaves private members out). The
 * whole directory is listed by nickname (`listMembers` sorts; members who chose none share the
 * neutral name, so they follow one another in the order they joined). A search asks the members
 * query, which looks in nicknames (its default field) and sorts nothing: matches come in the
 * platform's order. The neutral name is left out of a search: "mem" looks for a name, not for
 * everyone without one.
 */
export async function listPublicMembers(query: string, page: number): Promise<DirectoryPage> {
  const { members, total } = await cachedRead(["public-members", "directory", query, page], [TAGS.members], async (client) => {
    const paging = { limit: MEMBERS_PER_PAGE, offset: (page - 1) * MEMBERS_PER_PAGE };
    if (!query) {
      const found = await client.members.listMembers({
        paging,
        sorting: [
          { fieldName: "profile.nickname", order: "ASC" },
          { fieldName: "createdDate", order: "ASC" },
        ],
      });
      return { members: (found.members ?? []).map(toPublicMember), total: found.metadata?.total ?? 0 };
    }
    const found = await client.members
      .queryMembers({ search: { expression: query, fields: ["profile.nickname"] } })
      .ne("profile.nickname", NEUTRAL_NAME)
      .skip(paging.offset)
      .limit(paging.limit)
      .find();
    return { members: found.items.map(toPublicMember), total: found.totalCount ?? 0 };
  });
  // A member without a profile address has no page to link to.
  const linked = members.filter((member) => member.slug);
  return { members: linked, total, pageCount: Math.max(1, Math.ceil(total / MEMBERS_PER_PAGE)) };
}

/** How long a login waits for the member's display name before going on without it. */
export const DISPLAY_LOOKUP_TIMEOUT_MS = 3_000;

/** The id and display name the header shows, bounded in time. */
export async function memberDisplay(accessToken: string): Promise<{ id: string; name: string }> {
  const { id, name } = await currentMember(sessionClient(accessToken, AbortSignal.timeout(DISPLAY_LOOKUP_TIMEOUT_MS)));
  return { id, name };
}
