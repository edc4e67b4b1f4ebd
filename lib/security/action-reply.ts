/**
 * Whether React's server can decode a server action's encoded arguments (its "reply"): the
 * parts the browser's `encodeReply` wrote, a JSON root in part "0" whose strings starting with
 * `$` are tags, some of them naming other parts. React fails on a reply that names a part the
 * body lacks (or carries too late), uses a tag it does not know, or nests deeper than its stack
 * allows, and Next.js answers that failure with a 500. The browser never sends such a reply, so the server refuses
 * one with a 400 before Next.js reads it (lib/security/request-guard.ts). Pure: tested on its own.
 */

/** A reply's parts by name (the prefix of a form's bound arguments taken off), in the order the body carries them. */
export type ReplyParts = ReadonlyMap<string, FormDataEntryValue>;

export type ReadReply =
  | { readable: false }
  | {
      readable: true;
      root: unknown;
      /** The action ids of the server functions passed as arguments. */
      serverFunctionIds: string[];
      /** The parts of the streams passed as arguments, whose chunks come as `S<part>` fields. */
      streamParts: string[];
    };

/** Far deeper than any form's arguments, and far short of the depth that overflows React's decoder (some thousands). */
const MAX_NESTING = 100;

/** `$<id>`, `$@<id>` (a promise), `$h` (a server function), `$Q` (a Map), `$W` (a Set), `$i` (an iterator), with an optional `:path` into the part. */
const MODEL_REFERENCE = /^\$([@hQWi]?)([0-9a-f]+)((?::[^:]*)*)$/;
/** The tags whose target is the array that initialises the collection, used once. */
const COLLECTION_TAGS = new Set(["Q", "W", "i"]);
/** `$R` / `$r` (a stream, of bytes) and `$X` / `$x` (an async iterable, iterator): a part React starts afresh, whose chunks follow. */
const STREAM_REFERENCE = /^\$[RrXx]([0-9a-f]+)$/;
/** `$B` (a Blob) and the typed arrays: a file part of its own, read once. */
const BINARY_REFERENCE = /^\$[ABOoUSsLlGgMmV]([0-9a-f]+)$/;
/** A BigInt's decimal digits, as many as React takes. */
const BIGINT = /^\$n-?\d{1,300}$/;
/**
 * Tags that stand for a value of their own or cannot fail: `$$` (an escaped `$`), Infinity, NaN,
 * undefined, a date, a temporary reference, FormData entries.
 */
const SELF_CONTAINED = /^\$[$HTKINuD-]/;

type Reference = { part: string; tag: string; path: string[] };

const partName = (hexId: string) => String(parseInt(hexId, 16));

