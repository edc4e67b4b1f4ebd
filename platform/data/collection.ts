/** A collection's definition as the collections API takes it and the data store keeps it; shared by the store and the rules that read it. */

export const PUBLISH_STATUSES = ["PUBLISHED", "DRAFT"] as const;
export type PublishStatus = (typeof PUBLISH_STATUSES)[number];

/**
 * The collection plugins the platform keeps (docs/platform/data.md §18.2): the Publish plugin,
 * which it enforces, and the Urlized, Multilingual and CMS plugins, kept as settings for the
 * app that reads them back.
 */
export type CollectionPlugin =
  | { type: "PUBLISH"; publishOptions?: { defaultStatus?: PublishStatus } }
  | { type: "URLIZED"; urlizedOptions?: { format?: "ORIGINAL" | "PLAIN" } }
  | { type: "MULTILINGUAL"; multilingualOptions?: { translatableFieldKeys?: string[] } }
  | { type: "CMS"; cmsOptions?: { siteSort?: { sort?: { fieldKey?: string; direction?: "ASC" | "DESC" }[] } } };

/**
 * The level an action needs. `CMS_EDITOR` (collaborators with CMS access) is the permissions API's
 * level that the collections API also reports; `ADMIN` is that API's `PRIVILEGED`.
 */
export type PermissionRole = "ADMIN" | "CMS_EDITOR" | "SITE_MEMBER_AUTHOR" | "SITE_MEMBER" | "ANYONE";
export type DataAction = "read" | "insert" | "update" | "remove";
export type CollectionPermissions = Record<DataAction, PermissionRole>;

/** A grant of the permissions API: a member allowed actions whatever the collection's levels. */
export type SpecialPermission = { id: string; userId: string; allowed: DataAction[] };

export type CollectionField = {
  key: string;
  displayName?: string;
  type: string;
  typeMetadata?: Record<string, unknown>;
  [other: string]: unknown;
};

export type CollectionDefinition = {
  id: string;
  displayName?: string;
  displayField?: string;
  fields: CollectionField[];
  permissions: CollectionPermissions;
  /** At most one plugin of each type (docs/platform/data.md §18). */
  plugins?: CollectionPlugin[];
};

export type StoredCollection = CollectionDefinition & {
  revision: number;
  createdDate: string;
  updatedDate: string;
  /** Kept in their own table (`data/special-permissions.ts`), not in the definition. */
  specialPermissions: SpecialPermission[];
  /** The Draft Items pair the collection is part of (`data/draft-items.ts`, its own table): the other collection's id. */
  draftItems?: { draftsCollectionId: string } | { publishedCollectionId: string };
};
