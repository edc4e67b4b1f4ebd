import Image, { getImageProps } from "next/image";
import type { GalleryEntry } from "@/lib/wix/site-item";
import type { Document, Picture, Sound, Video } from "@/lib/wix/media";
import { imageSizes, widestWidths, type ImageLayout } from "./image-sizes";
import { OpenPhoto, PhotoViewer } from "./photo-viewer";

/**
 * A picture through the image optimiser: at its own proportions when its size is known,
 * otherwise (or when `crop` asks, for tiles that line up) cropped to 3:2. `sizes` follows the
 * layout it sits in. `priority`: preloaded in the head and fetched first, for the picture a page paints largest first.
 */
export function Photo({
  picture,
  layout,
  priority = false,
  crop = false,
  className = "",
}: {
  picture: Picture;
  layout: ImageLayout;
  priority?: boolean;
  crop?: boolean;
  className?: string;
}) {
  // Next.js 16 no longer raises a preloaded image's priority: the head's preload and the <img> ask for it here.
  const fetchPriority = priority ? "high" : undefined;
  if (picture.width && picture.height && !crop) {
    return (
      <Image
        src={picture.src}
        alt={picture.alt}
        width={picture.width}
        height={picture.height}
        sizes={imageSizes[layout]}
        preload={priority}
        fetchPriority={fetchPriority}
        className={`h-auto w-full ${className}`}
      />
    );
  }
  return (
    <div className={`relative aspect-[3/2] overflow-hidden ${className}`}>
      <Image src={picture.src} alt={picture.alt} fill sizes={imageSizes[layout]} preload={priority} fetchPriority={fetchPriority} className="object-cover" />
    </div>
  );
}

export function ImageValue({ picture, layout }: { picture: Picture; layout: ImageLayout }) {
  return <Photo picture={picture} layout={layout} className="rounded-lg" />;
}

function Caption({ title, description }: { title?: string; description?: string }) {
  if (!title && !description) return null;
  return (
    <figcaption className="mt-2 text-sm text-stone-700">
      {title && <span className="font-medium text-stone-900">{title}</span>}
      {title && description && ". "}
      {description}
    </figcaption>
  );
}

/**
 * A video's still through the image optimiser too, at the 1x width of the layout it plays in. Not
 * the optimiser's `src`, its 2x width (1920 px for the main column): that URL is also a candidate in
 * the srcset of any picture of the same file, and Chromium's <img> takes a denser candidate it has
 * loaded over the one the head's preload fetched, which then goes unused (docs/public-site.md).
 */
function posterUrl(src: string | undefined, layout: ImageLayout): string | undefined {
  if (!src) return undefined;
  const width = widestWidths[layout];
  return getImageProps({ src, alt: "", width, height: Math.round((width * 9) / 16) }).props.srcSet?.split(" ")[0];
}

export function VideoValue({ video, label, layout, shape = "aspect-video" }: { video: Video; label: string; layout: ImageLayout; shape?: string }) {
  return (
    <video
      controls
      preload="metadata"
      playsInline
      poster={posterUrl(video.poster, layout)}
      aria-label={label}
      className={`${shape} w-full rounded-lg bg-stone-900`}
    >
      <source src={video.src} />
      <a href={video.src}>Download the video</a>
    </video>
  );
}

function captionText({ title, description }: { title?: string; description?: string }): string | undefined {
  return [title, description].filter(Boolean).join(". ") || undefined;
}

/** Photos and videos as tiles of one shape; a photo opens in the viewer. */
export function GalleryValue({ entries, label }: { entries: GalleryEntry[]; label: string }) {
  const photos = entries.flatMap((entry) => (entry.kind === "image" ? [{ picture: entry.picture, caption: captionText(entry) }] : []));
  // Where each entry's photo stands among the photos alone, which is what the viewer steps through.
  const photoIndex = entries.map((_, index) => entries.slice(0, index).filter((entry) => entry.kind === "image").length);
  return (
    <PhotoViewer photos={photos} label={label}>
      <ul className="grid gap-4 sm:grid-cols-2" aria-label={label}>
        {entries.map((entry, index) => (
          <li key={`${entry.kind}-${index}`}>
            <figure>
              {entry.kind === "image" ? (
                <OpenPhoto index={photoIndex[index]} label={`Enlarge ${entry.picture.alt || entry.title || `photo ${photoIndex[index] + 1}`}`}>
                  <Photo picture={entry.picture} layout="tile" crop className="rounded-lg" />
                </OpenPhoto>
              ) : (
                <VideoValue video={entry.video} label={entry.title ?? label} layout="tile" shape="aspect-[3/2] object-cover" />
              )}
              <Caption title={entry.title} description={entry.description} />
            </figure>
          </li>
        ))}
      </ul>
    </PhotoViewer>
  );
}

export function AudioValue({ sound, label }: { sound: Sound; label: string }) {
  return (
    <audio controls preload="none" aria-label={label} className="w-full">
      <source src={sound.src} />
      <a href={sound.src}>Download the recording</a>
    </audio>
  );
}

/** "PDF" for "checklist.pdf"; nothing for a name without a short extension. */
function fileKind(name: string): string | undefined {
  const match = /\.([a-z0-9]{1,5})$/i.exec(name);
  return match?.[1].toUpperCase();
}

export function DocumentValue({ document }: { document: Document }) {
  const kind = fileKind(document.name);
  return (
    <a
      href={document.href}
      className="inline-flex items-center gap-2 font-medium text-pine-700 underline underline-offset-2 hover:text-pine-900"
      rel="noopener noreferrer"
    >
      <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4 shrink-0 fill-current">
        <path d="M5 2h6l4 4v12H5V2zm6 1.5V7h3.5L11 3.5zM7 10h6v1.5H7V10zm0 3h6v1.5H7V13z" />
      </svg>
      <span>
        {document.name}
        {kind && <span className="text-sm font-normal text-stone-700"> ({kind})</span>}
      </span>
    </a>
  );
}
