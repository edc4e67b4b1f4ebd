import { members } from "@wix/members";
import { createClient, OAuthStrategy } from "@wix/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../../config";
import { DEMO_MEMBER } from "../../seed/seed";
import { openSignUp, startTestPlatform, type TestPlatform } from "../../testing";
import { CSRF_HEADER } from "../access";

let platform: TestPlatform;
let csrf: string;
beforeAll(async () => {
  platform = await startTestPlatform();
  const page = await platform.app.inject({ url: "/_local/studio/members" });
  csrf = /<meta name="studio-csrf" content="([^"]+)">/.exec(page.body)![1];
});
afterAll(() => platform.close());
beforeEach(() => openSignUp(platform));

const PASSWORD = "Granite-ridge-walk-42";
let counter = 0;
const freshEmail = () => `studio-member-${Date.now()}-${++counter}@ridgeline.example`;
const strategy = () => OAuthStrategy({ clientId: LOCAL_CLIENT_ID });

const studio = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object) =>
  platform.app.inject({ method, url: `/_local/studio/api${url}`, headers: method === "GET" ? {} : { [CSRF_HEADER]: csrf }, payload });

type Listed = {
  id: string;
  loginEmail: string;
  status: string;
  privacyStatus: string;
  activityStatus: string;
  emailVerified: boolean;
  nickname: string;
  name: string | null;
};
const list = async (query = "") => (await studio("GET", `/members${query}`)).json() as { members: Listed[]; total: number };

async function signUp(nickname = "Robin") {
  const email = freshEmail();
  const result = await strategy().register({ email, password: PASSWORD, profile: { nickname, firstName: nickname, lastName: "Hill" } });
  const listed = (await list(`?search=${encodeURIComponent(email)}`)).members;
  expect(listed).toHaveLength(1);
  return { email, id: listed[0].id, state: result.loginState };
}

