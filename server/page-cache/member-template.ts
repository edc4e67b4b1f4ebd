import { createHash, randomBytes } from "node:crypto";
import { htmlEscapeJsonString } from "next/dist/shared/lib/htmlescape.js";
import { memberInitial } from "@/lib/auth/session";
import { documentFlight, flightRows, pushedChunk } from "./flight";
import { INLINE_SCRIPT, type CachedPage } from "./page";
import type { PageKind } from "./request-key";

/**
 * A member's view of a page that depends only on "a member is signed in", made from one render
 * for a template member who matches nobody (docs/performance.md, "Members' pages"): the render
 * holds placeholders where the member's name and initial go, and each member's request gets it
 * with their own filled in, escaped as each context needs, and the hashes of the scripts that
 * changed. Pure apart from hashing: tested on its own (tests/member-template.test.ts).
 *
 * A render is usable only when every placeholder is where it can be filled exactly as React and
 * Next.js would have written the member's name there: HTML text, a few attributes read as text,
 * a Flight row that is not length-prefixed (as such in an RSC answer, and once more escaped as a
 * string inside a document's `self.__next_f.push` scripts). Anywhere else (a `<title>`, a URL, a
 * text row, a chunk in base64, a script of another kind, a header) makes the render unusable, and
 * so does any trace of the template member's id or tokens.
 */

export type Placeholders = NonNullable<CachedPage["template"]>["placeholders"];

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Letters only, so no context escapes them; 24 random ones (about 136 bits) are nobody's nickname by chance or by guess. */
export function randomWord(length = 24): string {
  return [...randomBytes(length)].map((byte) => LETTERS[byte % LETTERS.length]).join("");
}

/** New placeholders for this process's template renders. */
export function newPlaceholders(): Placeholders {
  return { name: `Member${randomWord()}`, initial: `Initial${randomWord()}` };
}

type Context = "html" | "flight" | "script";
type Hole = { hole: keyof Placeholders; context: Context };
type Piece = Buffer | Hole;
type Part = Piece | { script: Piece[] };

export type MemberTemplate = {
  parts: Part[];
  /** The hashes of the inline scripts that hold no placeholder. */
  fixedHashes: string[];
};

/** Attributes React writes with the same escaping as text, and that no browser reads as a URL or code. */
const TEXT_ATTRIBUTES = new Set(["aria-label", "title", "alt", "placeholder"]);
/** Elements whose text is not HTML text, or is read as something else. */
const NOT_TEXT_ELEMENTS = new Set(["title", "textarea", "style", "script", "noscript", "option"]);

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("base64");

function holesIn(text: string, placeholders: Placeholders, context: Context): Array<{ index: number; hole: Hole }> {
  const pattern = new RegExp(`${placeholders.name}|${placeholders.initial}`, "g");
  return [...text.matchAll(pattern)].map((match) => ({
    index: match.index,
    hole: { hole: match[0] === placeholders.name ? "name" : "initial", context },
  }));
}

function pieces(text: string, placeholders: Placeholders, context: Context): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  for (const { index, hole } of holesIn(text, placeholders, context)) {
    out.push(Buffer.from(text.slice(at, index), "utf8"), hole);
    at = index + placeholders[hole.hole].length;
  }
  out.push(Buffer.from(text.slice(at), "utf8"));
  return out;
}

const count = (text: string, placeholders: Placeholders) => holesIn(text, placeholders, "html").length;

