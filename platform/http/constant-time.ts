import { createHash, timingSafeEqual } from "node:crypto";

/** Whether two secrets are equal, in time that tells nothing about them; hashing first makes the lengths equal. */
export function equalSecrets(candidate: string, secret: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(candidate), digest(secret));
}
