"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, type ReactNode } from "react";
import { startNavigationProgress } from "@/components/nav/navigation-progress";

/**
 * The control to focus again once the list has loaded: the form is remade for every URL (so back
 * and forward, and the removal of a filter, show the right choices), and a keyboard user who
 * ticked a box must not be sent back to the top of the page.
 */
let refocus: { name: string; value: string } | null = null;

let lastNavigationKeptFocus = false;

/** Whether the list's latest navigation came from a changed control, which keeps the focus: the results heading then leaves it there. */
export function focusStaysOnControl(): boolean {
  return refocus !== null || lastNavigationKeptFocus;
}

/** A range whose "from" is past its "to" can match nothing: said on the field, not searched. */
function misorderedRange(form: HTMLFormElement): HTMLInputElement | null {
  for (const to of form.querySelectorAll<HTMLInputElement>('input[name$=".to"]')) {
    const from = form.elements.namedItem(to.name.replace(/\.to$/, ".from"));
    to.setCustomValidity("");
    if (!(from instanceof HTMLInputElement) || from.value === "" || to.value === "") continue;
    const past = to.type === "number" ? Number(from.value) > Number(to.value) : from.value > to.value;
    if (past) {
      to.setCustomValidity(`Enter a value from ${from.value} up: the range cannot end before it starts.`);
      return to;
    }
  }
  return null;
}

/** The list's own choices, which its canonical URL writes after the filters (`listHref` in lib/search-params.ts). */
const WRITTEN_LAST = ["sort", "size"];

/**
 * The form's choices as the list's canonical query: empty fields and lists left at their first
 * (default) choice stay out, sort and page size come after the filters. The canonical URL is the
 * one the page cache keeps, so the list loads without a redirect.
 */
function canonicalQuery(form: HTMLFormElement): string {
  const chosen: [string, string][] = [];
  for (const control of form.elements) {
    if (!(control instanceof HTMLInputElement || control instanceof HTMLSelectElement) || !control.name || control.disabled) continue;
    if (control instanceof HTMLInputElement && control.type === "checkbox" && !control.checked) continue;
    if (control instanceof HTMLSelectElement && control.selectedIndex === 0) continue;
    if (control.value.trim() !== "") chosen.push([control.name, control.value.trim()]);
  }
  const ordered = [...chosen.filter(([name]) => !WRITTEN_LAST.includes(name)), ...chosen.filter(([name]) => WRITTEN_LAST.includes(name))];
  const query = new URLSearchParams(ordered).toString();
  return query ? `?${query}` : "";
}

/** Keys that move a closed list's choice one step at a time (each step a change event in Chromium). */
const STEPPING_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

type Control = HTMLInputElement | HTMLSelectElement;

/**
 * The list's search form. Without JavaScript it is a plain GET form ("Show results" submits it).
 * With it, a filter, sort or page size applies as soon as it changes, the search when submitted,
 * and the URL carries only what is chosen, in the order of its canonical URL. A sort or page size
 * stepped through with the arrow keys changes at every step: it applies only on Enter, when the
 * focus leaves it, or with "Show results", so the steps on the way (however slow) cost no
 * navigation and no prefetch.
 */
export function ListForm({ action, label, className, children }: { action: string; label: string; className: string; children: ReactNode }) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  /** The list whose last change came from a stepping key. */
  const stepped = useRef<EventTarget | null>(null);
  /** A stepped choice waiting for Enter or blur before it applies. */
  const settling = useRef<{ target: HTMLFormElement; changed: Control } | null>(null);

  useEffect(() => {
    const wanted = refocus;
    refocus = null;
    lastNavigationKeptFocus = wanted !== null;
    if (!wanted || !form.current) return;
    const control = [...form.current.querySelectorAll<Control>(`[name="${CSS.escape(wanted.name)}"]`)].find(
      (element) => !(element instanceof HTMLInputElement && element.type === "checkbox") || element.value === wanted.value,
    );
    const folded = control?.closest("details");
    if (folded) folded.open = true;
    control?.focus();
  }, []);

  const apply = (target: HTMLFormElement) => {
    const invalid = misorderedRange(target);
    if (invalid) {
      invalid.reportValidity();
      return;
    }
    const href = `${action}${canonicalQuery(target)}`;
    if (href !== `${window.location.pathname}${window.location.search}`) startNavigationProgress();
    router.push(href, { scroll: false });
  };

  const applyChange = (target: HTMLFormElement, changed: Control) => {
    // A typed bound changes as focus leaves it: once focus has landed, that is the control to return to.
    setTimeout(() => {
      const focused = document.activeElement;
      const control = focused instanceof HTMLInputElement || focused instanceof HTMLSelectElement ? focused : null;
      const landed = control && target.contains(control) && control.name ? control : changed;
      refocus = { name: landed.name, value: landed.value };
      apply(target);
    });
  };

  const settle = () => {
    const waiting = settling.current;
    if (!waiting) return;
    settling.current = null;
    applyChange(waiting.target, waiting.changed);
  };

  return (
    <form
      ref={form}
      action={action}
      method="get"
      aria-label={label}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        settling.current = null;
        apply(event.currentTarget);
      }}
      onPointerDown={() => (stepped.current = null)}
      onKeyDown={(event) => {
        if (!(event.target instanceof HTMLSelectElement)) return;
        stepped.current = STEPPING_KEYS.has(event.key) ? event.target : null;
        if (event.key === "Enter" && settling.current) {
          event.preventDefault();
          settle();
        }
      }}
      onBlur={(event) => {
        const left: EventTarget = event.target;
        if (settling.current?.changed === left) settle();
      }}
      onChange={(event) => {
        const changed: EventTarget = event.target;
        // The search box applies when submitted, not at every keystroke.
        if (!(changed instanceof HTMLInputElement || changed instanceof HTMLSelectElement) || changed.type === "search") return;
        const target = event.currentTarget;
        if (changed === stepped.current) {
          settling.current = { target, changed };
          return;
        }
        applyChange(target, changed);
      }}
    >
      {children}
    </form>
  );
}
