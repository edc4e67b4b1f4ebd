"use client";

import { useState } from "react";
import type { CaptchaConfig } from "@/lib/wix/identity";

export const RECAPTCHA_SCRIPT = "https://www.google.com/recaptcha/api.js";

/**
 * The robot check, shown when the platform asked for one. Google's widget adds its own
 * `g-recaptcha-response` field to the form; the local stand-in fills `captchaToken`.
 */
export function CaptchaField({ config }: { config: CaptchaConfig }) {
  const [checked, setChecked] = useState(false);
  if (config.kind === "recaptcha") {
    return (
      <div className="space-y-2">
        <script src={RECAPTCHA_SCRIPT} async defer />
        <div className="g-recaptcha" data-sitekey={config.siteKey} />
      </div>
    );
  }
  return (
    <fieldset className="rounded-lg border border-stone-300 bg-white px-4 py-3">
      <legend className="px-1 text-sm font-medium text-stone-700">Robot check (local test widget)</legend>
      <label className="flex items-center gap-3 text-sm text-stone-800">
        <input type="checkbox" checked={checked} onChange={(event) => setChecked(event.target.checked)} className="h-5 w-5 accent-pine-700" />I am not a robot
      </label>
      <input type="hidden" name="captchaToken" value={checked ? config.token : ""} />
    </fieldset>
  );
}
