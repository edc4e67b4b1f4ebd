import { computeCacheBustingSearchParam } from "next/dist/shared/lib/router/utils/cache-busting-search-param.js";
import { flightRows } from "../server/page-cache/flight";

const STATE_TREE = encodeURIComponent(JSON.stringify(["", { children: ["__PAGE__", {}, null, null, 0] }, null, null, 16]));

/** The headers and URL of a client-side navigation's RSC request, as Next.js's client makes them. */
export async function navigationRequest(path: string, options: { prefetch?: "1" } = {}) {
  const headers: Record<string, string> = {
    rsc: "1",
    "next-router-state-tree": STATE_TREE,
    ...(options.prefetch && { "next-router-prefetch": options.prefetch }),
  };
  const hash = await computeCacheBustingSearchParam(options.prefetch, undefined, STATE_TREE, undefined);
  return { url: `${path}${path.includes("?") ? "&" : "?"}_rsc=${hash}`, headers };
}

/** A reference to another row (`$1`, `$L1f`, `$@20`, `$Q11`, a server action `$h36`), maybe to a part of it (`$12:props:children`). */
const REFERENCE = /^\$([L@QWhF]?)([0-9a-f]+)((?::[^:]+)*)$/;

/**
 * The tree a Flight payload stands for, its rows' references resolved and its nonces left out:
 * what a client builds from it. Two renders of one page number and order their rows as their
 * reads settle, so rows are not compared one by one; and only a render for one request has a nonce.
 */
export function resolvedFlight(payload: Buffer): unknown {
  const rows = new Map<string, unknown>();
  for (const { id, tag, data, lengthPrefixed } of flightRows(payload)) {
    if (id === "") continue; // hints (`:HL[…]`), which preload files and carry the nonce
    let value: unknown = data;
    if (!lengthPrefixed)
      try {
        value = JSON.parse(data);
      } catch {
        // a row whose data is not JSON (an error's digest, say) stays as it is
      }
    rows.set(id, tag ? { tag, value } : value);
  }
  const resolve = (value: unknown, depth: number): unknown => {
    if (depth > 200) throw new Error("a Flight payload too deep, or circular");
    // Next.js keys a navigation's viewport and metadata with its render's own id (getFlightViewportKey): any render has another.
    if (Array.isArray(value) && value[0] === "$" && typeof value[2] === "string" && /^[\w-]{21}[vm]$/.test(value[2])) {
      return resolve(["$", value[1], `render-id-${value[2].slice(-1)}`, ...value.slice(3)], depth);
    }
    if (typeof value === "string") {
      const reference = REFERENCE.exec(value);
      if (!reference || !rows.has(reference[2])) return value;
      let target = rows.get(reference[2]);
      for (const key of reference[3].split(":").slice(1)) target = (target as Record<string, unknown>)?.[key];
      return resolve(target, depth + 1);
    }
    if (Array.isArray(value)) return value.map((item) => resolve(item, depth + 1));
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).flatMap(([key, item]) => (key === "nonce" ? [] : [[key, resolve(item, depth + 1)]])));
    }
    return value;
  };
  return resolve(rows.get("0"), 0);
}
