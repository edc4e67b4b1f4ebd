/** A collection's definition as the collections API takes it and the data store keeps it; shared by the store and the rules that read it. */

export const PUBLISH_STATUSES = ["PUBLISHED", "DRAFT"] as const;
export type PublishStatus = (typeof PUBLISH_STATUSES)[number];

export type CollectionPlugin = { type: "PUBLISH"; publishOptions?: { defaultStatus?: PublishStatus } };

export type PermissionRole = "ADMIN" | "SITE_MEMBER_AUTHOR" | "SITE_MEMBER" | "ANYONE";
export type CollectionPermissions = Record<"read" | "insert" | "update" | "remove", PermissionRole>;

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
  /** The Publish plugin (docs/platform/data.md §18), the only plugin this platform keeps. */
  plugins?: CollectionPlugin[];
};

export type StoredCollection = CollectionDefinition & { revision: number; createdDate: string; updatedDate: string };