describe("the Studio's members", () => {
  it("lists members with their status, and finds them by e-mail or name", async () => {
    const { email } = await signUp("Wren");
    const all = await list();
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.members.find((member) => member.loginEmail === DEMO_MEMBER.email)).toMatchObject({ status: "APPROVED", name: "Dana Demo" });
    expect((await list("?search=wren")).members.map((member) => member.loginEmail)).toEqual([email]);
    expect((await list("?search=WREN%20hill")).members.map((member) => member.loginEmail)).toEqual([email]);
    expect((await list("?search=nobody-at-all")).members).toEqual([]);
    expect((await studio("GET", "/members?status=SOMETIMES")).statusCode).toBe(400);
  });

  it("leaves out a member disconnected through the members API, as Wix's dashboard does", async () => {
    const { email, id } = await signUp("Sedge");
    const before = (await list()).total;
    const disconnected = await platform.app.inject({
      method: "POST",
      url: `/members/v1/members/${id}/disconnect`,
      headers: { authorization: platform.config.apiKey },
    });
    expect(disconnected.statusCode).toBe(200);
    expect((await list(`?search=${encodeURIComponent(email)}`)).members).toEqual([]);
    expect((await list()).total).toBe(before - 1);
  });

  it("approves a pending sign-up, who can then log in; blocks and unblocks them", async () => {
    platform.ctx.settings.update({ requireOwnerApproval: true });
    const { email, id, state } = await signUp();
    expect(state).toBe("OWNER_APPROVAL_REQUIRED");
    expect((await list("?status=PENDING")).members.map((member) => member.id)).toContain(id);
    expect((await strategy().login({ email, password: PASSWORD })).loginState).toBe("OWNER_APPROVAL_REQUIRED");

    const approved = await studio("POST", `/members/${id}/approve`);
    expect(approved.json().member.status).toBe("APPROVED");
    // The sign-up form promised a mail; the Studio's mailbox shows it.
    const mailbox = await studio("GET", `/mailbox?to=${encodeURIComponent(email)}`);
    expect(mailbox.json().messages.filter((mail: { kind: string }) => mail.kind === "approved")).toHaveLength(1);
    expect((await strategy().login({ email, password: PASSWORD })).loginState).toBe("SUCCESS");

    expect((await studio("POST", `/members/${id}/block`)).json().member.status).toBe("BLOCKED");
    expect((await strategy().login({ email, password: PASSWORD })).loginState).not.toBe("SUCCESS");
    expect((await studio("POST", `/members/${id}/unblock`)).json().member.status).toBe("APPROVED");
    expect((await strategy().login({ email, password: PASSWORD })).loginState).toBe("SUCCESS");
  });

  it("opens a member with their profile, login e-mail and verification, and how many sessions are live", async () => {
    const { email, id } = await signUp("Ash");
    await strategy().login({ email, password: PASSWORD });
    const opened = await studio("GET", `/members/${id}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({
      member: { id, loginEmail: email, loginEmailVerified: false, privacyStatus: "PRIVATE", profile: { nickname: "Ash" }, contact: { firstName: "Ash" } },
    });
    expect(opened.json().liveSessions).toBe(2);
    expect(opened.json().member.profile.slug).toBeTruthy();

    const revoked = await studio("POST", `/members/${id}/revoke-sessions`);
    expect(revoked.statusCode).toBe(200);
    expect((await studio("GET", `/members/${id}`)).json().liveSessions).toBe(0);
  });

  it("shows whether a member joined the community and is muted; mutes and unmutes them as the members API does", async () => {
    const { id } = await signUp("Alder");
    const row = async () => (await list(`?search=alder`)).members[0];
    expect(await row()).toMatchObject({ id, privacyStatus: "PRIVATE", activityStatus: "ACTIVE" });

    // The member joins the community through the members API; the Studio shows it.
    const tokens = platform.ctx.tokens.issuePair({ role: "member", subjectId: id, clientId: LOCAL_CLIENT_ID });
    const member = createClient({
      modules: { members },
      auth: OAuthStrategy({
        clientId: LOCAL_CLIENT_ID,
        tokens: {
          accessToken: { value: tokens.accessToken, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
          refreshToken: { value: tokens.refreshToken, role: "member" as never },
        },
      }),
    });
    await member.members.joinCommunity();
    expect((await row()).privacyStatus).toBe("PUBLIC");

    expect((await studio("POST", `/members/${id}/mute`)).json().member.activityStatus).toBe("MUTED");
    expect(await row()).toMatchObject({ activityStatus: "MUTED", status: "APPROVED" });
    expect((await member.members.getCurrentMember({ fieldsets: ["EXTENDED"] })).member?.activityStatus).toBe("MUTED");
    expect((await studio("POST", `/members/${id}/unmute`)).json().member.activityStatus).toBe("ACTIVE");
    expect((await studio("GET", `/members/${id}`)).json().member).toMatchObject({ privacyStatus: "PUBLIC", activityStatus: "ACTIVE" });
  });

  it("sends a reset link to the mailbox; with a new password required, the old one stops working", async () => {
    const { email, id } = await signUp();
    const sent = await studio("POST", `/members/${id}/password-reset`, {});
    expect(sent.json()).toEqual({ sentTo: email });
    const [mail] = platform.ctx.outbox.list(email);
    expect(mail).toMatchObject({ kind: "password-reset", to: email });
    expect(mail.link).toContain("token=");
    expect((await strategy().login({ email, password: PASSWORD })).loginState).toBe("SUCCESS");

    await studio("POST", `/members/${id}/password-reset`, { requireNewPassword: true });
    expect(platform.ctx.outbox.list(email)).toHaveLength(2);
    expect(await strategy().login({ email, password: PASSWORD })).toMatchObject({ loginState: "FAILURE", errorCode: "resetPassword" });
  });

  it("deletes a member; unknown members are a 404, and changes need the page's CSRF token", async () => {
    const { id } = await signUp();
    const withoutToken = await platform.app.inject({ method: "DELETE", url: `/_local/studio/api/members/${id}` });
    expect(withoutToken.statusCode).toBe(403);
    expect((await studio("DELETE", `/members/${id}`)).statusCode).toBe(200);
    expect((await studio("GET", `/members/${id}`)).statusCode).toBe(404);
    expect((await studio("POST", `/members/${id}/approve`)).json().details.applicationError.code).toBe("MEMBER_NOT_FOUND");
    expect((await studio("DELETE", `/members/${id}`)).statusCode).toBe(404);
  });

  it("reads and changes the sign-up settings the platform's sign-up uses", async () => {
    expect((await studio("GET", "/members/sign-up-settings")).json()).toEqual({
      requireEmailVerification: false,
      requireOwnerApproval: false,
      requireCaptcha: false,
      rejectInvisibleCaptcha: false,
    });
    const changed = await studio("PATCH", "/members/sign-up-settings", { requireCaptcha: true });
    expect(changed.json().requireCaptcha).toBe(true);
    expect(await strategy().register({ email: freshEmail(), password: PASSWORD })).toMatchObject({ errorCode: "missingCaptchaToken" });
    expect((await studio("PATCH", "/members/sign-up-settings", { requireCaptcha: "yes" })).statusCode).toBe(400);
    expect((await studio("PATCH", "/members/sign-up-settings", { somethingElse: true })).statusCode).toBe(400);
  });
});
