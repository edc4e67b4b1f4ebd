import { z } from "zod";

/**
 * The site's embedded scripts (custom code and marketing tools' tags on Wix), which Wix's Astro
 * integration injects into every page it renders (docs/platform/site-assets.md). On Wix a site
 * owner adds them in the dashboard; the local site has the ones named in
 * LOCAL_PLATFORM_SITE_SCRIPTS, none by default.
 */

/** Where on the page a script goes, as the installed client's `PositionOnPage` names it. */
export const SCRIPT_POSITIONS = ["HEAD", "BODY_START", "BODY_END"] as const;

export type SiteScript = { position: (typeof SCRIPT_POSITIONS)[number]; html: string };

// The installed typings: `html` at most 15,000 characters, and a list of at most 100 scripts.
const siteScriptsSchema = z.array(z.object({ position: z.enum(SCRIPT_POSITIONS), html: z.string().min(1).max(15_000) }).strict()).max(100);

/** LOCAL_PLATFORM_SITE_SCRIPTS: a JSON array of `{position, html}`; unset or blank: none. */
export const siteScriptsFromEnv = z
  .string()
  .optional()
  .transform((text, context): SiteScript[] => {
    if (text === undefined || text.trim() === "") return [];
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      context.addIssue({ code: "custom", message: 'must be JSON like [{"position":"HEAD","html":"<script>…</script>"}]' });
      return z.NEVER;
    }
    const parsed = siteScriptsSchema.safeParse(json);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) context.addIssue({ code: "custom", message: `${issue.path.join(".") || "(value)"}: ${issue.message}` });
    return z.NEVER;
  });
