"use client";

import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { focusRing } from "@/components/class-names";

export type FieldSpec = {
  name: string;
  label: string;
  type?: "email" | "password" | "text" | "url" | "tel" | "number" | "date" | "checkbox" | "textarea" | "select";
  /** For a select: its choices, after a first empty one that reads `placeholder`. */
  options?: ReadonlyArray<{ value: string; label: string }>;
  placeholder?: string;
  autoComplete?: string;
  hint?: string;
  optional?: boolean;
  inputMode?: "numeric" | "text";
};

const inputClass = "block w-full rounded-lg border bg-white px-3 py-2.5 text-stone-900 shadow-sm outline-none focus-visible:ring-4";

const invalidInputClass = "border-red-600 focus-visible:ring-red-200";
const validInputClass = "border-stone-400 focus-visible:border-pine-700 focus-visible:ring-pine-100";

/**
 * One labelled input with its hint and error, tied together with aria-describedby so a screen
 * reader reads the error with the field; only a faulted field is marked invalid.
 */
export function Field({ meta, spec }: { meta: FieldMetadata<string | boolean | undefined>; spec: Omit<FieldSpec, "name"> }) {
  const invalid = Boolean(meta.errors?.length);
  const hintId = `${meta.id}-hint`;
  // Conform adds the error's id itself when the field is invalid.
  const describedBy = spec.hint ? hintId : undefined;
  const checkbox = spec.type === "checkbox";
  const type = spec.type === "checkbox" || spec.type === "textarea" || spec.type === "select" || spec.type === undefined ? "text" : spec.type;
  const fieldClass = `${inputClass} ${invalid ? invalidInputClass : validInputClass}`;
  const input =
    spec.type === "select" ? (
      <select
        {...getSelectProps(meta, { ariaDescribedBy: describedBy })}
        key={meta.key}
        autoComplete={spec.autoComplete}
        aria-invalid={invalid || undefined}
        className={fieldClass}
      >
        <option value="">{spec.placeholder ?? ""}</option>
        {spec.options?.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    ) : spec.type === "textarea" ? (
      <textarea
        {...getTextareaProps(meta, { ariaDescribedBy: describedBy })}
        key={meta.key}
        rows={6}
        aria-invalid={invalid || undefined}
        className={fieldClass}
      />
    ) : (
      <input
        {...(checkbox ? getInputProps(meta, { type: "checkbox", ariaDescribedBy: describedBy }) : getInputProps(meta, { type, ariaDescribedBy: describedBy }))}
        key={meta.key}
        autoComplete={spec.autoComplete}
        inputMode={spec.inputMode}
        aria-invalid={invalid || undefined}
        className={checkbox ? `mt-0.5 h-5 w-5 shrink-0 rounded border-stone-500 accent-pine-700 ${focusRing}` : fieldClass}
      />
    );
  return (
    <div className="space-y-1.5">
      {checkbox ? (
        <label htmlFor={meta.id} className="flex items-start gap-3 text-sm text-stone-800">
          {input}
          <span>{spec.label}</span>
        </label>
      ) : (
        <>
          <label htmlFor={meta.id} className="block text-sm font-medium text-stone-800">
            {spec.label}
            {spec.optional && <span className="font-normal text-stone-600"> (optional)</span>}
          </label>
          {input}
        </>
      )}
      {spec.hint && (
        <p id={hintId} className="text-xs text-stone-600">
          {spec.hint}
        </p>
      )}
      {invalid && (
        <p id={meta.errorId} className="text-sm text-red-800">
          {meta.errors?.join(" ")}
        </p>
      )}
    </div>
  );
}
