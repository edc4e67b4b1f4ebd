import { z } from "zod";
import type { Badge, BadgeAssignment, BadgeFields, TagIds } from "./store";

/** Badges and assignments in the REST shape the `@wix/members` clients expect (docs/platform/badges.md). */

const iso = (ms: number) => new Date(ms).toISOString();

/** A badge as v3 answers it; v4 adds the revision. */
export const badgeWire = (badge: Badge) => ({
  id: badge.id,
  title: badge.title,
  ...(badge.description !== null && { description: badge.description }),
  backgroundColor: badge.backgroundColor,
  textColor: badge.textColor,
  ...(badge.icon !== null && { icon: badge.icon }),
  permissionsEnabled: badge.permissionsEnabled,
  slug: badge.slug,
  createdDate: iso(badge.createdAt),
  updatedDate: iso(badge.updatedAt),
});
export const badgeV4Wire = (badge: Badge) => ({ ...badgeWire(badge), revision: String(badge.revision) });

export const assignmentWire = (assignment: BadgeAssignment) => ({
  id: assignment.id,
  badgeId: assignment.badgeId,
  memberId: assignment.memberId,
  tags: { privateTags: { tagIds: assignment.tags.privateTags }, tags: { tagIds: assignment.tags.tags } },
  createdDate: iso(assignment.createdAt),
  updatedDate: iso(assignment.updatedAt),
});

const color = z.string().regex(/^#[0-9A-Fa-f]{6}$/, "a color is # and six hexadecimal digits");
/** The writable fields; `nullish` as the clients send null for a cleared field. */
const fields = {
  title: z.string().trim().min(1).max(50),
  description: z.string().max(1500).nullish(),
  backgroundColor: color,
  textColor: color,
  icon: z.string().max(2000).nullish(),
  permissionsEnabled: z.boolean().nullish(),
};
export const newBadgeSchema = z.object({
  ...fields,
  // v3 says both colors default when left out; v4 requires them: they default here for either.
  backgroundColor: color.default("#796EFF"),
  textColor: color.default("#FFFFFF"),
});
export const badgeChangesSchema = z.object({
  title: fields.title.optional(),
  description: fields.description,
  backgroundColor: color.optional(),
  textColor: color.optional(),
  icon: fields.icon,
  permissionsEnabled: fields.permissionsEnabled,
  revision: z.union([z.string().regex(/^\d{1,15}$/, "a revision is a whole number"), z.number().int().nonnegative()]).optional(),
});

export const newBadgeFields = (input: z.infer<typeof newBadgeSchema>): BadgeFields => ({
  title: input.title,
  description: input.description ?? null,
  backgroundColor: input.backgroundColor,
  textColor: input.textColor,
  icon: input.icon ?? null,
  permissionsEnabled: input.permissionsEnabled ?? false,
});

/** The fields an update names (null clears the optional ones). */
export function badgeChanges(input: z.infer<typeof badgeChangesSchema>): Partial<BadgeFields> {
  const changes: Partial<BadgeFields> = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.description !== undefined) changes.description = input.description;
  if (input.backgroundColor !== undefined) changes.backgroundColor = input.backgroundColor;
  if (input.textColor !== undefined) changes.textColor = input.textColor;
  if (input.icon !== undefined) changes.icon = input.icon;
  if (input.permissionsEnabled !== undefined && input.permissionsEnabled !== null) changes.permissionsEnabled = input.permissionsEnabled;
  return changes;
}

const tagList = z.object({ tagIds: z.array(z.string().min(1).max(100)).max(100).optional() }).nullish();
export const tagsSchema = z.object({ privateTags: tagList, tags: tagList }).nullish();
export const tagIdsOf = (tags: z.infer<typeof tagsSchema>): TagIds => ({ privateTags: tags?.privateTags?.tagIds ?? [], tags: tags?.tags?.tagIds ?? [] });
