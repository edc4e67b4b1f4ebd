import { invalidArgument } from "./errors";

/**
 * Rebuilds the request object a `@wix/*` client encoded into a GET query string:
 * either one `.r` parameter holding base64url JSON, or flat dotted keys with
 * repeated keys for arrays (docs/platform/transport.md §3).
 */
export function decodeQueryParams(query: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const encoded = query[".r"];
  if (encoded !== undefined) {
    const text = Array.isArray(encoded) ? encoded[0] : encoded;
    return decodeDotR(text ?? "");
  }
  const result: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.map(coerce) : coerce(raw);
    setPath(result, key.split("."), value);
  }
  return result;
}

function decodeDotR(text: string): Record<string, unknown> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) {
    throw invalidArgument("Malformed .r parameter: not base64url.");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw invalidArgument("Malformed .r parameter: not JSON.");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalidArgument("Malformed .r parameter: expected a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

function coerce(value: string): unknown {
  if (value === "true") return true;
  if (value === "false") return false;
  return value;
}

/** Keys that would reach an object's prototype; a parameter naming one is refused. */
const RESERVED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function setPath(target: Record<string, unknown>, keys: string[], value: unknown) {
  if (keys.some((key) => RESERVED_KEYS.has(key))) {
    throw invalidArgument(`Malformed query parameter [${keys.join(".")}]: reserved name.`);
  }
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (!next || typeof next !== "object" || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
}
