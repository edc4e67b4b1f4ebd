import { INLINE_SCRIPT } from "./page";

/**
 * Reading React's Flight payload (the RSC rows Next.js sends to client-side navigations and
 * inlines into documents through `self.__next_f.push`), as far as the page cache needs: where
 * each row lies, so a placeholder is filled only inside a row whose length nobody counted.
 */

/** Row tags whose data is length-prefixed (`<id>:<tag><hex length>,<bytes>`): text and binary rows. */
const LENGTH_PREFIXED = new Set([..."TAObUSsLlGgMmVo"].map((tag) => tag.charCodeAt(0)));
/** Row tags whose data runs to the end of the line (`<id>:<tag><data>\n`); any other byte starts untagged data. */
const isLineTag = (byte: number) => (byte > 64 && byte < 91) || byte === 35 || byte === 114 || byte === 120;

export type FlightRow = { id: string; tag: string; data: string; lengthPrefixed: boolean };

const COLON = 58;
const COMMA = 44;
const NEWLINE = 10;

/** The rows of a whole payload; throws when it is not a well-formed payload. */
export function flightRows(payload: Buffer): FlightRow[] {
  const rows: FlightRow[] = [];
  let at = 0;
  while (at < payload.length) {
    const colon = payload.indexOf(COLON, at);
    if (colon < 0) throw new Error("a Flight row without an id");
    const id = payload.toString("latin1", at, colon);
    // Hints (`:HL[…]`) have no id.
    if (!/^[0-9a-f]*$/.test(id)) throw new Error("a Flight row id that is not hexadecimal");
    const tag = payload[colon + 1];
    if (LENGTH_PREFIXED.has(tag)) {
      const comma = payload.indexOf(COMMA, colon + 2);
      const length = parseInt(payload.toString("latin1", colon + 2, comma), 16);
      if (comma < 0 || Number.isNaN(length) || comma + 1 + length > payload.length) throw new Error("a cut-short Flight row");
      rows.push({
        id,
        tag: String.fromCharCode(tag),
        data: payload.toString("utf8", comma + 1, comma + 1 + length),
        lengthPrefixed: true,
      });
      at = comma + 1 + length;
      continue;
    }
    const dataStart = isLineTag(tag) ? colon + 2 : colon + 1;
    const newline = payload.indexOf(NEWLINE, dataStart);
    if (newline < 0) throw new Error("a Flight row without its end of line");
    rows.push({
      id,
      tag: isLineTag(tag) ? String.fromCharCode(tag) : "",
      data: payload.toString("utf8", dataStart, newline),
      lengthPrefixed: false,
    });
    at = newline + 1;
  }
  return rows;
}

/** `self.__next_f.push([1,"…"])` and its kin: how Next.js inlines a document's Flight payload. */
const PUSH = /^(?:\(self\.__next_f=self\.__next_f\|\|\[\]\)|self\.__next_f)\.push\((\[[\s\S]*\])\)$/;

/** The Flight chunk one inline script carries: text, binary (base64 in the document), or none (the bootstrap, or another script). */
export function pushedChunk(script: string): { text: string } | { binary: Buffer } | null {
  const match = PUSH.exec(script);
  if (!match) return null;
  const [kind, data] = JSON.parse(match[1]) as [number, unknown];
  if (kind === 1 && typeof data === "string") return { text: data };
  if (kind === 3 && typeof data === "string") return { binary: Buffer.from(data, "base64") };
  return null;
}

/** The whole Flight payload a document inlines, put back together from its scripts. */
export function documentFlight(html: string): Buffer {
  const chunks = [...html.matchAll(INLINE_SCRIPT)].flatMap(([, text]) => {
    const chunk = pushedChunk(text);
    if (!chunk) return [];
    return ["text" in chunk ? Buffer.from(chunk.text, "utf8") : chunk.binary];
  });
  return Buffer.concat(chunks);
}
