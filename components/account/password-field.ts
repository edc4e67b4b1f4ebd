/**
 * Every change that guards the account asks for the password: the session alone is not enough.
 * A module of its own, so the account's components share it without loading the forms' rules.
 */
export const PASSWORD_FIELD = { name: "password", label: "Your password", type: "password", autoComplete: "current-password" } as const;
