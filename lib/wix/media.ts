import { media } from "@wix/sdk";
import { z } from "zod";
import { WIX_IMAGE_ORIGIN, WIX_MEDIA_ORIGINS } from "./media-origins";

/**
 * Media values as the platform stores them (`wix:image://…`, `wix:video://…`, `wix:audio://…`,
 * `wix:document://…` URIs, web URLs, or paths on this site, which the local platform's demo
 * content uses) turned into addresses the browser can load. The SDK's media helpers read the
 * Wix URIs. Images and sound are only taken from this site and Wix's media hosts: the image
 * optimiser and the security policy allow nothing else.
 */

export type Picture = { src: string; alt: string; width?: number; height?: number };
export type Video = { src: string; poster?: string };
export type Sound = { src: string };
export type Document = { href: string; name: string };

const SITE = "https://site.invalid";

/** A path on this site ("/media/x.jpg"); "//host" and "/\host" lead elsewhere and are refused. */
function sitePath(value: string): string | undefined {
  if (!value.startsWith("/")) return undefined;
  try {
    const url = new URL(value, SITE);
    // Only the path: the image optimiser refuses site images with a query string.
    return url.origin === SITE ? url.pathname : undefined;
  } catch {
    return undefined;
  }
}

/** An http(s) URL, optionally only on the given origins. */
function webUrl(value: string, origins?: readonly string[]): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    if (origins && !origins.includes(url.origin)) return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}

const servable = (value: string, origins: readonly string[] = WIX_MEDIA_ORIGINS) => sitePath(value) ?? webUrl(value, origins);
const dimension = (value: number | undefined) => (value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined);
const mediaText = z.string().trim().min(1).max(2000);

/** `wix:<kind>://v1/<media id>/…`; documents may carry a `ugd/` folder before the id. */
const wixUri = (kind: string, value: string) => new RegExp(`^wix:${kind}://v1/(ugd/)?[\\w.~-]+(/|#|$)`).test(value);

/** Reads a Wix media URI with the SDK's helper; a URI of another form, or one it throws on, is no value. */
function fromWixUri<T>(kind: string, value: string, read: (uri: string) => T): T | undefined {
  if (!wixUri(kind, value)) return undefined;
  try {
    return read(value);
  } catch {
    return undefined;
  }
}

export function pictureFrom(raw: unknown, alt = ""): Picture | undefined {
  const parsed = mediaText.safeParse(raw);
  if (!parsed.success) return undefined;
  const value = parsed.data;
  if (value.startsWith("wix:image://")) {
    const image = fromWixUri("image", value, media.getImageUrl);
    if (!image || !image.id || !webUrl(image.url, [WIX_IMAGE_ORIGIN])) return undefined;
    return { src: image.url, alt, width: dimension(image.width), height: dimension(image.height) };
  }
  const src = servable(value, [WIX_IMAGE_ORIGIN]);
  return src ? { src, alt } : undefined;
}

/** An image field's address alone (cards, Open Graph). */
export function imageUrl(raw: unknown): string | undefined {
  return pictureFrom(raw)?.src;
}

export function videoFrom(raw: unknown): Video | undefined {
  const parsed = mediaText.safeParse(raw);
  if (!parsed.success) return undefined;
  const value = parsed.data;
  if (value.startsWith("wix:video://")) {
    const video = fromWixUri("video", value, (uri) => media.getVideoUrl(uri));
    if (!video || !video.id) return undefined;
    return { src: video.url, poster: pictureFrom(video.thumbnail)?.src };
  }
  const src = servable(value);
  return src ? { src } : undefined;
}

export function soundFrom(raw: unknown): Sound | undefined {
  const parsed = mediaText.safeParse(raw);
  if (!parsed.success) return undefined;
  const value = parsed.data;
  if (value.startsWith("wix:audio://")) {
    const audio = fromWixUri("audio", value, media.getAudioUrl);
    return audio?.id ? { src: audio.url } : undefined;
  }
  const src = servable(value);
  return src ? { src } : undefined;
}

/** The last path segment, decoded, as a document's name when it has no other. */
function fileName(href: string): string {
  const last = new URL(href, SITE).pathname.split("/").filter(Boolean).pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** Documents are links the visitor follows, so any web address will do. */
export function documentFrom(raw: unknown): Document | undefined {
  const parsed = mediaText.safeParse(raw);
  if (!parsed.success) return undefined;
  const value = parsed.data;
  if (value.startsWith("wix:document://")) {
    const document = fromWixUri("document", value, media.getDocumentUrl);
    if (!document?.id) return undefined;
    return { href: document.url, name: document.filename || "Document" };
  }
  const href = sitePath(value) ?? webUrl(value);
  return href ? { href, name: fileName(href) || "Document" } : undefined;
}