function resolvePath(model: unknown, path: string[]): unknown {
  let value = model;
  for (const key of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * The JSON of part "0" when React can decode the reply: every tag known, every part it names
 * (directly or through other parts) in the body and fit for how it is named, nesting bounded.
 *
 * A streamed body (a script's multipart call) is decoded as it arrives: the root when it comes,
 * a promise's part when that comes (the browser writes it once the promise settles, after the
 * root), and the parts either names, other than promises, at that moment. Those must have come
 * before, as the browser writes them.
 */
export function readReply(parts: ReplyParts, { streamed }: { streamed: boolean }): ReadReply {
  const unreadable: ReadReply = { readable: false };
  const arrival = new Map([...parts.keys()].map((name, index) => [name, index]));
  const arrived = (name: string) => (streamed ? (arrival.get(name) ?? -1) : 0);
  const models = new Map<string, unknown>();
  const references: Reference[] = [];
  const files = new Set<string>();
  const streams: string[] = [];
  const seen = new Set<string>();
  // `decodedAt`: where in the body React decodes the part (and what it names without a promise).
  const pending = [{ part: "0", depth: 0, decodedAt: arrived("0") }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (models.has(next.part)) continue;
    const text = parts.get(next.part);
    if (typeof text !== "string") return unreadable;
    let model: unknown;
    try {
      model = JSON.parse(text);
    } catch {
      return unreadable;
    }
    models.set(next.part, model);
    // Iterative, since the nesting is what is being checked.
    const values = [{ value: model, depth: next.depth }];
    while (values.length > 0) {
      const { value, depth } = values.pop()!;
      if (depth > MAX_NESTING) return unreadable;
      if (typeof value === "object" && value !== null) {
        for (const child of Object.values(value)) values.push({ value: child, depth: depth + 1 });
        continue;
      }
      if (typeof value !== "string" || !value.startsWith("$")) continue;
      const named = MODEL_REFERENCE.exec(value);
      const binary = BINARY_REFERENCE.exec(value);
      const stream = STREAM_REFERENCE.exec(value);
      if (stream) {
        streams.push(partName(stream[1]));
      } else if (named) {
        const [, tag, id, path] = named;
        const part = partName(id);
        // A part being decoded may be named again (a cycle); React resolves that once it is done.
        if (tag !== "@" && arrived(part) > next.decodedAt) return unreadable;
        // Each reference is resolved once, however often it is repeated; a collection's twice is one list made into two.
        if (seen.has(value)) {
          if (COLLECTION_TAGS.has(tag)) return unreadable;
          continue;
        }
        seen.add(value);
        references.push({ part, tag, path: path.split(":").slice(1) });
        // React decodes a named part where it is named, so its nesting adds to the namer's.
        pending.push({ part, depth: depth + 1, decodedAt: tag === "@" ? arrived(part) : next.decodedAt });
      } else if (binary) {
        const name = partName(binary[1]);
        if (!(parts.get(name) instanceof Blob) || arrived(name) > next.decodedAt || files.has(name)) return unreadable;
        files.add(name);
      } else if (!BIGINT.test(value) && !SELF_CONTAINED.test(value)) {
        return unreadable;
      }
    }
  }
  // React starts a stream's part afresh: one that is the root, another stream's or named otherwise already exists, and it fails.
  const named = new Set(["0", ...references.map((reference) => reference.part)]);
  if (streams.some((part) => named.has(part)) || new Set(streams).size < streams.length) return unreadable;
  const collections = new Set<string>();
  const serverFunctionIds: string[] = [];
  for (const reference of references) {
    const target = resolvePath(models.get(reference.part), reference.path);
    if (target === undefined) return unreadable;
    if (COLLECTION_TAGS.has(reference.tag)) {
      const initialiser = [reference.part, ...reference.path].join(":");
      if (!Array.isArray(target) || collections.has(initialiser)) return unreadable;
      // A Map is made of entries: each an object (the browser writes [key, value]); the Map constructor throws on anything else.
      if (reference.tag === "Q" && !target.every((entry) => typeof entry === "object" && entry !== null)) return unreadable;
      collections.add(initialiser);
    }
    // React looks a server function up by the id its part holds; a part without one stands for nothing.
    const id = reference.tag === "h" && typeof target === "object" && target !== null && (target as { id?: unknown }).id;
    if (typeof id === "string") serverFunctionIds.push(id);
  }
  return { readable: true, root: models.get("0"), serverFunctionIds, streamParts: streams };
}

const PART_NUMBER = /^(0|[1-9][0-9]*)$/;

/**
 * Whether a streamed body's field names are what React reads as it arrives. It takes a name for
 * the number it converts to (`+name`): a part once, written plainly (`01`, ` 1` or `""` would
 * be a part it may have already, and it fails on those), and `S<part>` chunks, as often as they
 * come, only for a stream's part. Other names (a FormData argument's `1_email`) it only keeps.
 */
export function streamedNamesReadable(names: readonly string[], streamParts: readonly string[]): boolean {
  const streamed = new Set(streamParts);
  const seen = new Set<string>();
  for (const name of names) {
    const chunk = name.startsWith("S") && name.length > 1;
    const number = chunk ? name.slice(1) : name;
    if (!Number.isInteger(+number) || +number < 0) continue;
    if (!PART_NUMBER.test(number)) return false;
    if (chunk ? !streamed.has(number) : seen.has(number)) return false;
    if (!chunk) seen.add(number);
  }
  return true;
}
