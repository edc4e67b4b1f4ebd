import type { SubmissionResult } from "@conform-to/react";

/**
 * What a form on a server action shows after a submission: conform's result (field and form
 * errors, values to keep), a confirmation, and whether the robot check must be shown.
 */
export type FormState = { result?: SubmissionResult<string[]>; done?: string; captcha?: boolean };

export type FormAction = (state: FormState, formData: FormData) => Promise<FormState>;
