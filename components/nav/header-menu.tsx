"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { headerMenuButton, summaryButton } from "@/components/class-names";

/**
 * A menu in the header as a native disclosure, so it opens and its links and forms work before
 * (or without) JavaScript. Sharing one `name` makes the menus exclusive in the browser itself:
 * opening one closes the other. With JavaScript, Escape, a press outside and a followed link
 * close it too.
 */
export function HeaderMenu({
  summary,
  summaryClassName,
  panelClassName,
  className = "",
  children,
}: {
  summary: ReactNode;
  summaryClassName: string;
  panelClassName: string;
  className?: string;
  children: ReactNode;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const menu = details.current!;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !menu.open) return;
      const focusWasInside = menu.contains(document.activeElement);
      menu.open = false;
      if (focusWasInside) menu.querySelector("summary")!.focus();
    };
    // Pointer down rather than click: taps on iOS send no click from parts of the page that are not controls.
    const onPointerDown = (event: PointerEvent) => {
      if (!menu.contains(event.target as Node)) menu.open = false;
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, []);
  return (
    <details
      ref={details}
      name="header-menu"
      // Closed at once, not when the next page arrives: the header stays mounted across pages, and a link to the page shown changes nothing.
      onClick={(event) => {
        if ((event.target as Element).closest("a")) event.currentTarget.open = false;
      }}
      className={`relative ${className}`}
    >
      <summary className={`${summaryButton} ${headerMenuButton} ${summaryClassName}`}>{summary}</summary>
      <ul className={`absolute right-0 z-50 mt-2 rounded-lg border border-stone-200 bg-white py-1 shadow-lg ${panelClassName}`}>{children}</ul>
    </details>
  );
}
