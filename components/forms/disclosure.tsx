import type { ReactNode } from "react";
import { focusRing, summaryButton } from "@/components/class-names";

/**
 * A form folded under a line that says what it does, so a section of many forms (each asking for
 * the password) stays short: a native disclosure, which works without script. `open` while its
 * form shows a refusal, so a post without JavaScript comes back to the error in sight.
 */
export function Disclosure({ summary, open, children }: { summary: string; open?: boolean; children: ReactNode }) {
  return (
    <details open={open || undefined} className="group">
      <summary
        className={`inline-flex items-center gap-2 rounded-lg border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 hover:border-pine-700 ${summaryButton} ${focusRing}`}
      >
        <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90">
          ›
        </span>
        {summary}
      </summary>
      <div className="mt-3 space-y-3">{children}</div>
    </details>
  );
}
