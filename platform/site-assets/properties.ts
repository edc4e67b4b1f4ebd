import { z } from "zod";

/**
 * The site's essential properties (its locale, billing currency, time zone and languages), which
 * `getEssentialProperties` and `getSiteMetadata` answer and Wix's Astro integration reads to
 * localize what it renders (docs/platform/site-assets.md). On Wix a site owner sets them in the
 * dashboard; the local site takes them from LOCAL_PLATFORM_SITE_LOCALE, _CURRENCY, _TIME_ZONE and
 * _LANGUAGES, defaulting to an English (US) site billed in US dollars on UTC with one language.
 */

export type SiteLocale = { languageCode: string; country: string };
export type SupportedLanguage = {
  languageCode: string;
  countryCode: string;
  isPrimary: boolean;
  isVisitorPrimary: boolean;
  locale: SiteLocale;
  resolutionMethod: "QUERY_PARAM";
};
export type EssentialProperties = {
  locale: SiteLocale;
  language: string;
  paymentCurrency: string;
  timeZone: string;
  multilingual: { autoRedirect: boolean; supportedLanguages: SupportedLanguage[] };
};

/** A BCP 47 tag with a two-letter language and a two-letter region, as the typings' formats ask ("en-US"). */
const localeTag = z
  .string()
  .trim()
  .transform((text, context): SiteLocale => {
    const match = /^([a-z]{2})[-_]([a-z]{2})$/i.exec(text);
    if (!match) {
      context.addIssue({ code: "custom", message: `"${text}" must be a language and a country, like en-US` });
      return z.NEVER;
    }
    return { languageCode: match[1].toLowerCase(), country: match[2].toUpperCase() };
  });

export const siteLocaleFromEnv = localeTag.optional().transform((locale) => locale ?? { languageCode: "en", country: "US" });

export const siteCurrencyFromEnv = z
  .string()
  .trim()
  .toUpperCase()
  .refine((code) => Intl.supportedValuesOf("currency").includes(code), "must be an ISO 4217 currency code, like EUR")
  .default("USD");

export const siteTimeZoneFromEnv = z
  .string()
  .trim()
  .max(50)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, "must be an IANA time zone, like Europe/Paris")
  .default("UTC");

/** Further languages, comma-separated ("fr-FR,de-DE"); unset or blank: the site has one language. */
export const siteLanguagesFromEnv = z
  .string()
  .optional()
  .transform((text) =>
    (text ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .pipe(z.array(localeTag).max(99));

/**
 * The properties answered for the site's settings. A site with further languages lists its
 * primary one first among them; the visitor's language is the primary one, since the platform
 * does not know a visitor's language preference.
 */
export function essentialProperties(site: { locale: SiteLocale; currency: string; timeZone: string; languages: SiteLocale[] }): EssentialProperties {
  const language = (locale: SiteLocale, isPrimary: boolean): SupportedLanguage => ({
    languageCode: locale.languageCode,
    countryCode: locale.country,
    isPrimary,
    isVisitorPrimary: isPrimary,
    locale,
    resolutionMethod: "QUERY_PARAM",
  });
  return {
    locale: site.locale,
    language: site.locale.languageCode,
    paymentCurrency: site.currency,
    timeZone: site.timeZone,
    multilingual: {
      autoRedirect: false,
      supportedLanguages: site.languages.length === 0 ? [] : [language(site.locale, true), ...site.languages.map((other) => language(other, false))],
    },
  };
}
