import { expect, test } from "./test";
import { PROOFS_PER_SESSION } from "../platform/identity/throttle";
import { newEmail, registerAndLand, submitWithPassword } from "./two-step";

test("past the wrong passwords given for a two-step change, the account page says the wait the platform gave", async ({ page }) => {
  test.setTimeout(90_000);
  const email = newEmail();
  await registerAndLand(page, email);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  const field = twoStep.locator("form").filter({ has: page.getByRole("button", { name: "Turn on codes by e-mail", exact: true }) });
  // Wrong passwords up to the platform's limit of proofs per session, each refused at the field.
  for (let failure = 0; failure < PROOFS_PER_SESSION; failure++) {
    await submitWithPassword(page, "Turn on codes by e-mail", `not-the-password-${failure}`);
    await expect(field.getByText("That is not your password.")).toBeVisible();
    await expect(field).not.toHaveAttribute("aria-busy", "true");
  }
  // Then even the right one waits, and the field says how long: what is left of the 15 minutes.
  await submitWithPassword(page, "Turn on codes by e-mail");
  await expect(field.getByText(/^Too many attempts\. Please wait (15|14) minutes, then try again\.$/)).toBeVisible();
  await expect(twoStep).toContainText("Two-step sign-in is off");
});
