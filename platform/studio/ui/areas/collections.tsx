import { useEffect, useRef, useState, type FormEvent } from "react";
import { StudioApiError, studioApi, useStudioData } from "../api";
import type { AreaProps } from "../area-props";
import { AreaHeading, ErrorMessage, Loading, StatusMessage, Table } from "../components";
import { Link, navigate, studioHref, useDebounced, useLeaveGuard } from "../router";
import { controlId, convertDraft, draftOf, FieldEditor, type Draft, type Field } from "./field-editors";

/**
 * Collections (docs/platform/studio.md §4): the list of collections; one collection's fields and
 * items (filter, sort, pages), import and export; and an item's form.
 * Addresses: `collections`, `collections/<id>`, `collections/<id>/items/<itemId>`, `collections/<id>/new`.
 */

type Permissions = { read: string; insert: string; update: string; remove: string };
type Collection = { id: string; displayName: string; displayField?: string; fields: Field[]; permissions: Permissions; itemCount?: number };
type Item = Record<string, unknown> & { _id: string };
type Job = { id: string; status: string; progress: { current: number; itemsSuccessful: number; itemsRejected: number }; error?: { description: string } };
type JobLog = { sourceItemId: string; failure?: { description: string }; details?: { skipped?: boolean } };

const ROLES = ["ANYONE", "SITE_MEMBER", "SITE_MEMBER_AUTHOR", "CMS_EDITOR", "ADMIN"];
const ACTIONS = ["read", "insert", "update", "remove"] as const;
/** The types offered when adding a field; the API takes every type of the collections API. */
const NEW_FIELD_TYPES = [
  "TEXT",
  "NUMBER",
  "BOOLEAN",
  "DATE",
  "DATETIME",
  "TIME",
  "URL",
  "IMAGE",
  "VIDEO",
  "DOCUMENT",
  "RICH_TEXT",
  "REFERENCE",
  "MULTI_REFERENCE",
  "ARRAY_STRING",
  "ARRAY",
  "OBJECT",
  "ADDRESS",
];
const PAGE_SIZES = [10, 25, 50, 100];
const FINISHED = ["COMPLETED", "FAILED", "PARTIALLY_SUCCESSFUL"];
/** Declared fields shown as table columns, after the item's name. */
const TABLE_COLUMNS = 4;

/** A confirmation that outlives a move to another page (added, deleted): said once by the next page. */
let carriedNotice = "";
function carryNotice(text: string) {
  carriedNotice = text;
}
function useCarriedNotice(): [string, (text: string) => void] {
  const [notice, setNotice] = useState(() => {
    const text = carriedNotice;
    carriedNotice = "";
    return text;
  });
  return [notice, setNotice];
}

const collectionPath = (id: string) => `/collections/${encodeURIComponent(id)}`;
const itemHref = (collectionId: string, itemId: string) => studioHref(["collections", collectionId, "items", itemId]);
const nameOf = (collection: Collection, item: Item) => {
  const value = collection.displayField ? item[collection.displayField] : undefined;
  return typeof value === "string" && value.trim() ? value : item._id;
};

/** A cell's short text: long text cut, objects summarised. */
function cell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "object" && typeof (value as { $date?: unknown }).$date === "string")
    return new Date((value as { $date: string }).$date).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  if (Array.isArray(value)) return value.every((entry) => typeof entry === "string") ? value.join(", ") : `${value.length} entries`;
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

export function CollectionsArea({ path, search }: AreaProps) {
  const [collectionId, section, itemId] = path;
  if (!collectionId) return <CollectionList />;
  if (section === "items" && itemId) return <ItemPage key={itemId} collectionId={collectionId} itemId={itemId} />;
  if (section === "new") return <ItemPage key="new" collectionId={collectionId} />;
  return <CollectionPage key={collectionId} collectionId={collectionId} search={search} />;
}

function PermissionsText({ permissions }: { permissions: Permissions }) {
  return <>{ACTIONS.map((action) => `${action}: ${permissions[action]}`).join(" · ")}</>;
}

