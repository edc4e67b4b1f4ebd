import type { ReactNode } from "react";
import { localMailboxUrl } from "@/lib/wix/identity";
import { focusRing } from "@/components/class-names";

export function AuthCard({ title, intro, children, footer }: { title: string; intro?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <section className="rounded-2xl border border-stone-200 bg-white px-5 py-8 shadow-sm sm:px-8">
      <h1 className="font-serif text-3xl font-semibold text-pine-900">{title}</h1>
      {intro && <div className="mt-2 text-sm text-stone-700">{intro}</div>}
      <div className="mt-6">{children}</div>
      {footer && <div className="mt-6 space-y-2 border-t border-stone-200 pt-5 text-sm text-stone-700">{footer}</div>}
    </section>
  );
}

export const linkClass = `font-medium text-pine-700 underline-offset-2 hover:underline ${focusRing}`;

/** In local mode, where the e-mails the platform "sends" can be read; nothing on a real Wix site. */
export function LocalMailboxHint() {
  const mailbox = localMailboxUrl();
  if (!mailbox) return null;
  return (
    <p>
      Running locally: the platform keeps every e-mail in its{" "}
      <a href={mailbox} className={linkClass} target="_blank" rel="noopener">
        mailbox
      </a>
      .
    </p>
  );
}
