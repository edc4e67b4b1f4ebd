import { parse, type Submission } from "@conform-to/react";
import { useEffect, useState } from "react";
import type { FormKind } from "./form-checks";

type Checks = typeof import("./form-checks");

/**
 * A form's check in the browser, for conform's `onValidate`. The rules arrive just after the page
 * (see form-checks.ts); until then a field is taken as typed, and the server checks it on submit
 * as it always does.
 */
export function useFormChecks<Value = Record<string, unknown>>(kind: FormKind) {
  const [checks, setChecks] = useState<Checks | null>(null);
  useEffect(() => {
    let mounted = true;
    void import("./form-checks").then((module) => mounted && setChecks(module));
    return () => {
      mounted = false;
    };
  }, []);
  // Typed by the form that asks: the schema of its kind produces its value.
  return ({ formData }: { formData: FormData }) =>
    (checks ? checks.checkForm(kind, formData) : parse(formData, { resolve: (value) => ({ value }) })) as Submission<Value, string[]>;
}
