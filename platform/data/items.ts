import type { Caller } from "../types";
import { conditionNotMet, includeLimitExceeded, invalidItemId, invalidRequest, itemNotFound, notMultiReference, permissionDenied } from "./errors";
import { assertWithinRanges } from "./field-ranges";
import { applyFieldModifications, type FieldModification } from "./patch";
import { assertPermitted, isPermitted, mayAct, mayTouchItem, ownerOf } from "./permissions";
import { isHiddenDraft, settlePublishStatus } from "./publishing";
import { isPlainObject } from "./query-compiler";
import type { DataStore } from "./store";
import type { CollectionField, DataAction, StoredCollection } from "./collection";
import { normaliseItemData, type ItemData } from "./wire";

/** A data item as requests carry it: `{id?, data}`; the id may sit in either place. */
export type WireItemInput = { id?: string; data?: unknown };

export type IncludeReference = { field: string; limit?: number };

/** Included multi-reference items per referring item: default 50, at most 1000. */
export const DEFAULT_INCLUDE_LIMIT = 50;
const MAX_INCLUDE_LIMIT = 1000;

/** Whether a denied owner check reads as "no such item" (bulk: skipped) or as a 403 (single calls). */
export type OwnerDenial = "forbid" | "hide";

/** How a write treats what it meets. */
export type WriteOptions = {
  /** Keep MULTI_REFERENCE values as links. */
  saveReferences?: boolean;
  /** How another member's item reads (default `forbid`). */
  denial?: OwnerDenial;
  /** Draft items may be changed (`publishPluginOptions.includeDraftItems`); otherwise they read as missing. */
  includeDrafts?: boolean;
  /** A filter (`condition.filter`) the item must match to be changed (update, patch, remove and their bulk forms). */
  condition?: Record<string, unknown> | null;
};

function referenceTarget(field: CollectionField): string | undefined {
  const metadata = field.typeMetadata as { reference?: { referencedCollectionId?: string }; multiReference?: { referencedCollectionId?: string } } | undefined;
  return field.type === "REFERENCE" ? metadata?.reference?.referencedCollectionId : metadata?.multiReference?.referencedCollectionId;
}

/** A reference value given as an id or as the referenced item itself. */
function referenceId(value: unknown): unknown {
  return isPlainObject(value) && typeof value._id === "string" ? value._id : value;
}

export function multiReferenceField(collection: StoredCollection, fieldKey: string): { field: CollectionField; target: string } {
  const field = collection.fields.find((f) => f.key === fieldKey);
  const target = field && field.type === "MULTI_REFERENCE" ? referenceTarget(field) : undefined;
  if (!field || !target) throw notMultiReference(fieldKey);
  return { field, target };
}

/**
 * Item operations shared by the single and bulk endpoints: validation, system fields,
 * reference handling and owner checks. Collection-level permission checks happen once per
 * request in the routes.
 */
export class ItemService {
  constructor(private readonly store: DataStore) {}

  /** Validated item data with REFERENCE values reduced to ids and MULTI_REFERENCE values taken out. */
  private prepare(collection: StoredCollection, input: WireItemInput) {
    const data = normaliseItemData(input.data ?? {}, collection.id);
    if (input.id !== undefined && data._id !== undefined && input.id !== data._id) {
      throw invalidRequest(`dataItem.id [${input.id}] and data._id [${String(data._id)}] differ.`);
    }
    if (data._id === undefined && typeof input.id === "string" && input.id !== "") data._id = input.id;
    const multiReferences = new Map<string, string[]>();
    for (const field of collection.fields) {
      if (!(field.key in data)) continue;
      if (field.type === "REFERENCE") data[field.key] = referenceId(data[field.key]);
      if (field.type === "MULTI_REFERENCE") {
        const value = data[field.key];
        if (Array.isArray(value))
          multiReferences.set(
            field.key,
            value.map(referenceId).filter((id): id is string => typeof id === "string"),
          );
        delete data[field.key];
      }
    }
    // Clients cannot stamp system fields; only an admin may set `_owner` (site-owner permission).
    delete data._createdDate;
    delete data._updatedDate;
    // Every write (insert, update, save, patch, their bulk forms) passes here, whoever the caller.
    assertWithinRanges(collection, data);
    return { data, multiReferences };
  }

