import commonPasswords from "fxa-common-password-list";

/** Why a password is refused, in words for the member; null when it is acceptable. */
export function weakPasswordReason(password: string): string | null {
  if (password.trim().length === 0) return "A password cannot be only spaces.";
  if ([...password].length < 8) return "Use at least 8 characters.";
  if (password.length > 256) return "Use at most 256 characters.";
  if (commonPasswords.test(password.toLowerCase())) return "This password is one of the most common ones. Choose something harder to guess.";
  return null;
}
