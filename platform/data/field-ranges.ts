import { z } from "zod";
import { fieldOutOfRange } from "./errors";
import type { CollectionField, StoredCollection } from "./collection";

/**
 * A field's range validation, as the collections API declares it (`Field.numberRange |
 * stringLengthRange | arraySizeRange`, one of them): the limits a write must keep. A value of
 * another type, null or absent is not checked: the schema is advisory, and `required` is apart.
 */

const bound = z.number().int().min(0).nullish();
const numberBound = z.number().finite().nullish();

/** The range parts of a field definition, checked when a collection is created or updated. */
export const fieldRangeSchema = {
  numberRange: z.object({ min: numberBound, max: numberBound }).strict().optional(),
  stringLengthRange: z.object({ minLength: bound, maxLength: bound }).strict().optional(),
  arraySizeRange: z.object({ minSize: bound, maxSize: bound }).strict().optional(),
};

const fieldRanges = z.object(fieldRangeSchema);

/** Why a field's ranges are not usable as declared, or undefined. */
export function fieldRangeProblem(field: z.infer<typeof fieldRanges>): string | undefined {
  const declared = (["numberRange", "stringLengthRange", "arraySizeRange"] as const).filter((name) => field[name]);
  if (declared.length > 1) return `a field declares one of numberRange, stringLengthRange, arraySizeRange, not ${declared.join(" and ")}`;
  const { min, max } = field.numberRange ?? {};
  const { minLength, maxLength } = field.stringLengthRange ?? {};
  const { minSize, maxSize } = field.arraySizeRange ?? {};
  const reversed = [
    [min, max],
    [minLength, maxLength],
    [minSize, maxSize],
  ].some(([low, high]) => low != null && high != null && low > high);
  return reversed ? "a range's minimum is above its maximum" : undefined;
}

/** One broken limit, in the platform's field-violation shape (`violatedRule` names Wix's rule types). */
export type FieldViolation = {
  field: string;
  description: string;
  violatedRule: "MIN" | "MAX" | "MIN_LENGTH" | "MAX_LENGTH" | "MIN_SIZE" | "MAX_SIZE";
  data: { limit: number };
};

/** The limits of the collection's fields that the item's values break; none for an item that keeps them all. */
export function fieldRangeViolations(fields: CollectionField[], data: Record<string, unknown>): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const check = (
    field: string,
    value: number,
    low: number | null | undefined,
    high: number | null | undefined,
    unit: string,
    rules: ["MIN" | "MIN_LENGTH" | "MIN_SIZE", "MAX" | "MAX_LENGTH" | "MAX_SIZE"],
  ) => {
    if (low != null && value < low) violations.push({ field, description: `must be at least ${low}${unit}`, violatedRule: rules[0], data: { limit: low } });
    if (high != null && value > high) violations.push({ field, description: `must be at most ${high}${unit}`, violatedRule: rules[1], data: { limit: high } });
  };
  for (const field of fields) {
    const parsed = fieldRanges.safeParse(field);
    if (!parsed.success) continue;
    const { numberRange, stringLengthRange, arraySizeRange } = parsed.data;
    const value = data[field.key];
    // Lengths in UTF-16 code units, as JavaScript (and the site's forms) count them.
    if (stringLengthRange && typeof value === "string")
      check(field.key, value.length, stringLengthRange.minLength, stringLengthRange.maxLength, " characters long", ["MIN_LENGTH", "MAX_LENGTH"]);
    if (numberRange && typeof value === "number") check(field.key, value, numberRange.min, numberRange.max, "", ["MIN", "MAX"]);
    if (arraySizeRange && Array.isArray(value))
      check(field.key, value.length, arraySizeRange.minSize, arraySizeRange.maxSize, " elements long", ["MIN_SIZE", "MAX_SIZE"]);
  }
  return violations;
}

/** Refuses (WDE0076, with the violations) an item whose values break their fields' limits. */
export function assertWithinRanges(collection: Pick<StoredCollection, "id" | "fields">, data: Record<string, unknown>): void {
  const violations = fieldRangeViolations(collection.fields, data);
  if (violations.length > 0) throw fieldOutOfRange(collection.id, violations);
}
