import { PlatformError } from "./errors";

/**
 * A bulk call's outcome per item, as the `@wix/*` bulk calls report it: each item acted on alone,
 * a refusal (a PlatformError) failing that item only, with `{itemMetadata: {id, originalIndex,
 * success, error?}, item?}` and the totals. Any other error is a bug and fails the call.
 */
export function bulkResults<T>(items: T[], act: (item: T) => { id: string | null; item?: unknown }) {
  const results = items.map((input, originalIndex) => {
    try {
      const { id, item } = act(input);
      return { itemMetadata: { id, originalIndex, success: true }, ...(item !== undefined && { item }) };
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      const id = typeof input === "string" ? input : null;
      return { itemMetadata: { id, originalIndex, success: false, error: { code: error.code, description: error.message, data: error.data } } };
    }
  });
  const totalSuccesses = results.filter((result) => result.itemMetadata.success).length;
  return { results, bulkActionMetadata: { totalSuccesses, totalFailures: results.length - totalSuccesses, undetailedFailures: 0 } };
}
