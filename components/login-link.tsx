"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { loginHref } from "@/lib/auth/routes";

/**
 * A plain anchor, not a next/link: a login must never start from a prefetch (docs/auth-pitfalls.md P6).
 * It brings the visitor back to the page they were on.
 */
export function LoginLink({ className, children }: { className?: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const returnTo = pathname + (search ? `?${search}` : "");
  return (
    <a href={loginHref(returnTo)} className={className}>
      {children}
    </a>
  );
}
