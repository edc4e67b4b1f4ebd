"use client";

import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useActionState, useEffect, useRef, useState, useTransition, type FormEvent } from "react";
import { FormFeedback, SubmitButton } from "@/components/forms/feedback";
import { ceremonyFailureMessage, passkeyCeremonies, usePasskeySupport } from "@/components/forms/passkeys";
import type { FormAction } from "@/lib/form-state";

/** Said where the passkey button would be when it cannot be: the ceremony runs in the browser's script. */
export const PASSKEY_NEEDS_SCRIPT =
  "Using a passkey needs JavaScript and a browser that supports passkeys. Without them, use one of the other ways on this page.";

/**
 * "Use a passkey" at a login's second step: the browser's passkey prompt for the login's request,
 * then its answer to the server action, with the page's "Remember this device" choice. A refused answer
 * or a cancelled prompt says so here and takes the focus; the page then holds a fresh request.
 * Without JavaScript, or in a browser without passkeys, the note stands in for the button.
 */
export function PasskeyLogin({
  options,
  action,
  wide,
  rememberFrom,
}: {
  options: PublicKeyCredentialRequestOptionsJSON;
  action: FormAction;
  wide: boolean;
  /** The id of the page's form that holds the one "Remember this device" box, read when the passkey answers. */
  rememberFrom: string;
}) {
  const supported = usePasskeySupport();
  const [state, formAction, sending] = useActionState(action, {});
  const [failure, setFailure] = useState<{ message: string } | null>(null);
  const [asking, setAsking] = useState(false);
  const [, startTransition] = useTransition();
  const summary = useRef<HTMLDivElement>(null);
  const errors = failure ? [failure.message] : (state.result?.error?.[""] ?? []);

  useEffect(() => {
    if (!failure && !state.result) return;
    const frame = requestAnimationFrame(() => {
      if (summary.current?.textContent) summary.current.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [failure, state]);

  if (!supported)
    return (
      <p className="text-sm text-stone-700">
        {supported === null ? PASSKEY_NEEDS_SCRIPT : "This browser cannot use passkeys. Use one of the other ways on this page."}
      </p>
    );

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const remember = document.forms.namedItem(rememberFrom)?.elements.namedItem("rememberDevice");
    if (remember instanceof HTMLInputElement && remember.checked) data.set("rememberDevice", "on");
    setFailure(null);
    setAsking(true);
    try {
      const { startAuthentication } = await passkeyCeremonies();
      const credential = await startAuthentication({ optionsJSON: options });
      data.set("credential", JSON.stringify(credential));
      startTransition(() => formAction(data));
    } catch (error) {
      setFailure({ message: ceremonyFailureMessage(error, false) });
    } finally {
      setAsking(false);
    }
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-busy={asking || sending}>
      <FormFeedback summary={summary} errors={errors} errorId="passkey-error" />
      <SubmitButton pending={asking || sending} pendingLabel="Waiting for your passkey…" wide={wide}>
        Use a passkey
      </SubmitButton>
    </form>
  );
}