  private saveReferences(collection: StoredCollection, id: string, multiReferences: Map<string, string[]>): void {
    for (const [fieldKey, ids] of multiReferences) {
      const { target } = multiReferenceField(collection, fieldKey);
      this.store.references.replace(collection.id, fieldKey, id, target, ids);
    }
  }

  private ownerFor(caller: Caller, data: ItemData): string | null {
    if (caller.kind === "admin" && typeof data._owner === "string") return data._owner;
    delete data._owner;
    return ownerOf(caller);
  }

  insert(collection: StoredCollection, caller: Caller, input: WireItemInput, options: WriteOptions = {}): ItemData {
    const { data, multiReferences } = this.prepare(collection, input);
    settlePublishStatus(collection, data, { mayChoose: caller.kind === "admin" });
    const item = this.store.insertItem(collection.id, data, this.ownerFor(caller, data));
    if (options.saveReferences) this.saveReferences(collection, item._id as string, multiReferences);
    return item;
  }

  /**
   * An existing item the caller may act on and that meets the write's condition, else WDE0073
   * (missing, hidden, a draft the call does not include, or not meeting the condition) or
   * WDE0027. The condition is looked at last, so it cannot probe an item the caller may not see.
   */
  existing(collection: StoredCollection, caller: Caller, id: string, action: DataAction, options: WriteOptions): ItemData {
    const item = this.store.getItem(collection.id, id);
    if (isHiddenDraft(collection, item, options.includeDrafts === true)) throw itemNotFound(collection.id, id);
    if (!mayTouchItem(collection, action, caller, item)) {
      throw options.denial === "hide" ? itemNotFound(collection.id, id) : permissionDenied(collection.id, action);
    }
    if (options.condition && this.store.count(collection.id, { filter: { $and: [{ _id: id }, options.condition] }, includeDrafts: true }) === 0) {
      throw conditionNotMet(collection.id, id);
    }
    return item;
  }

  /** Compiles a condition once, so a malformed one fails the whole bulk request rather than each entry. */
  checkCondition(collection: StoredCollection, condition: WriteOptions["condition"]): void {
    if (condition) this.store.matchingIds(collection.id, { filter: condition }, null, 0);
  }

  update(collection: StoredCollection, caller: Caller, input: WireItemInput, options: WriteOptions = {}): ItemData {
    const { data, multiReferences } = this.prepare(collection, input);
    if (typeof data._id !== "string") throw invalidItemId();
    const current = this.existing(collection, caller, data._id, "update", options);
    const owner = caller.kind === "admin" && typeof data._owner === "string" ? data._owner : undefined;
    delete data._owner;
    settlePublishStatus(collection, data, { mayChoose: caller.kind === "admin", current });
    const item = this.store.replaceItem(collection.id, data._id, data, owner);
    if (options.saveReferences) this.saveReferences(collection, data._id, multiReferences);
    return item;
  }

  /** Insert when the id is new (or absent), otherwise a full replace; save needs both permissions. */
  save(collection: StoredCollection, caller: Caller, input: WireItemInput, options: WriteOptions = {}): { action: "INSERTED" | "UPDATED"; item: ItemData } {
    // A caller who may neither insert nor update gets one answer whether or not the id exists,
    // so a save cannot probe a collection it may not read.
    if (!isPermitted(collection, "insert", caller) && !isPermitted(collection, "update", caller)) throw permissionDenied(collection.id, "insert");
    const id = typeof input.id === "string" ? input.id : isPlainObject(input.data) && typeof input.data._id === "string" ? input.data._id : undefined;
    if (id !== undefined && this.store.findItem(collection.id, id)) {
      assertPermitted(collection, "update", caller);
      return { action: "UPDATED", item: this.update(collection, caller, input, options) };
    }
    assertPermitted(collection, "insert", caller);
    return { action: "INSERTED", item: this.insert(collection, caller, input, options) };
  }

  remove(collection: StoredCollection, caller: Caller, id: string, options: WriteOptions = {}): ItemData {
    this.existing(collection, caller, id, "remove", options);
    return this.store.removeItem(collection.id, id);
  }

