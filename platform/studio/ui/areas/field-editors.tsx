import { useStudioData } from "../api";

/**
 * The item form's editors, one kind per field type: what a stored value looks like in its
 * control, and what the control's text becomes when the item is saved (or why it cannot be).
 */

export type Field = { key: string; displayName?: string; type: string; systemField?: boolean; typeMetadata?: Record<string, unknown> };

/** What a control holds while the item is edited: text, a tick, or the ids a multi-reference picks. */
export type Draft = string | boolean | string[];

/** A field's value to save (`undefined` leaves the field out), or the reason the draft is refused. */
export type Converted = { value: unknown } | { error: string };

export type EditorKind =
  "text" | "longText" | "email" | "number" | "boolean" | "date" | "datetime" | "time" | "url" | "media" | "reference" | "references" | "json";

const KINDS: Record<string, EditorKind> = {
  TEXT: "text",
  SLUG: "text",
  LANGUAGE: "text",
  RICH_TEXT: "longText",
  EMAIL: "email",
  NUMBER: "number",
  BOOLEAN: "boolean",
  DATE: "date",
  DATETIME: "datetime",
  TIME: "time",
  URL: "url",
  IMAGE: "media",
  VIDEO: "media",
  AUDIO: "media",
  DOCUMENT: "media",
  MEDIA_IMAGE: "media",
  MEDIA_VECTOR_ART: "media",
  REFERENCE: "reference",
  MULTI_REFERENCE: "references",
};

/** JSON editors whose value must be a list, or an object; other JSON editors take any JSON value. */
const ARRAY_TYPES = new Set(["ARRAY", "ARRAY_STRING", "ARRAY_DOCUMENT", "MEDIA_GALLERY"]);
const OBJECT_TYPES = new Set(["OBJECT", "ADDRESS", "RICH_CONTENT"]);

/** The editor a field gets; a value of another shape than its type (the schema is advisory) is edited as JSON so nothing is lost. */
export function editorKind(field: Field, stored?: unknown): EditorKind {
  const kind = KINDS[field.type] ?? "json";
  if (stored === undefined || stored === null) return kind;
  const fits: Partial<Record<EditorKind, boolean>> = {
    text: typeof stored === "string",
    longText: typeof stored === "string",
    email: typeof stored === "string",
    url: typeof stored === "string",
    media: typeof stored === "string",
    time: typeof stored === "string",
    date: typeof stored === "string",
    number: typeof stored === "number",
    boolean: typeof stored === "boolean",
    datetime: typeof (stored as { $date?: unknown }).$date === "string",
    reference: typeof stored === "string" || typeof (stored as { _id?: unknown })._id === "string",
  };
  return kind in fits && !fits[kind] ? "json" : kind;
}

const pad = (value: number) => String(value).padStart(2, "0");

/** An instant as `datetime-local` wants it: the browser's own time zone, to the second. */
function localDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The control's starting state for a stored value. */
export function draftOf(field: Field, stored: unknown, links?: string[]): Draft {
  switch (editorKind(field, stored)) {
    case "boolean":
      return stored === true;
    case "references":
      return links ?? [];
    case "number":
      return stored === undefined || stored === null ? "" : String(stored);
    case "datetime":
      return stored ? localDateTime((stored as { $date: string }).$date) : "";
    case "reference":
      return typeof stored === "string" ? stored : ((stored as { _id?: string } | undefined)?._id ?? "");
    case "json":
      return stored === undefined ? "" : JSON.stringify(stored, null, 2);
    default:
      return typeof stored === "string" ? stored : "";
  }
}

/** Anything with a scheme (`wix:image://…`, `https://…`) or a path on this site (`/media/…`). */
const MEDIA_URI = /^(?:[a-z][a-z0-9+.-]*:\S+|\/\S*)$/i;

function checkedJson(field: Field, text: string): Converted {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `This is not valid JSON: ${(error as Error).message}` };
  }
  if (ARRAY_TYPES.has(field.type) && !Array.isArray(value)) return { error: 'Enter a JSON list, such as ["one", "two"].' };
  if (ARRAY_TYPES.has(field.type) && field.type === "ARRAY_STRING" && !(value as unknown[]).every((entry) => typeof entry === "string"))
    return { error: "Every entry of this list must be text in quotes." };
  if (OBJECT_TYPES.has(field.type) && (typeof value !== "object" || value === null || Array.isArray(value)))
    return { error: 'Enter a JSON object, such as {"name": "value"}.' };
  return { value };
}

/** What a control's state saves as, by the field's type; an empty control leaves the field out. */
export function convertDraft(field: Field, draft: Draft, stored?: unknown): Converted {
  const kind = editorKind(field, stored);
  if (kind === "boolean") return { value: draft === true };
  if (kind === "references") return { value: draft };
  const text = typeof draft === "string" ? draft : "";
  if (text.trim() === "") return { value: undefined };
  switch (kind) {
    case "number": {
      const value = Number(text);
      return Number.isFinite(value) ? { value } : { error: "Enter a number, such as 12 or 4.5." };
    }
    case "datetime": {
      const time = new Date(text).getTime();
      return Number.isNaN(time) ? { error: "Enter a date and a time." } : { value: { $date: new Date(time).toISOString() } };
    }
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(text) ? { value: text } : { error: "Enter a date as YYYY-MM-DD." };
    case "url":
      return URL.canParse(text) ? { value: text } : { error: "Enter a full address, such as https://example.com/page." };
    case "media":
      return MEDIA_URI.test(text) ? { value: text } : { error: "Enter a media URI (wix:image://…), an https:// address, or a path such as /media/photo.jpg." };
    case "email":
      return /^[^\s@]+@[^\s@]+$/.test(text) ? { value: text } : { error: "Enter an e-mail address, such as name@example.com." };
    case "json":
      return checkedJson(field, text);
    default:
      return { value: text };
  }
}

