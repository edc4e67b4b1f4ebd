import type { Db } from "../types";
import { FOLD_FUNCTION, MATCHES_FUNCTION, SEEDED_RANK_FUNCTION } from "./query-compiler";

const patterns = new Map<string, RegExp>();

/**
 * SQL functions the compiled filters call. SQLite's own lower() folds ASCII only, while the
 * platform's case-insensitive operators fold any letter, so folding is done with JavaScript's rules.
 */
export function registerDataFunctions(db: Db): void {
  db.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (typeof value === "string" ? value.toLowerCase() : value));
  db.function(MATCHES_FUNCTION, { deterministic: true }, (value: unknown, pattern: unknown) => {
    if (typeof value !== "string" || typeof pattern !== "string") return 0;
    let regex = patterns.get(pattern);
    if (!regex) patterns.set(pattern, (regex = new RegExp(pattern, "i")));
    return regex.test(value) ? 1 : 0;
  });
  db.function(SEEDED_RANK_FUNCTION, { deterministic: true }, (seed: unknown, id: unknown) => seededRank(String(seed), String(id)));
}

/** FNV-1a over the seed and the id: a stable pseudo-random rank, so one seed always gives one order. */
function seededRank(seed: string, id: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${seed}:${id}`) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
