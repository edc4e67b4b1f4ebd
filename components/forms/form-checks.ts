import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import {
  appFactorCodeSchema,
  askFirstSchema,
  cancelSetupSchema,
  changePasswordSchema,
  deleteAccountSchema,
  forgetDeviceSchema,
  passkeyOptionsSchema,
  passwordProofSchema,
  profileSchema,
  removeFactorSchema,
  removePasskeySchema,
  slugSchema,
  smsFactorSchema,
} from "@/lib/account/forms";
import {
  buttonOnlySchema,
  forgotPasswordSchema,
  loginSchema,
  secondStepSchema,
  registerSchema,
  resendCodeSchema,
  sendCodeBySchema,
  verifySchema,
} from "@/lib/auth/forms";
import { deleteReportSchema, editReportSchema, newReportSchema } from "@/lib/reports/forms";

/**
 * The rules the forms check in the browser, the same schemas the server actions check again.
 * They come with zod, which no page needs to show or send a form: forms load this module once
 * the page is up (`useFormChecks`), outside the page's first-load JavaScript.
 */
const schemas = {
  login: loginSchema,
  register: registerSchema,
  verify: verifySchema,
  resendCode: resendCodeSchema,
  secondStep: secondStepSchema,
  forgotPassword: forgotPasswordSchema,
  slug: slugSchema,
  changePassword: changePasswordSchema,
  deleteAccount: deleteAccountSchema,
  buttonOnly: buttonOnlySchema,
  sendCodeBy: sendCodeBySchema,
  smsFactor: smsFactorSchema,
  removeFactor: removeFactorSchema,
  appFactorCode: appFactorCodeSchema,
  passwordProof: passwordProofSchema,
  askFirst: askFirstSchema,
  cancelSetup: cancelSetupSchema,
  forgetDevice: forgetDeviceSchema,
  passkeyOptions: passkeyOptionsSchema,
  removePasskey: removePasskeySchema,
  newReport: newReportSchema,
  editReport: editReportSchema,
  deleteReport: deleteReportSchema,
  profile: profileSchema,
};

export type FormKind = keyof typeof schemas;

export function checkForm(kind: FormKind, formData: FormData) {
  return parseWithZod(formData, { schema: schemas[kind] as z.ZodType<Record<string, unknown>> });
}
