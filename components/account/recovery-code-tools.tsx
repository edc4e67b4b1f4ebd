"use client";

import { useState } from "react";
import { useScripted } from "@/components/use-scripted";

/**
 * Copy and print for the recovery codes' page: both need script, so they appear only once it
 * runs (without it, the page's download and the browser's own print remain). Copying says so.
 */
export function RecoveryCodeTools({ codes, buttonClass }: { codes: string[]; buttonClass: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  if (!useScripted()) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  };
  return (
    <>
      <button type="button" onClick={copy} className={buttonClass}>
        Copy the codes
      </button>
      <button type="button" onClick={() => window.print()} className={buttonClass}>
        Print
      </button>
      <p role="status" className="basis-full text-sm text-stone-700">
        {copied === "yes"
          ? "Copied: paste them into your password manager."
          : copied === "no"
            ? "This browser did not allow copying; download them instead."
            : ""}
      </p>
    </>
  );
}
