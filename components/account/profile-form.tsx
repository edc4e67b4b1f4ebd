"use client";

import { getFieldsetProps, getFormProps, useForm, type FieldMetadata } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { Field } from "@/components/forms/field";
import { FormFeedback, SubmitButton, useActionSubmit } from "@/components/forms/feedback";
import { showsReply, useFormReply } from "@/components/forms/form-reply";
import { useFormChecks } from "@/components/forms/use-form-checks";
import type { z } from "zod";
import type { profileSchema } from "@/lib/account/forms";
import { ADDRESS_LABELS, PROFILE_WORDS } from "@/lib/account/profile-words";
import type { CountryOption } from "@/lib/countries";
import type { FormAction } from "@/lib/form-state";
import { focusRing } from "@/components/class-names";

export type ProfileDefaults = {
  nickname: string;
  publicProfile: boolean;
  title: string;
  firstName: string;
  lastName: string;
  photoUrl: string;
  emails: string[];
  phones: string[];
  addresses: Array<Record<keyof typeof ADDRESS_LABELS, string>>;
  customFields: Array<{ key: string; name: string; value: string }>;
};

/** An address's text parts in the order a letter has them, each with the browser's autofill token; the country follows, from a list. */
const ADDRESS_TEXT_FIELDS: Array<{ name: Exclude<keyof typeof ADDRESS_LABELS, "country">; autoComplete: string; hint?: string; wide?: boolean }> = [
  { name: "addressLine", autoComplete: "address-line1", hint: "Number and street, like 12 Cedar Road.", wide: true },
  { name: "apt", autoComplete: "address-line2", wide: true },
  { name: "city", autoComplete: "address-level2" },
  { name: "subdivision", autoComplete: "address-level1" },
  { name: "postalCode", autoComplete: "postal-code" },
];

const sectionClass = "space-y-4 rounded-xl border border-stone-200 bg-white p-5";
const legendClass = "px-1 font-serif text-lg font-semibold text-pine-900";
const smallButton =
  "rounded-lg border border-stone-400 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 " + `hover:border-pine-700 hover:text-pine-800 ${focusRing}`;

const PROFILE_REPLY = "profile-reply";

/**
 * Focus on the first field of a row just added to a list: the "Add" button pressed stays where it
 * was, below the new row, and would keep the focus. `firstFields` are the lists' first-field ids, in order.
 */
