/**
 * The hosted pages' look: the club's name, logo mark and type, so a person leaving the site for
 * the platform's login sees the same header and wording. The platform never imports the site,
 * so these are its own copy of the site's values (app/globals.css, components/site-header.tsx,
 * lib/site-config); change them together.
 */
export const BRANDING = {
  /** The full name, in page titles and "Back to …". */
  name: "Ridgeline Hiking Club",
  /** The name beside the logo mark in the header, as the site's header shows it. */
  shortName: "Ridgeline",
  /** The site's mark: a pine-green triangle. */
  logo: `<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 0 24 24H0z" fill="#2f6b45"/></svg>`,
  fontSans: `ui-sans-serif, system-ui, "Segoe UI", Roboto, "Helvetica Neue", "DejaVu Sans", Arial, sans-serif`,
  fontSerif: `ui-serif, Georgia, Cambria, "Times New Roman", "DejaVu Serif", serif`,
} as const;
