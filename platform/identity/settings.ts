import { z } from "zod";

/**
 * The site owner's sign-up settings (docs/platform/identity.md §4). All off by default; read
 * from the environment at start and changeable while the platform runs (`PATCH /_local/settings`).
 */
export type SignupSettings = {
  /** A new member confirms their e-mail with a code before the first login. */
  requireEmailVerification: boolean;
  /** A new member waits for the site owner's approval before they can log in. */
  requireOwnerApproval: boolean;
  /** Sign-ups and logins need a captcha answer. */
  requireCaptcha: boolean;
  /**
   * Invisible captcha answers are refused, as Google refuses a low score: the stand-in for a
   * browser the invisible check does not trust, so the visible challenge must follow.
   */
  rejectInvisibleCaptcha: boolean;
};

export const settingsPatchSchema = z
  .object({ requireEmailVerification: z.boolean(), requireOwnerApproval: z.boolean(), requireCaptcha: z.boolean(), rejectInvisibleCaptcha: z.boolean() })
  .partial()
  .strict();

export class SettingsStore {
  private current: SignupSettings;
  private readonly createdDate: Date;
  private updatedDate: Date;
  private revision = 1;
  private readonly listeners: Array<(before: SignupSettings, after: SignupSettings) => void> = [];

  constructor(
    initial: SignupSettings,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.current = { ...initial };
    this.createdDate = this.updatedDate = now();
  }

  get(): SignupSettings {
    return { ...this.current };
  }

  update(patch: Partial<SignupSettings>): SignupSettings {
    const before = this.get();
    this.current = { ...this.current, ...patch };
    this.revision += 1;
    this.updatedDate = this.now();
    for (const listener of this.listeners) listener(before, this.get());
    return this.get();
  }

  /** Calls `listener` after each update, with the settings before and after it. */
  onUpdate(listener: (before: SignupSettings, after: SignupSettings) => void): void {
    this.listeners.push(listener);
  }

  /** Which version of the settings this is (counted from the platform's start) and when it began; the sign-on policy reports it. */
  version(): { revision: number; createdDate: Date; updatedDate: Date } {
    return { revision: this.revision, createdDate: this.createdDate, updatedDate: this.updatedDate };
  }
}
