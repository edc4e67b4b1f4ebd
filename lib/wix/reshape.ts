import { media } from "@wix/sdk";
import { z } from "zod";

/** Zod pieces for reading item data from the platform, which the site trusts least. */
export const text = z.string().catch("");
export const optionalText = z.string().optional().catch(undefined);
export const number = z.number().finite().optional().catch(undefined);
export const stringList = z.array(z.string()).catch([]);
export const flag = z.boolean().catch(false);
export const date = z.coerce.date().optional().catch(undefined);

/**
 * Image fields hold `wix:image://…` media ids on Wix, or plain URLs and site paths
 * (the local platform's demo content uses files under /media).
 */
export function imageUrl(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  if (value.startsWith("wix:image://")) {
    try {
      return media.getImageUrl(value).url;
    } catch {
      return undefined;
    }
  }
  return /^(https?:\/\/|\/(?!\/))/.test(value) ? value : undefined;
}

/** Rich text reduced to plain text, for excerpts. */
export function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, " ").replace(/&nbsp;/g, " ").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, " ").trim();
}
