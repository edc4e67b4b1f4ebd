import { z } from "zod";

/** Zod pieces for reading item data from the platform, which the site trusts least. */
export const text = z.string().catch("");
export const date = z.coerce.date().optional().catch(undefined);

/** Image values as addresses the site can show (lib/wix/media.ts). */
export { imageUrl } from "./media";

/** Rich text reduced to plain text, for excerpts. */
export function plainText(html: string): string {
  // A list reads as one: its items separated by commas, a full stop after the last. Other block
  // tags separate words; inline tags (strong, a) sit inside them.
  return html
    .replace(/<\/li>\s*(?=<li\b)/gi, ", ")
    .replace(/<\/li>\s*<\/(ul|ol)>/gi, ". ")
    .replace(/<\/?(p|div|li|ul|ol|br|h[1-6]|blockquote|tr|td)\b[^>]*>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}
