"use client";

import { useEffect, useState } from "react";

/** The browser side of passkeys, loaded after the page's first load (it is needed only by a member who presses a passkey button). */
export const passkeyCeremonies = () => import("@simplewebauthn/browser");

/**
 * Whether this browser can run a passkey ceremony: null until the page's script has started (and
 * so always without JavaScript), then what the library finds. The library starts loading here,
 * once the page is up, so a press does not wait for it.
 */
export function usePasskeySupport(): boolean | null {
  const [supported, setSupported] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    void passkeyCeremonies().then((library) => live && setSupported(library.browserSupportsWebAuthn()));
    return () => {
      live = false;
    };
  }, []);
  return supported;
}

/**
 * What a browser ceremony that did not finish means to the member: the prompt was cancelled or
 * timed out (browsers do not tell the two apart), the device already holds a passkey for the
 * account, or anything else.
 */
export function ceremonyFailureMessage(error: unknown, adding: boolean): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") {
    return adding
      ? "The passkey was not made: the prompt was cancelled or timed out. Nothing was changed; you can try again."
      : "No passkey was used: the prompt was cancelled or timed out, or this device has no passkey for your account. Try again, or use another way below.";
  }
  if (adding && name === "InvalidStateError") return "This device already holds a passkey for your account. Nothing was changed.";
  return adding
    ? "Your browser could not make a passkey. Nothing was changed; try again, or use another device."
    : "Your browser could not use a passkey. Try again, or use another way below.";
}