/** Where a field's control and its message are, for labels, `aria-describedby` and focusing the first refused field. */
export const controlId = (key: string) => `field-${key}`;
const errorId = (key: string) => `field-${key}-error`;

const HINTS: Partial<Record<EditorKind, string>> = {
  datetime: "In this browser's time zone; saved as an instant.",
  media: "A media URI (wix:image://…), an https:// address, or a path on the site.",
  json: "JSON, checked when you save.",
};

type Choice = { id: string; label: string };

/** The items of a referenced collection, by their display field. */
function useChoices(field: Field): Choice[] | undefined {
  const metadata = field.typeMetadata as { reference?: { referencedCollectionId?: string }; multiReference?: { referencedCollectionId?: string } } | undefined;
  const target = metadata?.reference?.referencedCollectionId ?? metadata?.multiReference?.referencedCollectionId;
  const loaded = useStudioData<{ choices: Choice[] }>(target ? `/collections/${encodeURIComponent(target)}/choices` : null);
  return loaded.data?.choices;
}

function ReferencePicker({ field, draft, onChange, describedBy }: EditorProps & { describedBy?: string }) {
  const choices = useChoices(field) ?? [];
  const id = controlId(field.key);
  const value = typeof draft === "string" ? draft : "";
  // An item beyond the picker's list keeps its reference as it is.
  const options = value && !choices.some((choice) => choice.id === value) ? [{ id: value, label: value }, ...choices] : choices;
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value)} aria-describedby={describedBy}>
      <option value="">(none)</option>
      {options.map((choice) => (
        <option key={choice.id} value={choice.id}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

function ReferencesPicker({ field, draft, onChange }: EditorProps) {
  const choices = useChoices(field);
  const picked = Array.isArray(draft) ? draft : [];
  const toggle = (id: string, on: boolean) => onChange(on ? [...picked, id] : picked.filter((value) => value !== id));
  if (!choices) return <p className="muted">Loading the items to pick from…</p>;
  return (
    <ul className="checks">
      {choices.map((choice) => (
        <li key={choice.id}>
          <label>
            <input type="checkbox" checked={picked.includes(choice.id)} onChange={(event) => toggle(choice.id, event.target.checked)} /> {choice.label}
          </label>
        </li>
      ))}
    </ul>
  );
}

type EditorProps = { field: Field; draft: Draft; stored?: unknown; onChange: (draft: Draft) => void };

/** One field of the item form: its label, the control for its type, a hint, and the reason it was refused next to it. */
export function FieldEditor({ field, draft, stored, onChange, error }: EditorProps & { error?: string }) {
  const kind = editorKind(field, stored);
  const id = controlId(field.key);
  const label = field.displayName && field.displayName !== field.key ? `${field.displayName} (${field.key})` : field.key;
  const hint = HINTS[kind];
  const describedBy = [hint && `${id}-hint`, error && errorId(field.key)].filter(Boolean).join(" ") || undefined;
  const text = typeof draft === "string" ? draft : "";
  const common = { id, "aria-invalid": error ? (true as const) : undefined, "aria-describedby": describedBy };
  const change = (event: { target: { value: string } }) => onChange(event.target.value);

  if (kind === "references") {
    return (
      <fieldset className="field">
        <legend>
          {label} <span className="badge">{field.type}</span>
        </legend>
        <ReferencesPicker field={field} draft={draft} onChange={onChange} />
      </fieldset>
    );
  }
  if (kind === "boolean") {
    return (
      <div className="field check-field">
        <label>
          <input type="checkbox" {...common} checked={draft === true} onChange={(event) => onChange(event.target.checked)} /> {label}{" "}
          <span className="badge">{field.type}</span>
        </label>
      </div>
    );
  }
  const inputTypes: Partial<Record<EditorKind, string>> = {
    number: "text",
    email: "email",
    url: "url",
    date: "date",
    datetime: "datetime-local",
    time: "time",
  };
  let control;
  if (kind === "reference") control = <ReferencePicker field={field} draft={draft} onChange={onChange} describedBy={describedBy} />;
  else if (kind === "json" || kind === "longText")
    control = (
      <textarea
        {...common}
        rows={kind === "json" ? Math.min(12, Math.max(3, text.split("\n").length)) : 6}
        value={text}
        onChange={change}
        spellCheck={kind !== "json"}
      />
    );
  else
    control = (
      <input
        {...common}
        type={inputTypes[kind] ?? "text"}
        inputMode={kind === "number" ? "decimal" : undefined}
        step={kind === "datetime" || kind === "time" ? 1 : undefined}
        value={text}
        onChange={change}
      />
    );
  return (
    <div className="field">
      <label htmlFor={id}>
        {label} <span className="badge">{field.type}</span>
      </label>
      {control}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId(field.key)}>
          {error}
        </p>
      )}
    </div>
  );
}
