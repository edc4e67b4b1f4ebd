import type { ReactNode } from "react";

/** The sign-in pages: one narrow card, the same on every one of them. */
export default function AuthLayout({ children }: { children: ReactNode }) {
  return <div className="mx-auto w-full max-w-md py-10 sm:py-16">{children}</div>;
}
