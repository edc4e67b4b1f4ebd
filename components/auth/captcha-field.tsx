"use client";

import { useEffect, useRef, useState } from "react";
import { useScripted } from "@/components/use-scripted";
import type { CaptchaStage } from "@/lib/form-state";
import type { CaptchaConfig } from "@/lib/wix/identity";

export const RECAPTCHA_SCRIPT = "https://www.google.com/recaptcha/api.js";

/** What the invisible check uses of Google's script. */
type Grecaptcha = {
  ready(run: () => void): void;
  render(element: HTMLElement, options: { sitekey: string; size: "invisible"; callback: (token: string) => void }): number;
  execute(widget: number): void;
};

const GOOGLE_POLL_MS = 200;

/**
 * Google's invisible widget, run as soon as its script is there, with the invisible site key; its
 * answer arrives through the callback. The widget is not `.g-recaptcha`, so the script does not
 * render it as a visible one.
 */
function GoogleInvisible({ siteKey, onAnswer }: { siteKey: string; onAnswer: (token: string) => void }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let started = false;
    const start = () => {
      const grecaptcha = (window as { grecaptcha?: Grecaptcha }).grecaptcha;
      if (started || !grecaptcha?.ready || !element.current) return;
      started = true;
      grecaptcha.ready(() => {
        if (element.current) grecaptcha.execute(grecaptcha.render(element.current, { sitekey: siteKey, size: "invisible", callback: onAnswer }));
      });
    };
    start();
    const timer = setInterval(() => (started ? clearInterval(timer) : start()), GOOGLE_POLL_MS);
    return () => clearInterval(timer);
  }, [siteKey, onAnswer]);
  return <div ref={element} />;
}

/**
 * The invisible check: nothing to do for the person. The local stand-in answers once the page's
 * script runs (a browser without it sends no answer and gets the visible challenge next).
 */
function InvisibleCheck({ config }: { config: CaptchaConfig }) {
  const scripted = useScripted();
  const [googleAnswer, setGoogleAnswer] = useState("");
  const answer = config.kind === "local" ? (scripted ? config.token : "") : googleAnswer;
  return (
    <>
      <input type="hidden" name="captchaStage" value="invisible" />
      <input type="hidden" name="invisibleCaptchaToken" value={answer} />
      {config.kind === "recaptcha" && (
        <>
          <script src={RECAPTCHA_SCRIPT} async defer />
          <GoogleInvisible siteKey={config.invisibleSiteKey} onAnswer={setGoogleAnswer} />
        </>
      )}
      <p className="text-sm text-stone-600">
        {config.kind === "local" ? "Robot check (local test widget): runs in the background." : "This form is protected by reCAPTCHA."}
      </p>
    </>
  );
}

/** The visible challenge: Google's widget, which adds its own `g-recaptcha-response` field, or the local checkbox, which fills `captchaToken`. */
function VisibleCheck({ config }: { config: CaptchaConfig }) {
  const [checked, setChecked] = useState(false);
  if (config.kind === "recaptcha") {
    return (
      <div className="space-y-2">
        <input type="hidden" name="captchaStage" value="visible" />
        <script src={RECAPTCHA_SCRIPT} async defer />
        <div className="g-recaptcha" data-sitekey={config.siteKey} />
      </div>
    );
  }
  return (
    <fieldset className="rounded-lg border border-stone-300 bg-white px-4 py-3">
      <legend className="px-1 text-sm font-medium text-stone-700">Robot check (local test widget)</legend>
      <input type="hidden" name="captchaStage" value="visible" />
      <label className="flex items-center gap-3 text-sm text-stone-800">
        <input type="checkbox" checked={checked} onChange={(event) => setChecked(event.target.checked)} className="h-5 w-5 accent-pine-700" />I am not a robot
      </label>
      <input type="hidden" name="captchaToken" value={checked ? config.token : ""} />
    </fieldset>
  );
}

/**
 * The robot check, once the platform asked for one: first the invisible check (its own site key),
 * then, when that was missing or not trusted, the visible challenge.
 */
export function CaptchaField({ config, stage }: { config: CaptchaConfig; stage: CaptchaStage }) {
  return stage === "invisible" ? <InvisibleCheck config={config} /> : <VisibleCheck config={config} />;
}
