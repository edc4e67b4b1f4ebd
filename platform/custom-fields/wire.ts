import type { CustomField } from "./store";

const iso = (ms: number) => new Date(ms).toISOString();
/** A field as the custom-field modules answer it; `appliesTo` says whether an application narrows it. */
export const fieldWire = (field: CustomField, narrowed: boolean) => ({
  id: field.id,
  name: field.name,
  key: field.key,
  defaultPrivacy: field.defaultPrivacy,
  fieldType: field.fieldType,
  socialType: field.socialType,
  fieldOrigin: "CUSTOM",
  appliesTo: narrowed ? "SELECTED_MEMBERS" : "ALL_MEMBERS",
  section: field.section,
  createdDate: iso(field.createdAt),
  updatedDate: iso(field.updatedAt),
  revision: String(field.revision),
});
