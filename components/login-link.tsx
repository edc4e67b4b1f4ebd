"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { loginPageHref } from "@/lib/auth/routes";

/** The header's way to the login page, which brings the visitor back to the page they were on. */
export function LoginLink({ className, children }: { className?: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  return (
    <Link href={loginPageHref(pathname + (search ? `?${search}` : ""))} className={className}>
      {children}
    </Link>
  );
}
