import { z } from "zod";
import type { FieldModification } from "../patch";

const valueOptions = z.object({ value: z.unknown() }).optional();

/** The wire form of field modifications, shared by `/items/patch` and `/bulk/items/patch`. */
export const fieldModificationsSchema: z.ZodType<FieldModification[]> = z.array(
  z.object({
    fieldPath: z.string().min(1, "fieldPath is required"),
    action: z.enum(["SET_FIELD", "REMOVE_FIELD", "INCREMENT_FIELD", "APPEND_TO_ARRAY", "REMOVE_FROM_ARRAY"]),
    setFieldOptions: valueOptions,
    incrementFieldOptions: valueOptions,
    appendToArrayOptions: valueOptions,
    removeFromArrayOptions: valueOptions,
  }),
);