function useFocusOnAddedRow(firstFields: string[][]) {
  const counts = firstFields.map((ids) => ids.length);
  const before = useRef(counts);
  const key = counts.join(",");
  useEffect(() => {
    const added = firstFields.findIndex((ids, list) => ids.length > (before.current[list] ?? 0));
    before.current = firstFields.map((ids) => ids.length);
    if (added >= 0) document.getElementById(firstFields[added].at(-1) ?? "")?.focus();
    // The lists' lengths are what changes; the ids are read when they do.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}

/** The member's whole profile in one form; lists (e-mails, phones, addresses) grow and shrink in place. */
export function ProfileForm({ action, profile, countries }: { action: FormAction; profile: ProfileDefaults; countries: CountryOption[] }) {
  const [state, formAction, pending] = useFormReply(action, {}, PROFILE_REPLY);
  const [form, fields] = useForm({
    lastResult: state.result,
    defaultValue: profile,
    onValidate: useFormChecks<z.output<typeof profileSchema>>("profile"),
    // First checked by the server on submit (a message appearing on blur would move the button
    // under the pointer); after that, each field is checked again as it is corrected.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const emails = fields.emails.getFieldList();
  const phones = fields.phones.getFieldList();
  const addresses = fields.addresses.getFieldList();
  const customFields = fields.customFields.getFieldList();
  useFocusOnAddedRow([emails.map((email) => email.id), phones.map((phone) => phone.id), addresses.map((address) => address.getFieldset().addressLine.id)]);
  const formProps = getFormProps(form);
  const countryChoices = countries.map(({ code, name }) => ({ value: code, label: name }));
  const { summary, formRef, onSubmit } = useActionSubmit(state, formAction, formProps.onSubmit);

  const list = (items: FieldMetadata<string | undefined>[], listName: string, label: string, type: "email" | "tel", autoComplete: string) => (
    <ul className="space-y-3">
      {items.map((item, index) => (
        <li key={item.key} className="flex items-end gap-3">
          <div className="min-w-0 flex-1">
            <Field meta={item} spec={{ label: `${label} ${index + 1}`, type, autoComplete }} />
          </div>
          <button {...form.remove.getButtonProps({ name: listName, index })} className={smallButton} aria-label={`Remove ${label.toLowerCase()} ${index + 1}`}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );

  return (
    <form {...formProps} ref={formRef} onSubmit={onSubmit} action={formAction} className="space-y-6" aria-busy={pending}>
      <FormFeedback
        summary={summary}
        errors={form.errors ?? []}
        errorId={form.errorId}
        done={state.done}
        replyId={showsReply(state) ? PROFILE_REPLY : undefined}
      />
      <fieldset className={sectionClass}>
        <legend className={legendClass}>Your profile</legend>
        <Field meta={fields.publicProfile} spec={{ label: PROFILE_WORDS.publicChoice, type: "checkbox", hint: PROFILE_WORDS.publicChoiceHint }} />
        <Field meta={fields.nickname} spec={{ label: "Nickname", autoComplete: "off", hint: PROFILE_WORDS.nicknameHint }} />
        <Field meta={fields.title} spec={{ label: "Title", optional: true, hint: "A line about you, like “Weekend hill walker”." }} />
        <Field meta={fields.photoUrl} spec={{ label: "Photo address", type: "url", optional: true, hint: "A link to a picture of you (https://…)." }} />
      </fieldset>

      <fieldset className={sectionClass}>
        <legend className={legendClass}>Name</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.firstName} spec={{ label: "First name", autoComplete: "given-name", optional: true }} />
          <Field meta={fields.lastName} spec={{ label: "Last name", autoComplete: "family-name", optional: true }} />
        </div>
      </fieldset>

      <fieldset className={sectionClass}>
        <legend className={legendClass}>E-mail addresses</legend>
        <p className="text-sm text-stone-600">Other addresses we may reach you at. Your login e-mail stays as it is.</p>
        {list(emails, fields.emails.name, "E-mail", "email", "email")}
        <button {...form.insert.getButtonProps({ name: fields.emails.name })} className={smallButton}>
          Add an e-mail address
        </button>
      </fieldset>

      <fieldset className={sectionClass}>
        <legend className={legendClass}>Phone numbers</legend>
        {list(phones, fields.phones.name, "Phone", "tel", "tel")}
        <button {...form.insert.getButtonProps({ name: fields.phones.name })} className={smallButton}>
          Add a phone number
        </button>
      </fieldset>

      <fieldset className={sectionClass}>
        <legend className={legendClass}>Addresses</legend>
        {addresses.map((address, index) => {
          const parts = address.getFieldset();
          // Each address its own autofill section, so a browser fills one without touching the others.
          const section = `section-address${index + 1}`;
          const country = parts.country.value ?? "";
          // A country saved before the list (a code it does not have) stays shown until another is chosen.
          const choices = country && !countries.some(({ code }) => code === country) ? [{ value: country, label: country }, ...countryChoices] : countryChoices;
          return (
            <fieldset key={address.key} {...getFieldsetProps(address)} className="space-y-4 rounded-lg border border-stone-200 p-4">
              <legend className="px-1 text-sm font-semibold text-stone-800">Address {index + 1}</legend>
              <div className="grid gap-4 sm:grid-cols-2">
                {ADDRESS_TEXT_FIELDS.map(({ name, wide, autoComplete, hint }) => (
                  <div key={name} className={wide ? "sm:col-span-2" : undefined}>
                    <Field meta={parts[name]} spec={{ label: ADDRESS_LABELS[name], autoComplete: `${section} ${autoComplete}`, hint, optional: true }} />
                  </div>
                ))}
                <Field
                  meta={parts.country}
                  spec={{
                    label: ADDRESS_LABELS.country,
                    type: "select",
                    options: choices,
                    placeholder: "Choose a country",
                    autoComplete: `${section} country`,
                  }}
                />
              </div>
              <button {...form.remove.getButtonProps({ name: fields.addresses.name, index })} className={smallButton}>
                Remove address {index + 1}
              </button>
            </fieldset>
          );
        })}
        <button {...form.insert.getButtonProps({ name: fields.addresses.name })} className={smallButton}>
          Add an address
        </button>
      </fieldset>

      {customFields.length > 0 && (
        <fieldset className={sectionClass}>
          <legend className={legendClass}>More about you</legend>
          {customFields.map((customField, index) => {
            const parts = customField.getFieldset();
            return (
              <div key={customField.key}>
                <input type="hidden" name={parts.key.name} value={profile.customFields[index]?.key ?? parts.key.initialValue ?? ""} />
                <Field meta={parts.value} spec={{ label: profile.customFields[index]?.name ?? parts.key.initialValue ?? "Field", optional: true }} />
              </div>
            );
          })}
        </fieldset>
      )}

      <SubmitButton pending={pending} pendingLabel="Saving…" wide={false}>
        Save profile
      </SubmitButton>
    </form>
  );
}
