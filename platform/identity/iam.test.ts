import { authentication, recovery } from "@wix/identity";
import { members } from "@wix/members";
import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";
import { LOCAL_CLIENT_ID } from "../config";
import { DEMO_MEMBER } from "../seed/seed";
import { openSignUp, startTestPlatform, type TestPlatform } from "../testing";
import { IAM_CODES } from "./iam";
import { getAuthUrl, memberSiteClient, TestBrowser } from "./test-browser";
import { FREE_FAILURES, MAX_FAILURES } from "./throttle";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());
beforeEach(() => openSignUp(platform));

const strategy = () => OAuthStrategy({ clientId: LOCAL_CLIENT_ID });
let counter = 0;
const freshEmail = () => `walker-${Date.now()}-${++counter}@Ridgeline.example`;
const PASSWORD = "Granite-ridge-walk-42";
const outbox = (to: string) => platform.ctx.outbox.list(to);

/** A session token becomes member tokens the way the site does it: prompt=none with the token, query response mode. */
async function exchange(sessionToken: string) {
  const client = memberSiteClient();
  const oauthData = client.auth.generateOAuthData(platform.callbackUrl);
  // The SDK passes the session token on though its typings leave it out.
  const options = { responseMode: "query" as const, prompt: "none" as const, sessionToken };
  const { authUrl } = await getAuthUrl(client, oauthData, options);
  const answer = await new TestBrowser().get(authUrl);
  const params = new URL(answer.location!).searchParams;
  if (!params.get("code")) return { error: params.get("error") };
  const tokens = await client.auth.getMemberTokens(params.get("code")!, params.get("state")!, oauthData);
  client.auth.setTokens(tokens);
  return { client, tokens };
}

