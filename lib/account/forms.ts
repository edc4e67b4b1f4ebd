import { z } from "zod";
import { ASK_FIRST_WAYS } from "@/lib/auth/ask-first";
import { checkbox, newPassword, sixDigitCode } from "@/lib/auth/forms";
import { isCountryCode } from "@/lib/countries";
import { ADDRESS_LABELS } from "./profile-words";

/**
 * The account page's forms: fields, rules and messages. Client components validate with the
 * same schemas before submitting; server actions validate again.
 */

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} can be at most ${max} characters.`)
    .optional()
    .transform((value) => value ?? "");

/** Form lists arrive with blank rows; they are dropped, not refused. */
const withoutBlanks = <T extends z.ZodType>(entry: T, max: number, label: string) =>
  z
    .array(entry.optional())
    .max(max, `Add at most ${max} ${label}.`)
    .optional()
    .transform((list) => (list ?? []).filter((value): value is NonNullable<z.infer<T>> => value !== undefined && value !== null));

/**
 * One postal address (lib/wix/members.ts, `PostalAddress`). The country is chosen from a list of
 * ISO codes; an address with anything in it needs one, since the other parts mean little without.
 */
const address = z
  .object({
    addressLine: optionalText(ADDRESS_LABELS.addressLine, 200),
    apt: optionalText(ADDRESS_LABELS.apt, 200),
    city: optionalText(ADDRESS_LABELS.city, 100),
    subdivision: optionalText(ADDRESS_LABELS.subdivision, 100),
    postalCode: optionalText(ADDRESS_LABELS.postalCode, 20),
    country: z
      .string()
      .optional()
      .transform((value) => value ?? "")
      .refine((value) => value === "" || isCountryCode(value), "Choose the country from the list."),
  })
  .transform((value) => (Object.values(value).some(Boolean) ? value : undefined))
  .refine((value) => value === undefined || value.country !== "", { path: ["country"], error: "Choose the country of this address." });

export const profileSchema = z.object({
  nickname: z.string({ error: "Enter the name other members see." }).trim().min(1, "Enter the name other members see.").max(50, "Keep it to 50 characters."),
  title: optionalText("Title", 100),
  publicProfile: checkbox,
  firstName: optionalText("First name", 100),
  lastName: optionalText("Last name", 100),
  photoUrl: z
    .url({ protocol: /^https?$/, error: "Enter a web address starting with https://." })
    .max(2048, "That address is too long.")
    .optional()
    .transform((value) => value ?? ""),
  emails: withoutBlanks(z.email("Enter an e-mail address like name@example.com.").max(254, "That e-mail address is too long."), 5, "e-mail addresses"),
  phones: withoutBlanks(
    z
      .string()
      .trim()
      .regex(/^\+?[0-9 ().-]{3,30}$/, "Use digits, spaces and + ( ) - only."),
    5,
    "phone numbers",
  ),
  addresses: withoutBlanks(address, 5, "addresses"),
  customFields: z
    .array(z.object({ key: z.string().min(1).max(100), value: optionalText("This field", 500) }))
    .max(20)
    .optional()
    .transform((list) => list ?? []),
});

export type ProfileInput = z.infer<typeof profileSchema>;

export const slugSchema = z.object({
  slug: z
    .string({ error: "Enter the address for your profile." })
    .trim()
    .toLowerCase()
    .min(3, "Use at least 3 characters.")
    .max(40, "Use at most 40 characters.")
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and single hyphens, like jo-walker."),
});

export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ error: "Enter your current password." }).min(1, "Enter your current password.").max(256),
    newPassword: newPassword("Choose a new password."),
    confirmPassword: z.string({ error: "Enter the new password again." }),
  })
  .refine((value) => value.confirmPassword === value.newPassword, { path: ["confirmPassword"], error: "The two new passwords are not the same." })
  .refine((value) => value.newPassword !== value.currentPassword, { path: ["newPassword"], error: "Choose a password different from the current one." });

export const deleteAccountSchema = z.object({
  confirm: z.boolean({ error: "Tick the box to confirm." }).refine(Boolean, "Tick the box to confirm."),
  /** Ticked, the member's trail reports go with the account; left, they stay, signed "by a member". */
  removeReports: checkbox,
});

/**
 * Changes to two-step sign-in take the member's password besides the session: a stolen session
 * alone must not add or remove a factor, or make new recovery codes.
 */
const currentPassword = z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(256, "That is longer than any password here.");

export const passwordProofSchema = z.object({ password: currentPassword });

/** "Ask first for" on this browser: one of the ways, or none for whichever the login offers first. Only a choice: no password. */
export const askFirstSchema = z.object({ askFirst: z.enum(ASK_FIRST_WAYS, "Choose one of the ways listed.").optional() });

export const smsFactorSchema = z.object({
  phone: z
    .string({ error: "Enter your mobile number." })
    .trim()
    .min(1, "Enter your mobile number.")
    .max(40, "That number is too long.")
    .transform((value) => value.replace(/[\s().-]/g, ""))
    .pipe(z.string().regex(/^\+[0-9]{8,15}$/, "Enter the number in international form, starting with + and the country code, like +44 7700 900123.")),
  password: currentPassword,
});

/** An app still being set up guards nothing yet: cancelling it takes no password. */
export const cancelSetupSchema = z.object({ factorId: z.string().min(1).max(100) });

/** Forgetting one remembered browser. */
export const forgetDeviceSchema = z.object({ deviceId: z.string().min(1).max(100) });

export const removeFactorSchema = cancelSetupSchema.extend({ password: currentPassword });

/** The first code of an authenticator app being set up, which turns it on. */
export const appFactorCodeSchema = cancelSetupSchema.extend({ code: sixDigitCode });

/** A passkey's name on the account page; the browser's ceremony comes between this form and the next. */
const passkeyName = z.string({ error: "Give the passkey a name." }).trim().min(1, "Give the passkey a name.").max(60, "Keep it to 60 characters.");

/** Adding a passkey, first step: its name, the password, and whether the device checks the person every time. */
export const passkeyOptionsSchema = z.object({ name: passkeyName, password: currentPassword, everyTime: checkbox });

/** Adding a passkey, second step: the browser's new credential for the challenge the first step gave. */
export const addPasskeySchema = z.object({ challengeId: z.string().min(1).max(100), credential: z.string().min(1).max(64_000), name: passkeyName });

/** Removing a passkey, with the password. */
export const removePasskeySchema = z.object({ passkeyId: z.string().min(1).max(1024), password: currentPassword });