function CollectionList() {
  const list = useStudioData<{ collections: Collection[] }>("/collections");
  const [notice] = useCarriedNotice();
  return (
    <>
      <AreaHeading>Collections</AreaHeading>
      <p className="muted">Every collection of the local platform&apos;s data service. Changes here are the site owner&apos;s and reach the site at once.</p>
      <StatusMessage>{notice}</StatusMessage>
      <ErrorMessage error={list.error} />
      {!list.data && list.loading && <Loading what="the collections" />}
      {list.data && (
        <Table caption="Collections" columns={["Collection", "Items", "Fields", "Permissions"]}>
          {list.data.collections.map((collection) => (
            <tr key={collection.id}>
              <th scope="row">
                <Link href={studioHref(["collections", collection.id])}>{collection.displayName}</Link>
                {collection.displayName !== collection.id && <span className="muted"> ({collection.id})</span>}
              </th>
              <td>{collection.itemCount}</td>
              <td>{collection.fields.filter((field) => !field.systemField).length}</td>
              <td className="small-text">
                <PermissionsText permissions={collection.permissions} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <NewCollection />
    </>
  );
}

function NewCollection() {
  const [id, setId] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [permissions, setPermissions] = useState<Permissions>({ read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
  const [error, setError] = useState<StudioApiError | null>(null);
  const [busy, setBusy] = useState(false);
  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await studioApi("/collections", { method: "POST", body: { id, displayName: displayName || undefined, permissions } });
      carryNotice(`Collection ${id} created. Add its fields below.`);
      navigate(studioHref(["collections", id]));
    } catch (caught) {
      setError(caught as StudioApiError);
      setBusy(false);
    }
  }
  return (
    <form className="panel" onSubmit={create} aria-labelledby="new-collection">
      <h2 id="new-collection">New collection</h2>
      <ErrorMessage error={error} />
      <div className="form-row">
        <div className="field">
          <label htmlFor="new-collection-id">ID</label>
          <input id="new-collection-id" required pattern="[A-Za-z][A-Za-z0-9_-]*" value={id} onChange={(event) => setId(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-collection-name">Display name</label>
          <input id="new-collection-name" value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
        </div>
        {ACTIONS.map((action) => (
          <div className="field" key={action}>
            <label htmlFor={`new-collection-${action}`}>Who may {action}</label>
            <select
              id={`new-collection-${action}`}
              value={permissions[action]}
              onChange={(event) => setPermissions({ ...permissions, [action]: event.target.value })}
            >
              {ROLES.map((role) => (
                <option key={role}>{role}</option>
              ))}
            </select>
          </div>
        ))}
      </div>
      <button type="submit" disabled={busy}>
        Create collection
      </button>
    </form>
  );
}

type TableState = { q: string; sort: string; order: "ASC" | "DESC"; page: number; size: number };

function tableState(search: URLSearchParams): TableState {
  const size = Number(search.get("size"));
  return {
    q: search.get("q") ?? "",
    sort: search.get("sort") ?? "",
    order: search.get("order") === "DESC" ? "DESC" : "ASC",
    page: Math.max(1, Number(search.get("page")) || 1),
    size: PAGE_SIZES.includes(size) ? size : 25,
  };
}

/** A column's header that sorts the table by it, and says how it is sorted. */
function SortHeader({
  field,
  sorted,
  onSort,
}: {
  field: Pick<Field, "key" | "displayName">;
  sorted: { sort: string; order: string };
  onSort: (key: string) => void;
}) {
  const by = sorted.sort === field.key;
  return (
    <th scope="col" aria-sort={by ? (sorted.order === "ASC" ? "ascending" : "descending") : undefined}>
      <button type="button" className="sort" onClick={() => onSort(field.key)}>
        {field.displayName ?? field.key}
        <span aria-hidden="true">{by ? (sorted.order === "ASC" ? " ▲" : " ▼") : ""}</span>
      </button>
    </th>
  );
}

function CollectionPage({ collectionId, search }: { collectionId: string; search: URLSearchParams }) {
  const loaded = useStudioData<{ collection: Collection }>(collectionPath(collectionId));
  const [state, setState] = useState(() => tableState(search));
  const [filter, setFilter] = useState(state.q);
  const q = useDebounced(filter.trim(), 300);
  const [notice, setNotice] = useCarriedNotice();
  const view = { ...state, q };
  const items = useStudioData<{ items: Item[]; titles: Record<string, Record<string, string>>; total: number }>(`${collectionPath(collectionId)}/items`, {
    q: view.q,
    sort: view.sort || undefined,
    order: view.order,
    offset: (view.page - 1) * view.size,
    limit: view.size,
  });

  // A new filter starts at the first page (adjusted while rendering: it follows from the debounced text).
  if (q !== state.q) setState((current) => ({ ...current, q, page: 1 }));
  useEffect(() => {
    const query = { q: state.q, sort: state.sort, order: state.sort ? state.order : undefined, page: state.page > 1 ? String(state.page) : undefined };
    navigate(studioHref(["collections", collectionId], { ...query, size: state.size !== 25 ? String(state.size) : undefined }), { replace: true });
  }, [collectionId, state]);

  const collection = loaded.data?.collection;
  if (!collection) {
    return (
      <>
        <AreaHeading>Collection {collectionId}</AreaHeading>
        <ErrorMessage error={loaded.error} />
        {loaded.loading && <Loading what="the collection" />}
      </>
    );
  }
  const declared = collection.fields.filter((field) => !field.systemField);
  const columns = declared.filter((field) => field.key !== collection.displayField && field.type !== "MULTI_REFERENCE").slice(0, TABLE_COLUMNS);
  const total = items.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / state.size));
  const first = total === 0 ? 0 : (state.page - 1) * state.size + 1;
  const last = Math.min(total, state.page * state.size);
  const sortBy = (key: string) =>
    setState((current) => ({ ...current, sort: key, order: current.sort === key && current.order === "ASC" ? "DESC" : "ASC", page: 1 }));

  return (
    <>
      <p className="crumbs">
        <Link href={studioHref(["collections"])}>Collections</Link> /
      </p>
      <AreaHeading
        focusKey={collection.id}
        actions={
          <Link className="button" href={studioHref(["collections", collection.id, "new"])}>
            Add item
          </Link>
        }
      >
        {collection.displayName}
      </AreaHeading>
      <p className="muted">
        ID {collection.id} · <PermissionsText permissions={collection.permissions} />
      </p>
      <StatusMessage>{notice}</StatusMessage>

      <h2>Items</h2>
      <form className="toolbar" role="search" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="items-filter">Filter</label>
        <input id="items-filter" type="search" value={filter} onChange={(event) => setFilter(event.target.value)} placeholder="Words in any text field" />
        <label htmlFor="items-size">Per page</label>
        <select id="items-size" value={state.size} onChange={(event) => setState({ ...state, size: Number(event.target.value), page: 1 })}>
          {PAGE_SIZES.map((size) => (
            <option key={size}>{size}</option>
          ))}
        </select>
      </form>
      <ErrorMessage error={items.error} />
      <p className="item-count" aria-live="polite">
        {items.data && (total === 0 ? "No items" : `${first}–${last} of ${total} ${total === 1 ? "item" : "items"}`)}
        {items.data && state.q && ` matching “${state.q}”`}
      </p>
      <Table
        caption={`Items of ${collection.displayName}`}
        columns={[
          <SortHeader
            key="display"
            field={{ key: collection.displayField ?? "_id", displayName: declared.find((field) => field.key === collection.displayField)?.displayName }}
            sorted={state}
            onSort={sortBy}
          />,
          ...columns.map((field) => <SortHeader key={field.key} field={field} sorted={state} onSort={sortBy} />),
          <SortHeader key="updated" field={{ key: "_updatedDate", displayName: "Updated" }} sorted={state} onSort={sortBy} />,
        ]}
      >
        {items.data?.items.map((item) => (
          <tr key={item._id}>
            <th scope="row">
              <Link href={itemHref(collection.id, item._id)}>{nameOf(collection, item)}</Link>
            </th>
            {columns.map((field) => {
              // A reference reads as what it names.
              const named = items.data?.titles[field.key]?.[String(item[field.key])];
              return <td key={field.key}>{named ?? cell(item[field.key])}</td>;
            })}
            <td>{cell(item._updatedDate)}</td>
          </tr>
        ))}
      </Table>
      <nav className="pager" aria-label="Pages of items">
        <button type="button" className="secondary small" disabled={state.page <= 1} onClick={() => setState({ ...state, page: state.page - 1 })}>
          Previous page
        </button>
        <span>
          Page {state.page} of {pages}
        </span>
        <button type="button" className="secondary small" disabled={state.page >= pages} onClick={() => setState({ ...state, page: state.page + 1 })}>
          Next page
        </button>
      </nav>

      <ImportExport collection={collection} onImported={items.reload} />

      <h2>Fields</h2>
      <Table caption={`Fields of ${collection.displayName}`} columns={["Key", "Name", "Type"]}>
        {collection.fields.map((field) => (
          <tr key={field.key}>
            <th scope="row">
              <code>{field.key}</code>
            </th>
            <td>
              {field.displayName}
              {field.systemField && <span className="muted"> (system)</span>}
            </td>
            <td>
              {field.type}
              {referenceTarget(field) && <span className="muted"> → {referenceTarget(field)}</span>}
            </td>
          </tr>
        ))}
      </Table>
      <NewField
        collection={collection}
        onAdded={(key) => {
          setNotice(`Field ${key} added.`);
          loaded.reload();
        }}
      />
    </>
  );
}

function referenceTarget(field: Field): string | undefined {
  const metadata = field.typeMetadata as { reference?: { referencedCollectionId?: string }; multiReference?: { referencedCollectionId?: string } } | undefined;
  return metadata?.reference?.referencedCollectionId ?? metadata?.multiReference?.referencedCollectionId;
}

function NewField({ collection, onAdded }: { collection: Collection; onAdded: (key: string) => void }) {
  const all = useStudioData<{ collections: Collection[] }>("/collections");
  const [key, setKey] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [type, setType] = useState("TEXT");
  const [target, setTarget] = useState("");
  const [error, setError] = useState<StudioApiError | null>(null);
  const referencing = type === "REFERENCE" || type === "MULTI_REFERENCE";
  async function add(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const typeMetadata = referencing
      ? { [type === "REFERENCE" ? "reference" : "multiReference"]: { referencedCollectionId: target || collection.id } }
      : undefined;
    try {
      await studioApi(`${collectionPath(collection.id)}/fields`, {
        method: "POST",
        body: { field: { key, displayName: displayName || undefined, type, typeMetadata } },
      });
      setKey("");
      setDisplayName("");
      onAdded(key);
    } catch (caught) {
      setError(caught as StudioApiError);
    }
  }
  return (
    <form className="panel" onSubmit={add} aria-labelledby="new-field">
      <h2 id="new-field">Add a field</h2>
      <ErrorMessage error={error} />
      <div className="form-row">
        <div className="field">
          <label htmlFor="new-field-key">Key</label>
          <input id="new-field-key" required value={key} onChange={(event) => setKey(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-field-name">Display name</label>
          <input id="new-field-name" value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-field-type">Type</label>
          <select id="new-field-type" value={type} onChange={(event) => setType(event.target.value)}>
            {NEW_FIELD_TYPES.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </div>
        {referencing && (
          <div className="field">
            <label htmlFor="new-field-target">Refers to</label>
            <select id="new-field-target" value={target || collection.id} onChange={(event) => setTarget(event.target.value)}>
              {(all.data?.collections ?? [collection]).map((option) => (
                <option key={option.id} value={option.id}>
                  {option.displayName}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <button type="submit">Add field</button>
    </form>
  );
}

/** Polls a movement job until it ends. */
async function finishedJob(id: string): Promise<{ job: Job; logs: JobLog[] }> {
  for (;;) {
    const state = await studioApi<{ job: Job; logs: JobLog[] }>(`/jobs/${encodeURIComponent(id)}`);
    if (FINISHED.includes(state.job.status)) return state;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

function ImportExport({ collection, onImported }: { collection: Collection; onImported: () => void }) {
  const file = useRef<HTMLInputElement>(null);
  const [mode, setMode] = useState("SKIP_EXISTING");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<StudioApiError | string | null>(null);
  const [result, setResult] = useState<{ text: string; logs: JobLog[] } | null>(null);
  const [download, setDownload] = useState<{ href: string; name: string } | null>(null);

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    setResult(null);
    setDownload(null);
    try {
      await work();
    } catch (caught) {
      setError(caught as StudioApiError);
    } finally {
      setBusy(false);
    }
  }

  const importFile = (event: FormEvent) => {
    event.preventDefault();
    const chosen = file.current?.files?.[0];
    if (!chosen) return setError("Choose a .csv or .jsonl file first.");
    const format = chosen.name.toLowerCase().endsWith(".csv") ? "CSV" : chosen.name.toLowerCase().match(/\.(jsonl|ndjson)$/) ? "JSONL" : null;
    if (!format) return setError("The file's name must end in .csv or .jsonl.");
    void run(async () => {
      const body = { fileName: chosen.name, format, mode, content: await chosen.text() };
      const { job } = await studioApi<{ job: Job }>(`${collectionPath(collection.id)}/import`, { method: "POST", body });
      const done = await finishedJob(job.id);
      const { itemsSuccessful, itemsRejected } = done.job.progress;
      const skipped = done.logs.filter((log) => log.details?.skipped).length;
      const outcome = done.job.status === "FAILED" ? `Import failed${done.job.error ? `: ${done.job.error.description}` : ""}` : "Imported";
      setResult({
        text: `${outcome}: ${itemsSuccessful} written, ${skipped} skipped, ${itemsRejected} refused.`,
        logs: done.logs.filter((log) => log.failure),
      });
      onImported();
    });
  };

  const exportAs = (format: "CSV" | "JSONL") =>
    run(async () => {
      const { job } = await studioApi<{ job: Job }>(`${collectionPath(collection.id)}/export`, { method: "POST", body: { format } });
      const done = await finishedJob(job.id);
      if (done.job.status !== "COMPLETED") throw new StudioApiError(0, `The export failed${done.job.error ? `: ${done.job.error.description}` : "."}`);
      setResult({ text: `Exported ${done.job.progress.itemsSuccessful} items.`, logs: [] });
      setDownload({ href: `/_local/studio/api/jobs/${encodeURIComponent(job.id)}/file`, name: `${collection.id}.${format.toLowerCase()}` });
    });

  return (
    <section className="panel" aria-labelledby="import-export">
      <h2 id="import-export">Import and export</h2>
      <form className="toolbar" onSubmit={importFile}>
        <label htmlFor="import-file">CSV or JSONL file</label>
        <input id="import-file" type="file" accept=".csv,.jsonl,.ndjson" ref={file} />
        <label htmlFor="import-mode">Existing IDs</label>
        <select id="import-mode" value={mode} onChange={(event) => setMode(event.target.value)}>
          <option value="SKIP_EXISTING">Keep the existing items</option>
          <option value="OVERWRITE">Replace them</option>
          <option value="TRUNCATE_BEFORE">Empty the collection first</option>
        </select>
        <button type="submit" disabled={busy}>
          Import
        </button>
      </form>
      <div className="toolbar">
        <button type="button" className="secondary" disabled={busy} onClick={() => exportAs("CSV")}>
          Export CSV
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => exportAs("JSONL")}>
          Export JSONL
        </button>
        {download && (
          <a href={download.href} download={download.name}>
            Download {download.name}
          </a>
        )}
      </div>
      <ErrorMessage error={error} />
      <StatusMessage>{busy ? "Working…" : result?.text}</StatusMessage>
      {result && result.logs.length > 0 && (
        <ul className="job-logs">
          {result.logs.map((log) => (
            <li key={log.sourceItemId}>
              Line {log.sourceItemId}: {log.failure?.description}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Field violations the platform named (a value outside its range), by field key. */
function violationsOf(error: StudioApiError): Record<string, string> {
  const violations = (error.data?.fieldViolations ?? []) as { field: string; description: string }[];
  return Object.fromEntries(violations.map((violation) => [violation.field, violation.description]));
}

function ItemPage({ collectionId, itemId }: { collectionId: string; itemId?: string }) {
  const schema = useStudioData<{ collection: Collection }>(collectionPath(collectionId));
  const loaded = useStudioData<{ item: Item; references: Record<string, string[]> }>(
    itemId ? `${collectionPath(collectionId)}/items/${encodeURIComponent(itemId)}` : null,
  );
  const collection = schema.data?.collection;
  const stored = loaded.data?.item;
  const [drafts, setDrafts] = useState<Record<string, Draft> | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<StudioApiError | string | null>(null);
  const [notice, setNotice] = useCarriedNotice();
  const [busy, setBusy] = useState(false);
  const editable = collection?.fields.filter((field) => !field.systemField) ?? [];

  // The drafts start from what was loaded; later edits stay until the next load (worked out while
  // rendering, from the load they were made from).
  const [draftsOf, setDraftsOf] = useState<{ collection?: unknown; item?: unknown; drafts?: Record<string, Draft> }>({});
  if (collection && (!itemId || loaded.data) && (draftsOf.collection !== collection || draftsOf.item !== loaded.data)) {
    const item: Record<string, unknown> = loaded.data?.item ?? {};
    const fresh = Object.fromEntries(editable.map((field) => [field.key, draftOf(field, item[field.key], loaded.data?.references[field.key])]));
    setDraftsOf({ collection, item: loaded.data, drafts: fresh });
    setDrafts(fresh);
  }
  // Changed since it was loaded: leaving by a link asks first.
  const unsaved = drafts !== null && draftsOf.drafts !== undefined && JSON.stringify(drafts) !== JSON.stringify(draftsOf.drafts);
  useLeaveGuard(unsaved ? "This item has changes that are not saved. Leave it and lose them?" : null);

  const problem = schema.error ?? loaded.error;
  if (!collection || !drafts || (itemId && !stored)) {
    return (
      <>
        <AreaHeading>{itemId ? `Item ${itemId}` : "New item"}</AreaHeading>
        <ErrorMessage error={problem} />
        {!problem && <Loading what="the item" />}
      </>
    );
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!collection || !drafts) return;
    const data: Record<string, unknown> = { ...(stored ?? {}) };
    const references: Record<string, string[]> = {};
    const refused: Record<string, string> = {};
    for (const field of editable) {
      const converted = convertDraft(field, drafts[field.key], stored?.[field.key]);
      if ("error" in converted) refused[field.key] = converted.error;
      else if (field.type === "MULTI_REFERENCE") references[field.key] = converted.value as string[];
      else if (converted.value === undefined) delete data[field.key];
      else data[field.key] = converted.value;
    }
    setErrors(refused);
    setNotice("");
    const firstRefused = editable.find((field) => refused[field.key]);
    if (firstRefused) {
      setFailure(`Not saved: ${Object.keys(refused).length === 1 ? "one field needs" : `${Object.keys(refused).length} fields need`} a change.`);
      document.getElementById(controlId(firstRefused.key))?.focus();
      return;
    }
    setFailure(null);
    setBusy(true);
    try {
      if (itemId) {
        await studioApi(`${collectionPath(collection.id)}/items/${encodeURIComponent(itemId)}`, { method: "PUT", body: { data, references } });
        setNotice(`Saved at ${new Date().toLocaleTimeString()}.`);
        loaded.reload();
      } else {
        const { item } = await studioApi<{ item: Item }>(`${collectionPath(collection.id)}/items`, { method: "POST", body: { data, references } });
        carryNotice("Item added.");
        navigate(itemHref(collection.id, item._id), { replace: true });
      }
    } catch (caught) {
      const error = caught as StudioApiError;
      setErrors(violationsOf(error));
      setFailure(error);
    } finally {
      setBusy(false);
    }
  }

  async function act(work: () => Promise<void>) {
    setBusy(true);
    try {
      await work();
    } catch (caught) {
      setFailure(caught as StudioApiError);
      setBusy(false);
    }
  }
  const itemPath = itemId && `${collectionPath(collection.id)}/items/${encodeURIComponent(itemId)}`;
  const duplicate = () =>
    act(async () => {
      const { item } = await studioApi<{ item: Item }>(`${itemPath}/duplicate`, { method: "POST" });
      carryNotice("Duplicated: this is the copy.");
      navigate(itemHref(collection.id, item._id));
    });
  const remove = () =>
    act(async () => {
      if (!window.confirm(`Delete ${nameOf(collection, stored!)}? This cannot be undone.`)) return setBusy(false);
      await studioApi(itemPath!, { method: "DELETE" });
      carryNotice(`Deleted ${nameOf(collection, stored!)}.`);
      navigate(studioHref(["collections", collection.id]));
    });

  const title = stored ? nameOf(collection, stored) : "New item";
  return (
    <>
      <p className="crumbs">
        <Link href={studioHref(["collections"])}>Collections</Link> / <Link href={studioHref(["collections", collection.id])}>{collection.displayName}</Link> /
      </p>
      <AreaHeading
        focusKey={itemId ?? "new"}
        actions={
          itemId && (
            <>
              <button type="button" className="secondary" onClick={duplicate} disabled={busy}>
                Duplicate
              </button>
              <button type="button" className="danger" onClick={remove} disabled={busy}>
                Delete
              </button>
            </>
          )
        }
      >
        {title}
      </AreaHeading>
      {stored && (
        <dl className="system-fields">
          {collection.fields
            .filter((field) => field.systemField && stored[field.key] !== undefined)
            .map((field) => (
              <div key={field.key}>
                <dt>{field.displayName}</dt>
                <dd>{cell(stored[field.key])}</dd>
              </div>
            ))}
        </dl>
      )}
      <StatusMessage>{notice}</StatusMessage>
      <form className="panel item-form" onSubmit={save} noValidate aria-label={`Edit ${title}`}>
        <ErrorMessage error={failure} />
        {editable.map((field) => (
          <FieldEditor
            key={field.key}
            field={field}
            draft={drafts[field.key]}
            stored={stored?.[field.key]}
            error={errors[field.key]}
            onChange={(draft) => setDrafts({ ...drafts, [field.key]: draft })}
          />
        ))}
        <div className="actions">
          <button type="submit" disabled={busy}>
            {itemId ? "Save" : "Add item"}
          </button>
          <Link className="button secondary" href={studioHref(["collections", collection.id])}>
            Back to the items
          </Link>
        </div>
      </form>
    </>
  );
}