  /** Applies field modifications; on a MULTI_REFERENCE field, append/remove/set change links. */
  patch(collection: StoredCollection, caller: Caller, id: string, modifications: FieldModification[], options: WriteOptions = {}): ItemData {
    const current = this.existing(collection, caller, id, "update", options);
    const dataModifications: FieldModification[] = [];
    const linkChanges: (() => void)[] = [];
    for (const modification of modifications) {
      const field = collection.fields.find((f) => f.key === modification.fieldPath);
      if (field?.type === "MULTI_REFERENCE") linkChanges.push(() => this.patchLinks(collection, id, modification));
      else dataModifications.push(modification);
    }
    if (modifications.length === 0) throw invalidRequest("fieldModifications must not be empty.");
    const next = dataModifications.length > 0 ? applyFieldModifications(current, dataModifications) : current;
    const { data } = this.prepare(collection, { data: next });
    const item = this.store.replaceItem(collection.id, id, data);
    for (const change of linkChanges) change();
    return item;
  }

  private patchLinks(collection: StoredCollection, id: string, modification: FieldModification): void {
    const { target } = multiReferenceField(collection, modification.fieldPath);
    const ids = (value: unknown) => (Array.isArray(value) ? value : [value]).map(referenceId).filter((v): v is string => typeof v === "string");
    switch (modification.action) {
      case "APPEND_TO_ARRAY":
        this.store.references.insert(collection.id, modification.fieldPath, id, target, ids(modification.appendToArrayOptions?.value));
        break;
      case "REMOVE_FROM_ARRAY":
        for (const referenced of ids(modification.removeFromArrayOptions?.value))
          this.store.references.remove(collection.id, modification.fieldPath, id, referenced);
        break;
      case "SET_FIELD":
        this.store.references.replace(collection.id, modification.fieldPath, id, target, ids(modification.setFieldOptions?.value ?? []));
        break;
      case "REMOVE_FIELD":
        this.store.references.replace(collection.id, modification.fieldPath, id, target, []);
        break;
      default:
        throw invalidRequest(`${modification.action} is not supported on the multi-reference field [${modification.fieldPath}].`);
    }
  }

  /** A single item as the caller may read it: hidden items, and drafts unless included, read as missing. */
  get(collection: StoredCollection, caller: Caller, id: string, includeDrafts = false): ItemData {
    return this.existing(collection, caller, id, "read", { denial: "hide", includeDrafts });
  }

  /**
   * Replaces REFERENCE ids with the referenced items and adds MULTI_REFERENCE fields as arrays of
   * items (in link order, `limit` per item), where the caller may read the referenced collection.
   * A reference to a missing or unreadable item, or to a draft the read does not include, keeps its id.
   */
  includeReferences(collection: StoredCollection, caller: Caller, items: ItemData[], include: IncludeReference[], includeDrafts = false): ItemData[] {
    if (include.length === 0 || items.length === 0) return items;
    for (const { field: fieldKey, limit = DEFAULT_INCLUDE_LIMIT } of include) {
      if (limit > MAX_INCLUDE_LIMIT) throw includeLimitExceeded(limit, MAX_INCLUDE_LIMIT);
      const field = collection.fields.find((f) => f.key === fieldKey);
      const targetId = field ? referenceTarget(field) : undefined;
      if (!field || !targetId) continue;
      const target = this.store.findCollection(targetId);
      if (!target || !this.canRead(target, caller)) continue;
      const readable = (id: string) => this.findReadable(target, caller, id, includeDrafts);
      for (const item of items) {
        if (field.type === "REFERENCE") {
          if (typeof item[fieldKey] === "string") item[fieldKey] = readable(item[fieldKey] as string) ?? item[fieldKey];
        } else {
          const { links } = this.store.references.list(collection.id, fieldKey, [item._id as string], { limit, offset: 0 });
          item[fieldKey] = links.map((link) => readable(link.referencedId)).filter((referenced) => referenced !== undefined);
        }
      }
    }
    return items;
  }

  /** Every reference field of the collection, for `includeReferencedItems: true` on writes. */
  allReferenceFields(collection: StoredCollection): IncludeReference[] {
    return collection.fields.filter((f) => f.type === "REFERENCE" || f.type === "MULTI_REFERENCE").map((f) => ({ field: f.key }));
  }

  /** The item if the caller may read it; undefined when it is missing, another member's under SITE_MEMBER_AUTHOR, or a draft the read does not include. */
  findReadable(collection: StoredCollection, caller: Caller, id: string, includeDrafts = false): ItemData | undefined {
    const item = this.store.findItem(collection.id, id);
    return item && !isHiddenDraft(collection, item, includeDrafts) && mayTouchItem(collection, "read", caller, item) ? item : undefined;
  }

  canRead(collection: StoredCollection, caller: Caller): boolean {
    return mayAct(collection, "read", caller);
  }
}
