"use client";

import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import Image from "next/image";
import { createContext, useContext, useState, type ReactNode } from "react";
import type { Picture } from "@/lib/wix/media";
import { focusRing } from "@/components/class-names";

export type ViewedPhoto = { picture: Picture; caption?: string };

const OpenAt = createContext<(index: number) => void>(() => {});

/**
 * A gallery's photos, each opening a full-screen viewer (Headless UI's dialog: focus kept inside,
 * Escape closes, focus returns to the photo that opened it). Arrow keys and buttons move through
 * the photos; the page around stays as it was.
 */
export function PhotoViewer({ photos, label, children }: { photos: ViewedPhoto[]; label: string; children: ReactNode }) {
  const [shown, setShown] = useState<number | null>(null);
  const step = (by: number) => setShown((index) => (index === null ? null : (index + by + photos.length) % photos.length));
  const photo = shown === null ? null : photos[shown];
  return (
    <OpenAt.Provider value={setShown}>
      {children}
      <Dialog
        open={photo !== null}
        onClose={() => setShown(null)}
        className="relative z-50"
        onKeyDown={(event) => {
          if (event.key === "ArrowRight") step(1);
          else if (event.key === "ArrowLeft") step(-1);
        }}
      >
        <div className="fixed inset-0 bg-stone-950/90" aria-hidden />
        <div className="fixed inset-0 flex items-center justify-center p-2 sm:p-6">
          <DialogPanel className="flex max-h-full w-full max-w-5xl flex-col gap-3 text-white">
            {photo && shown !== null && (
              <>
                <div className="flex items-center justify-between gap-3">
                  <DialogTitle className="text-sm">
                    {label}: photo {shown + 1} of {photos.length}
                  </DialogTitle>
                  <button
                    type="button"
                    autoFocus
                    onClick={() => setShown(null)}
                    className="rounded-lg border border-white/60 px-3 py-1.5 text-sm hover:bg-white/10"
                  >
                    Close
                  </button>
                </div>
                <div className="relative min-h-0 flex-1">
                  <Image
                    src={photo.picture.src}
                    alt={photo.picture.alt}
                    width={photo.picture.width ?? 1500}
                    height={photo.picture.height ?? 1000}
                    sizes="(min-width: 1024px) 1024px, 100vw"
                    className="mx-auto max-h-[75vh] w-auto rounded-lg object-contain"
                  />
                </div>
                {photo.caption && <p className="text-sm text-stone-200">{photo.caption}</p>}
                {photos.length > 1 && (
                  <div className="flex justify-between gap-3">
                    <button type="button" onClick={() => step(-1)} className="rounded-lg border border-white/60 px-4 py-2 text-sm hover:bg-white/10">
                      ← Previous
                    </button>
                    <button type="button" onClick={() => step(1)} className="rounded-lg border border-white/60 px-4 py-2 text-sm hover:bg-white/10">
                      Next →
                    </button>
                  </div>
                )}
              </>
            )}
          </DialogPanel>
        </div>
      </Dialog>
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