describe("register and log in through the SDK's own-form helpers", () => {
  it("registers, answers SUCCESS with a session token that becomes member tokens, and gives the identity a member record", async () => {
    const email = freshEmail();
    const result = await strategy().register({ email, password: PASSWORD, profile: { nickname: "Robin", firstName: "Robin", lastName: "Hill" } });
    expect(result.loginState).toBe("SUCCESS");
    const { client, tokens } = await exchange((result as { data: { sessionToken: string } }).data.sessionToken);
    expect(tokens?.refreshToken.role).toBe("member");
    const { member } = await client!.members.getCurrentMember({ fieldsets: ["FULL"] });
    expect(member).toMatchObject({
      loginEmail: email.toLowerCase(),
      status: "APPROVED",
      profile: { nickname: "Robin" },
      contact: { firstName: "Robin", lastName: "Hill" },
    });
  });

  it("keeps the privacy asked for at sign-up: a public member is listed to visitors, an unasked one stays private", async () => {
    const publicEmail = freshEmail();
    const privateEmail = freshEmail();
    const visitor = createClient({ modules: { members }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    const listed = async () => ((await visitor.members.listMembers({ paging: { limit: 100 } })).members ?? []).map((member) => member.profile?.nickname);
    const asked = await strategy().register({ email: publicEmail, password: PASSWORD, profile: { nickname: "Open Walker", privacyStatus: "PUBLIC" } });
    await strategy().register({ email: privateEmail, password: PASSWORD, profile: { nickname: "Quiet Walker" } });
    expect(await listed()).toContain("Open Walker");
    expect(await listed()).not.toContain("Quiet Walker");
    const { client } = await exchange((asked as { data: { sessionToken: string } }).data.sessionToken);
    const { member } = await client!.members.getCurrentMember({ fieldsets: ["FULL"] });
    expect(member?.privacyStatus).toBe("PUBLIC");
    // A made-up status is a field violation, not a member with an unknown privacy.
    const refused = await strategy().register({ email: freshEmail(), password: PASSWORD, profile: { privacyStatus: "FRIENDS" as never } });
    expect(refused.loginState).toBe("FAILURE");
  });

  it("lists to others only members who can log in: approved, confirmed when the site asks for it, and not blocked", async () => {
    const visitor = createClient({ modules: { members }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    const admin = createClient({ modules: { members }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
    const seenBy = async (client: typeof visitor | typeof admin, nickname: string) => {
      const listed = ((await client.members.listMembers({ paging: { limit: 1000 } })).members ?? []).some((member) => member.profile?.nickname === nickname);
      const queried = (await client.members.queryMembers().eq("profile.nickname", nickname).find()).items;
      const found = queried[0]?._id ? await client.members.getMember(queried[0]._id).then(Boolean, () => false) : false;
      return { listed, queried: queried.length > 0, found };
    };
    const hidden = { listed: false, queried: false, found: false };
    const shown = { listed: true, queried: true, found: true };

    platform.ctx.settings.update({ requireOwnerApproval: true });
    const pending = freshEmail();
    const signedUp = await strategy().register({ email: pending, password: PASSWORD, profile: { nickname: "Waiting Walker", privacyStatus: "PUBLIC" } });
    expect(signedUp.loginState).toBe("OWNER_APPROVAL_REQUIRED");
    expect(await seenBy(visitor, "Waiting Walker")).toEqual(hidden);
    // The owner still sees them, to approve them.
    expect(await seenBy(admin, "Waiting Walker")).toEqual(shown);
    const id = platform.ctx.identities.findForLogin(pending)!.identity.id;
    await admin.members.approveMember(id);
    expect(await seenBy(visitor, "Waiting Walker")).toEqual(shown);
    await admin.members.blockMember(id);
    expect(await seenBy(visitor, "Waiting Walker")).toEqual(hidden);

    platform.ctx.settings.update({ requireOwnerApproval: false, requireEmailVerification: true });
    const unconfirmed = freshEmail();
    await strategy().register({ email: unconfirmed, password: PASSWORD, profile: { nickname: "Unconfirmed Walker", privacyStatus: "PUBLIC" } });
    expect(await seenBy(visitor, "Unconfirmed Walker")).toEqual(hidden);
    platform.ctx.identities.markEmailVerified(platform.ctx.identities.findForLogin(unconfirmed)!.identity.id);
    expect(await seenBy(visitor, "Unconfirmed Walker")).toEqual(shown);
  });

  it("approving a waiting sign-up mails them that they can log in; unblocking or approving again sends nothing", async () => {
    platform.ctx.settings.update({ requireOwnerApproval: true });
    const admin = createClient({ modules: { members }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
    const email = freshEmail();
    await strategy().register({ email, password: PASSWORD, profile: { nickname: "Patient Walker" } });
    const id = platform.ctx.identities.findForLogin(email)!.identity.id;
    expect(outbox(email).filter((mail) => mail.kind === "approved")).toEqual([]);
    await admin.members.approveMember(id);
    const approved = outbox(email).filter((mail) => mail.kind === "approved");
    expect(approved).toHaveLength(1);
    expect(approved[0]).toMatchObject({ subject: expect.stringContaining("You can now log in"), link: `${platform.config.siteUrl}/login` });
    expect(approved[0].text).toContain(`${platform.config.siteUrl}/login`);
    await admin.members.approveMember(id);
    await admin.members.blockMember(id);
    await admin.members.approveMember(id);
    expect(outbox(email).filter((mail) => mail.kind === "approved")).toHaveLength(1);
  });

  it("never makes a name from the e-mail address: without a nickname, the name given, else a neutral one", async () => {
    const visitor = createClient({ modules: { members }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    const bare = `private.person.${Date.now()}@ridgeline.example`;
    await strategy().register({ email: bare, password: PASSWORD, profile: { privacyStatus: "PUBLIC" } });
    const named = freshEmail();
    await strategy().register({ email: named, password: PASSWORD, profile: { firstName: "Ada", lastName: "Moss", privacyStatus: "PUBLIC" } });
    expect(platform.ctx.identities.findForLogin(bare)!.identity).toMatchObject({ nickname: "Member", slug: expect.stringMatching(/^member(-\d+)?$/) });
    expect(platform.ctx.identities.findForLogin(named)!.identity.nickname).toBe("Ada Moss");
    const everyone = JSON.stringify((await visitor.members.listMembers({ paging: { limit: 1000 } })).members);
    expect(everyone).not.toContain("private.person");
    const admin = createClient({ modules: { members }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
    const created = await admin.members.createMember({ member: { loginEmail: `made.by.owner.${Date.now()}@ridgeline.example` } });
    expect(created.profile?.nickname).toBe("Member");
  });

  it("logs in with the e-mail in any case; a wrong password, an unknown e-mail and a taken e-mail get the SDK's error names", async () => {
    expect((await strategy().login({ email: DEMO_MEMBER.email.toUpperCase(), password: DEMO_MEMBER.password })).loginState).toBe("SUCCESS");
    expect(await strategy().login({ email: DEMO_MEMBER.email, password: "wrong-password-1" })).toMatchObject({
      loginState: "FAILURE",
      errorCode: "invalidPassword",
    });
    expect(await strategy().login({ email: "nobody@ridgeline.example", password: PASSWORD })).toMatchObject({
      loginState: "FAILURE",
      errorCode: "invalidEmail",
    });
    expect(await strategy().register({ email: DEMO_MEMBER.email.toUpperCase(), password: PASSWORD })).toMatchObject({
      loginState: "FAILURE",
      errorCode: "emailAlreadyExists",
    });
  });

  it("refuses a malformed e-mail as an e-mail violation and a weak password with its reason", async () => {
    const badEmail = await strategy().register({ email: "not-an-email", password: PASSWORD });
    expect(badEmail).toMatchObject({ loginState: "FAILURE", errorCode: "invalidEmail", error: "Enter a valid e-mail address." });
    for (const [password, reason] of [
      ["short1", "at least 8"],
      ["password123", "most common"],
      ["          ", "only spaces"],
    ]) {
      const weak = await strategy().register({ email: freshEmail(), password });
      expect(weak.loginState).toBe("FAILURE");
      expect(JSON.parse((weak as { error: string }).error).details.validationError.fieldViolations[0].description).toContain(reason);
    }
  });

  it("a session token works for the exchange only while its login session lasts", async () => {
    const result = await strategy().login({ email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
    const sessionToken = (result as { data: { sessionToken: string } }).data.sessionToken;
    const session = platform.ctx.loginSessions.byToken(sessionToken)!;
    platform.ctx.loginSessions.end(session.id);
    expect(await exchange(sessionToken)).toEqual({ error: "login_required" });
  });
});

describe("e-mail verification, owner approval and captcha, as the site owner sets them", () => {
  it("asks for the e-mailed code, refuses a wrong one, and signs in with the right one", async () => {
    platform.ctx.settings.update({ requireEmailVerification: true });
    const email = freshEmail();
    const started = await strategy().register({ email, password: PASSWORD });
    expect(started.loginState).toBe("EMAIL_VERIFICATION_REQUIRED");
    const stateToken = (started as { data: { stateToken: string } }).data.stateToken;
    const [mail] = outbox(email);
    expect(mail).toMatchObject({ kind: "verification", to: email.toLowerCase(), code: expect.stringMatching(/^\d{6}$/) });

    const wrong = mail.code === "000000" ? "111111" : "000000";
    const auth = strategy();
    await expect(
      auth.processVerification({ verificationCode: wrong }, { loginState: "EMAIL_VERIFICATION_REQUIRED", data: { stateToken } } as never),
    ).rejects.toMatchObject({
      details: { applicationError: { code: "VERIFICATION_FAILED" } },
    });
    const verified = await auth.processVerification({ verificationCode: mail.code! }, {
      loginState: "EMAIL_VERIFICATION_REQUIRED",
      data: { stateToken },
    } as never);
    expect(verified.loginState).toBe("SUCCESS");
    // Verified once, the next login needs no code.
    expect((await strategy().login({ email, password: PASSWORD })).loginState).toBe("SUCCESS");
  });

  it("keeps a new member waiting for approval, then lets them in once approved through the members API", async () => {
    platform.ctx.settings.update({ requireOwnerApproval: true });
    const email = freshEmail();
    expect((await strategy().register({ email, password: PASSWORD })).loginState).toBe("OWNER_APPROVAL_REQUIRED");
    expect((await strategy().login({ email, password: PASSWORD })).loginState).toBe("OWNER_APPROVAL_REQUIRED");
    const admin = createClient({ modules: { members }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
    const id = platform.ctx.identities.findForLogin(email)!.identity.id;
    expect(platform.ctx.identities.get(id)?.status).toBe("PENDING");
    expect((await admin.members.approveMember(id)).member).toMatchObject({ status: "APPROVED" });
    expect((await strategy().login({ email, password: PASSWORD })).loginState).toBe("SUCCESS");
  });

  it("asks for a captcha answer when required and takes only the local test answer", async () => {
    platform.ctx.settings.update({ requireCaptcha: true });
    const credentials = { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password };
    expect(await strategy().login(credentials)).toMatchObject({ errorCode: "missingCaptchaToken" });
    expect(await strategy().login({ ...credentials, captchaTokens: { recaptchaToken: "robot" } })).toMatchObject({ errorCode: "invalidCaptchaToken" });
    expect((await strategy().login({ ...credentials, captchaTokens: { recaptchaToken: LOCAL_CAPTCHA_TOKEN } })).loginState).toBe("SUCCESS");
    expect((await strategy().login({ ...credentials, captchaTokens: { invisibleRecaptchaToken: LOCAL_CAPTCHA_TOKEN } })).loginState).toBe("SUCCESS");
    expect(await strategy().register({ email: freshEmail(), password: PASSWORD })).toMatchObject({ errorCode: "missingCaptchaToken" });
  });
});

describe("validateEmail", () => {
  it("answers an address's format through the real client, whoever asks", async () => {
    const client = createClient({ modules: { authentication }, auth: strategy() });
    expect(await client.authentication.validateEmail("walker@ridgeline.example")).toEqual({ valid: true, formatInvalid: false });
    expect(await client.authentication.validateEmail("not an address")).toEqual({ valid: false, formatInvalid: true });
    await expect(client.authentication.validateEmail(`${"a".repeat(250)}@example.com`)).rejects.toMatchObject({
      details: { validationError: { fieldViolations: [{ field: "email" }] } },
    });
  });
});

describe("passwords", () => {
  it("slows repeated failures for one account, then asks for a captcha with the password, never locking the owner out", async () => {
    const email = freshEmail();
    await strategy().register({ email, password: PASSWORD });
    for (let i = 0; i < FREE_FAILURES - 1; i++) await strategy().login({ email, password: "Wrong-password-9" });
    expect((await strategy().login({ email, password: PASSWORD })).loginState).toBe("SUCCESS");
    for (let i = 0; i < MAX_FAILURES; i++) await strategy().login({ email, password: "Wrong-password-9" });
    const challenged = await strategy().login({ email, password: PASSWORD });
    expect(challenged.loginState).toBe("FAILURE");
    expect(JSON.parse((challenged as { error: string }).error).details.applicationError.code).toBe("-19971");
    const wrongAnswer = await strategy().login({ email, password: PASSWORD, captchaTokens: { recaptchaToken: "guess" } });
    expect(JSON.parse((wrongAnswer as { error: string }).error).details.applicationError.code).toBe("-19970");
    const owner = await strategy().login({ email, password: PASSWORD, captchaTokens: { recaptchaToken: LOCAL_CAPTCHA_TOKEN } });
    expect(owner.loginState).toBe("SUCCESS");
  }, 30_000);

  it("changes the signed-in member's password, refusing a weak one", async () => {
    const email = freshEmail();
    const registered = await strategy().register({ email, password: PASSWORD });
    const { tokens } = await exchange((registered as { data: { sessionToken: string } }).data.sessionToken);
    const client = createClient({ modules: { authentication }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID, tokens }) });
    // The session re-checks the current password first (platform/identity/account-takeover.test.ts: never on the token alone).
    await client.authentication.loginV2({ email }, { password: PASSWORD });
    await expect(client.authentication.changePassword("password")).rejects.toMatchObject({ details: { validationError: expect.anything() } });
    await client.authentication.changePassword("Another-long-walk-7");
    expect((await strategy().login({ email, password: "Another-long-walk-7" })).loginState).toBe("SUCCESS");
    expect(await strategy().login({ email, password: PASSWORD })).toMatchObject({ errorCode: "invalidPassword" });
    const visitor = createClient({ modules: { authentication }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    await expect(visitor.authentication.changePassword("Another-long-walk-8")).rejects.toMatchObject({
      details: { applicationError: { code: "PERMISSION_DENIED" } },
    });
  });

  it("e-mails a reset link for a known address only, and the link sets a new password once, returning to the site", async () => {
    const email = freshEmail();
    await strategy().register({ email, password: PASSWORD });
    await strategy().sendPasswordResetEmail(email, `${platform.config.siteUrl}/login`);
    await strategy().sendPasswordResetEmail("nobody-here@ridgeline.example", `${platform.config.siteUrl}/login`);
    expect(outbox("nobody-here@ridgeline.example")).toEqual([]);
    const [mail] = outbox(email);
    expect(mail).toMatchObject({ kind: "password-reset", link: expect.stringContaining("/hosted/reset?token="), recoveryToken: expect.any(String) });

    const browser = new TestBrowser();
    const set = await browser.submitForm(mail.link!, { password: "Fresh-heather-path-3" });
    expect(set.status).toBe(303);
    expect(set.location).toBe(`${platform.config.siteUrl}/login?passwordReset=1`);
    expect((await strategy().login({ email, password: "Fresh-heather-path-3" })).loginState).toBe("SUCCESS");
    expect((await new TestBrowser().get(mail.link!)).status).toBe(400);
  });

  it("recover() through the API gives a blocked member no session and asks owner approval for a pending one, as a login would", async () => {
    const recover = async (status: "BLOCKED" | "PENDING") => {
      const email = freshEmail();
      await strategy().register({ email, password: PASSWORD });
      platform.ctx.identities.update(platform.ctx.identities.findForLogin(email)!.identity.id, { status });
      await strategy().sendPasswordResetEmail(email, `${platform.config.siteUrl}/login`);
      const client = createClient({ modules: { recovery }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
      return client.recovery.recover(outbox(email)[0].recoveryToken!, { password: "Moorland-route-77" });
    };
    await expect(recover("BLOCKED")).rejects.toMatchObject({ details: { applicationError: { code: IAM_CODES.blocked } } });
    const pending = await recover("PENDING");
    expect(pending.state).toBe("REQUIRE_OWNER_APPROVAL");
    expect(pending.sessionToken).toBeFalsy();
  });

  it("does not let a reset link lead away from the site, and recover() takes the token through the API", async () => {
    const email = freshEmail();
    await strategy().register({ email, password: PASSWORD });
    await strategy().sendPasswordResetEmail(email, "https://evil.example/steal");
    const resetMail = () => outbox(email).find((each) => each.kind === "password-reset")!;
    const mail = resetMail();
    const client = createClient({ modules: { recovery }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    const recovered = await client.recovery.recover(mail.recoveryToken!, { password: "Moorland-route-88" });
    expect(recovered.state).toBe("SUCCESS");
    expect(platform.ctx.recoveries.peek(mail.recoveryToken!)).toBeNull();
    // The stored return address was dropped, so the page would not have redirected anywhere.
    await strategy().sendPasswordResetEmail(email, "https://evil.example/steal");
    const browser = new TestBrowser();
    const set = await browser.submitForm(resetMail().link!, { password: "Moorland-route-99" });
    // Back to the reset page's GET, which says it is done, once.
    expect(set.location).toBe(`/hosted/reset?token=${encodeURIComponent(resetMail().recoveryToken!)}`);
    const done = await browser.follow(set);
    expect([done.status, done.location]).toEqual([200, null]);
    expect(done.text).toContain("Your password is set");
    expect((await browser.follow(set)).text).toContain("This link has expired");
  });
});
