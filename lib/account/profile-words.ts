/**
 * How the site speaks of a member's profile, in one place so every page uses the same terms:
 * the "profile" is the page at /members/<address>, it is "public" or "private", and the
 * "nickname" is the name others see.
 */
export const PROFILE_WORDS = {
  nicknameHint: "Shown on your profile and next to your trail reports while your profile is public.",
  publicChoice: "Make my profile public",
  publicChoiceHint:
    "Public: anyone can see your profile (nickname, title, photo and trail reports) and the members list shows you. " +
    "Private: only you can see it, and your reports say “by a member”.",
  /** At sign-up: the name shown when no nickname is given; the platform never makes one from the e-mail address. */
  nicknameDefault: "Left empty, we show your first and last name, or “Member” if you give neither.",
  emailNeverShown: "Your e-mail address is never shown to anyone.",
  changeLater: "You can change this on your account page.",
  privateExplained: "Your profile is private, so only you can see it. Other people get “page not found” here, and your reports say “by a member”.",
} as const;

/** Who can see the member's profile, in one sentence. */
export function whoSeesProfile(isPrivate: boolean): string {
  return isPrivate ? "It is private: only you can see it." : "It is public: anyone can see it.";
}

/** The labels of an address's parts, shared by the form and its messages. */
export const ADDRESS_LABELS = {
  addressLine: "Street address",
  apt: "Apartment, suite or floor",
  city: "Town or city",
  subdivision: "County, state or province",
  postalCode: "Postal code",
  country: "Country",
} as const;
