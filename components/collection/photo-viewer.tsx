"use client";

import Image from "next/image";
import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { Picture } from "@/lib/wix/media";
import { focusRing } from "@/components/class-names";

export type ViewedPhoto = { picture: Picture; caption?: string };

const OpenAt = createContext<(index: number) => void>(() => {});

const viewerButton = "rounded-lg border border-white/60 px-4 py-2 text-sm text-white hover:bg-white/10";

/**
 * A gallery's photos, each opening a full-screen viewer: the browser's own modal `<dialog>`
 * (focus kept inside, Escape closes it, focus returns to the photo that opened it), so public
 * pages carry no dialog library. Arrow keys and buttons move through the photos.
 */
export function PhotoViewer({ photos, label, children }: { photos: ViewedPhoto[]; label: string; children: ReactNode }) {
  const [shown, setShown] = useState<number | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const step = (by: number) => setShown((index) => (index === null ? null : (index + by + photos.length) % photos.length));
  const photo = shown === null ? null : photos[shown];

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (photo && !element.open) element.showModal();
    if (!photo && element.open) element.close();
  }, [photo]);

  return (
    <OpenAt.Provider value={setShown}>
      {children}
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        onClose={() => setShown(null)}
        onKeyDown={(event) => {
          if (event.key === "ArrowRight") step(1);
          else if (event.key === "ArrowLeft") step(-1);
        }}
        className="m-0 h-full max-h-none w-full max-w-none bg-stone-950 p-2 text-white backdrop:bg-stone-950 sm:p-6"
      >
        {photo && shown !== null && (
          <div className="mx-auto flex h-full max-w-5xl flex-col justify-center gap-3">
            <div className="flex items-center justify-between gap-3">
              <h2 id={titleId} className="text-sm">
                {label}: photo {shown + 1} of {photos.length}
              </h2>
              <button type="button" autoFocus onClick={() => setShown(null)} className={viewerButton}>
                Close
              </button>
            </div>
            <Image
              src={photo.picture.src}
              alt={photo.picture.alt}
              width={photo.picture.width ?? 1500}
              height={photo.picture.height ?? 1000}
              sizes="(min-width: 1024px) 1024px, 100vw"
              className="mx-auto max-h-[75vh] w-auto rounded-lg object-contain"
            />
            {photo.caption && <p className="text-sm text-stone-200">{photo.caption}</p>}
            {photos.length > 1 && (
              <div className="flex justify-between gap-3">
                <button type="button" onClick={() => step(-1)} className={viewerButton}>
                  ← Previous
                </button>
                <button type="button" onClick={() => step(1)} className={viewerButton}>
                  Next →
                </button>
              </div>
            )}
          </div>
        )}
      </dialog>
    </OpenAt.Provider>
  );
}

/** A photo in the gallery, as a button that opens the viewer on it. */
export function OpenPhoto({ index, label, children }: { index: number; label: string; children: ReactNode }) {
  const open = useContext(OpenAt);
  return (
    <button type="button" onClick={() => open(index)} aria-label={label} className={`block w-full cursor-zoom-in rounded-lg ${focusRing}`}>
      {children}
    </button>
  );
}