/** Why a placeholder at `index` of a document (outside scripts) cannot be filled there, or null when it can. */
function htmlContextProblem(html: string, index: number): string | null {
  const tagStart = html.lastIndexOf("<", index);
  if (tagStart > html.lastIndexOf(">", index)) {
    const attribute = /\s([^\s"'=<>/]+)="[^"]*$/.exec(html.slice(tagStart, index));
    return attribute && TEXT_ATTRIBUTES.has(attribute[1].toLowerCase()) ? null : `a placeholder in ${attribute ? `the ${attribute[1]} attribute` : "a tag"}`;
  }
  const element = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(tagStart, tagStart + 40));
  return element && NOT_TEXT_ELEMENTS.has(element[1].toLowerCase()) ? `a placeholder in <${element[1]}>` : null;
}

/** Why a Flight payload's placeholders cannot all be filled, or null when they can. */
function flightProblem(payload: Buffer, placeholders: Placeholders): string | null {
  try {
    const rows = flightRows(payload);
    return rows.some((row) => row.lengthPrefixed && count(row.data, placeholders) > 0) ? "a placeholder in a length-prefixed Flight row" : null;
  } catch (error) {
    return `an unreadable Flight payload (${(error as Error).message})`;
  }
}

/** The template a render makes, or why it cannot be one. `secrets`: the template member's id and tokens, which no page may show. */
export function makeTemplate(
  page: { kind: PageKind; body: Buffer; headers: object },
  placeholders: Placeholders,
  secrets: string[],
): MemberTemplate | { unusable: string } {
  const text = page.body.toString("utf8");
  if (secrets.some((secret) => text.includes(secret))) return { unusable: "the template member's id or tokens in the page" };
  if (count(JSON.stringify(page.headers), placeholders) > 0) return { unusable: "a placeholder in a header" };
  if (page.kind === "rsc") {
    const problem = flightProblem(page.body, placeholders);
    return problem ? { unusable: problem } : { parts: pieces(text, placeholders, "flight"), fixedHashes: [] };
  }

  const parts: Part[] = [];
  const fixedHashes = new Set<string>();
  let inScripts = 0;
  let at = 0;
  const outside = (end: number): string | null => {
    const html = text.slice(at, end);
    for (const { index } of holesIn(html, placeholders, "html")) {
      const problem = htmlContextProblem(text, at + index);
      if (problem) return problem;
    }
    parts.push(...pieces(html, placeholders, "html"));
    return null;
  };
  for (const match of text.matchAll(INLINE_SCRIPT)) {
    const [whole, script] = match;
    const scriptStart = match.index + whole.indexOf(">") + 1;
    const problem = outside(scriptStart);
    if (problem) return { unusable: problem };
    const found = count(script, placeholders);
    if (found === 0) {
      const fixed = Buffer.from(script, "utf8");
      fixedHashes.add(sha256(fixed));
      parts.push(fixed);
    } else {
      const chunk = pushedChunk(script);
      if (!chunk || !("text" in chunk) || !script.startsWith("self.__next_f.push([1,"))
        return { unusable: "a placeholder in a script that is not Flight text" };
      parts.push({ script: pieces(script, placeholders, "script") });
      inScripts += found;
    }
    at = scriptStart + script.length;
  }
  const problem = outside(text.length);
  if (problem) return { unusable: problem };
  const payload = documentFlight(text);
  // Every placeholder of the payload must have been found whole in a script of its own (not split between two, not in base64).
  if (count(payload.toString("utf8"), placeholders) !== inScripts) return { unusable: "a placeholder split between scripts or inlined as binary" };
  const flight = flightProblem(payload, placeholders);
  return flight ? { unusable: flight } : { parts, fixedHashes: [...fixedHashes] };
}

/** Whether a member's name can be filled in: React's Flight writes a string that begins with `$` differently. */
export function fillableName(name: string): boolean {
  return name.length > 0 && !name.startsWith("$");
}

/** React's escaping of text and attribute values in HTML (react-dom/server's escapeTextForBrowser). */
const HTML_ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };
const escapeHtml = (value: string) => value.replace(/["&'<>]/g, (character) => HTML_ESCAPES[character]);
/** Inside a JSON string of a Flight row. */
const escapeFlight = (value: string) => JSON.stringify(value).slice(1, -1);
/** A Flight row's text inside the JSON string of `self.__next_f.push([1,"…"])`, as Next.js writes it: escaped twice, then for HTML. */
const escapeScript = (value: string) => htmlEscapeJsonString(JSON.stringify(escapeFlight(value)).slice(1, -1));
const ESCAPE: Record<Context, (value: string) => string> = { html: escapeHtml, flight: escapeFlight, script: escapeScript };

/** The page for a member of this name (fillableName), and the hashes of all its inline scripts. */
export function fillTemplate(template: MemberTemplate, name: string): { body: Buffer; scriptHashes: string[] } {
  const values: Record<keyof Placeholders, string> = { name, initial: memberInitial({ name }) };
  const filled = new Map<string, Buffer>();
  const fill = (piece: Piece): Buffer => {
    if (Buffer.isBuffer(piece)) return piece;
    const key = `${piece.hole}:${piece.context}`;
    let value = filled.get(key);
    if (!value) filled.set(key, (value = Buffer.from(ESCAPE[piece.context](values[piece.hole]), "utf8")));
    return value;
  };
  const hashes = new Set(template.fixedHashes);
  const body = template.parts.map((part) => {
    if (Buffer.isBuffer(part) || "hole" in part) return fill(part);
    const script = Buffer.concat(part.script.map(fill));
    hashes.add(sha256(script));
    return script;
  });
  return { body: Buffer.concat(body), scriptHashes: [...hashes] };
}
