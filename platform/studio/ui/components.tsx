import { Fragment, useEffect, useRef, type ReactNode } from "react";
import type { StudioApiError } from "./api";
import { movedInStudio } from "./router";

/** Building blocks every area uses, so the Studio reads and behaves the same everywhere. */

/**
 * The area's heading. It takes the focus when the person moves to the area (or the `focusKey`
 * changes), so screen readers hear where they are; a freshly loaded page leaves focus where the browser puts it.
 */
export function AreaHeading({ children, focusKey, actions }: { children: ReactNode; focusKey?: string; actions?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (movedInStudio()) heading.current?.focus({ preventScroll: true });
  }, [focusKey]);
  return (
    <div className="area-heading">
      <h1 ref={heading} tabIndex={-1}>
        {children}
      </h1>
      {actions && <div className="actions">{actions}</div>}
    </div>
  );
}

/** A refusal or failure, announced at once. */
export function ErrorMessage({ error }: { error?: StudioApiError | string | null }) {
  if (!error) return null;
  const text = typeof error === "string" ? error : error.code ? `${error.message} (${error.code})` : error.message;
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}

/** A short confirmation (saved, deleted, …), announced politely; always rendered so the announcement is heard. */
export function StatusMessage({ children }: { children?: ReactNode }) {
  return (
    <p className={children ? "status" : "status empty"} role="status" aria-live="polite">
      {children}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return <p className="muted">Loading {what}…</p>;
}

/**
 * A table in the Studio's frame: it scrolls sideways by itself on a narrow screen, and its
 * caption names it for screen readers. A column given as text is a plain header cell; anything
 * else (a sortable header) is used as it is. Any table may be wider than a phone's screen, so its
 * frame is a region the keyboard can reach and scroll, named by `region` or else by the caption.
 */
export function Table({
  caption,
  columns,
  children,
  region,
  className,
}: {
  caption: string;
  columns: readonly ReactNode[];
  children: ReactNode;
  region?: string;
  className?: string;
}) {
  return (
    <div className="table-wrap" role="region" aria-label={region ?? caption} tabIndex={0}>
      <table className={className}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) =>
              typeof column === "string" ? (
                <th key={index} scope="col">
                  {column}
                </th>
              ) : (
                <Fragment key={index}>{column}</Fragment>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
