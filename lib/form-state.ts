import type { SubmissionResult } from "@conform-to/react";

/**
 * The robot check a form carries once the platform asked for one: first the invisible check,
 * which asks nothing of the person; the visible challenge when that was not enough (or failed).
 */
export type CaptchaStage = "invisible" | "visible";

/**
 * What a form on a server action shows after a submission: conform's result (field and form
 * errors, values to keep), a confirmation, which robot check it must carry, and whether it is finished.
 */
export type FormState = {
  result?: SubmissionResult<string[]>;
  done?: string;
  captcha?: CaptchaStage;
  /**
   * The form's work is over (a sign-up now waiting for approval): the confirmation and this link
   * on show in place of the form, which would only invite the same submission again.
   */
  finished?: { href: string; label: string };
  /** A passkey's registration begun: what the browser's ceremony takes, and the name the member gave it. */
  ceremony?: PasskeyCeremony;
};

/** A passkey registration for the browser to finish: its challenge's id, the creation options as JSON, and the passkey's name. */
export type PasskeyCeremony = { challengeId: string; optionsJson: string; name: string };

export type FormAction = (state: FormState, formData: FormData) => Promise<FormState>;
