/**
 * Where Wix serves media: images and sound from the static host, video from its own. One list
 * for the image optimiser's remote patterns (next.config.ts), the browser's security policy
 * (lib/security/policy.ts) and the reshaping that decides which media URLs the site shows.
 */
export const WIX_IMAGE_ORIGIN = "https://static.wixstatic.com";
export const WIX_VIDEO_ORIGIN = "https://video.wixstatic.com";
export const WIX_MEDIA_ORIGINS = [WIX_IMAGE_ORIGIN, WIX_VIDEO_ORIGIN] as const;
