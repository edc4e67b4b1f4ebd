import { expect, test } from "./test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { ADMIN_KEY, plainSignUpInEachTest } from "./platform";
import { newEmail, STRONG_PASSWORD, submitLogin } from "./site-pages";
import { expectAccessible, noPolicyRefusals, openStudio, studioUrl } from "./studio";

plainSignUpInEachTest();

test("with owner approval switched on in the Studio, a sign-up waits; approved there, they log in; blocked and unblocked; a reset reaches the mailbox", async ({
  page,
  context,
}) => {
  const checkPolicy = await noPolicyRefusals(page);
  const email = newEmail("studio-approval");

  await openStudio(page, "/members", "Members");
  await expect(page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Members" })).toHaveAttribute("aria-current", "page");
  const approval = page.getByRole("switch", { name: "Owner approval" });
  await expect(approval).toHaveAttribute("aria-checked", "false");
  // Keyboard: the switch turns with Space.
  await approval.focus();
  await page.keyboard.press("Space");
  await expect(approval).toHaveAttribute("aria-checked", "true");
  await expect(page.getByRole("status").filter({ hasText: "Owner approval is on." })).toBeVisible();

  const site = await context.newPage();
  await site.goto(SITE_PAGES.register);
  await site.getByLabel("E-mail").fill(email);
  await site.getByLabel("Password", { exact: true }).fill(STRONG_PASSWORD);
  await site.getByLabel("First name").fill("Robin");
  await site.getByLabel("Last name").fill("Alder");
  await site.getByLabel("Nickname").fill("Robin A");
  await site.getByRole("button", { name: "Create account" }).click();
  await expect(site.getByRole("status")).toContainText("waiting for a club organiser to approve");

  await page.getByLabel("Search").fill(email);
  await expect(page).toHaveURL(studioUrl(`/members?search=${encodeURIComponent(email)}`));
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row.getByText("Pending")).toBeVisible();
  await page.getByLabel("Status").selectOption("PENDING");
  await expect(row).toBeVisible();
  await expectAccessible(page, "the Studio's members");
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Robin Alder (${email}) approved.` })).toBeVisible();
  await expect(page.getByText("No member matches.")).toBeVisible();
  await page.getByLabel("Status").selectOption("");
  await expect(row.getByText("Approved")).toBeVisible();
  // Signed up with the site's default, a public profile: in the community.
  await expect(row.getByRole("cell", { name: "Joined (public profile)" })).toBeVisible();

  await site.goto(SITE_PAGES.login);
  await submitLogin(site, email, STRONG_PASSWORD);
  await expect(site.getByTestId("member-name")).toHaveText("Robin A");

  // The member's page: block and unblock, then a reset link found in the mailbox.
  await row.getByRole("link", { name: "Robin Alder" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Robin Alder" })).toBeFocused();
  await expect(page.getByText(email).first()).toBeVisible();
  await expect(page.getByText("Not verified")).toBeVisible();
  await page.getByRole("button", { name: "Block" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${email} blocked.` })).toBeVisible();
  await expect(page.getByRole("main").getByText("Blocked", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Unblock" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${email} unblocked.` })).toBeVisible();

  // Muting: the members API's muteMember, shown on the page and undone.
  await expect(page.getByText("Joined: a public profile, listed to everyone")).toBeVisible();
  await page.getByRole("button", { name: "Mute" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${email} muted.` })).toBeVisible();
  await expect(page.getByText("Muted: may not take part in the community")).toBeVisible();
  const muted = await fetch(`${e2e.platformUrl}/members/v1/members/${page.url().split("/").pop()}?fieldsets=EXTENDED`, {
    headers: { authorization: ADMIN_KEY },
  });
  expect(((await muted.json()) as { member: { activityStatus: string } }).member.activityStatus).toBe("MUTED");
  await page.getByRole("button", { name: "Unmute" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${email} unmuted.` })).toBeVisible();
  await expect(page.getByRole("main").getByText("Active", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByText("0 live login sessions.")).toBeVisible();

  await page.getByRole("button", { name: "Send a password reset link" }).click();
  await expect(page.getByRole("status").filter({ hasText: `A reset link went to ${email}.` })).toBeVisible();
  await expectAccessible(page, "a member in the Studio");
  await page.getByRole("link", { name: "See it in the mailbox" }).click();
  await expect(page).toHaveURL(studioUrl(`/mailbox?to=${encodeURIComponent(email)}`));
  await expect(
    page
      .getByRole("listitem")
      .filter({ hasText: `To ${email}` })
      .filter({ hasText: "Reset your Ridgeline Hiking Club password" })
      .getByRole("link", { name: "Open the link in this message" }),
  ).toBeVisible();
  checkPolicy();
});

test("a member is deleted only after the page asks, and the question can be cancelled from the keyboard", async ({ page }) => {
  const email = newEmail("studio-delete");
  const created = await fetch(`${e2e.platformUrl}/members/v1/members`, {
    method: "POST",
    headers: { authorization: ADMIN_KEY, "content-type": "application/json" },
    body: JSON.stringify({ member: { loginEmail: email, profile: { nickname: "Short Stay" } } }),
  });
  expect(created.ok).toBe(true);

  await openStudio(page, `/members?search=${encodeURIComponent(email)}`, "Members");
  const row = page.getByRole("row").filter({ hasText: email });
  const remove = row.getByRole("button", { name: "Delete" });
  await remove.click();
  const question = row.getByRole("group", { name: `Delete ${email} for good?` });
  await expect(question.getByRole("button", { name: "Delete the member" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(remove).toBeFocused();

  await remove.click();
  await row.getByRole("button", { name: "Delete the member" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Short Stay (${email}) deleted.` })).toBeVisible();
  await expect(page.getByText("No member matches.")).toBeVisible();
  await expect(page.getByLabel("Search")).toBeFocused();
  if (process.env.E2E_SCREENSHOTS) {
    await page.getByLabel("Search").fill("");
    await expect(page.getByRole("row").filter({ hasText: "demo@ridgeline.example" })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: "docs/screenshots/studio-members.png", fullPage: true });
  }
});
