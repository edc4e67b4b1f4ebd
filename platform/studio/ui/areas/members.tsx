import { useEffect, useRef, useState } from "react";
import { studioApi, useChange, useStudioData } from "../api";
import type { AreaProps } from "../area-props";
import { AreaHeading, ErrorMessage, Loading, StatusMessage, Table } from "../components";
import { ConfirmAction, Switch } from "../controls";
import { Link, navigate, studioHref, useDebounced } from "../router";

type Status = "PENDING" | "APPROVED" | "BLOCKED";
type Community = { privacyStatus: "PUBLIC" | "PRIVATE"; activityStatus: "ACTIVE" | "MUTED" };
type Listed = Community & {
  id: string;
  loginEmail: string;
  nickname: string;
  name: string | null;
  status: Status;
  emailVerified: boolean;
  createdDate: string;
};
type SignUpSettings = Record<"requireEmailVerification" | "requireOwnerApproval" | "requireCaptcha" | "rejectInvisibleCaptcha", boolean>;
type FullMember = Community & {
  id: string;
  loginEmail: string;
  loginEmailVerified: boolean;
  status: Status;
  createdDate: string;
  lastLoginDate?: string;
  profile: { nickname: string; slug: string; title?: string };
  contact: { firstName?: string; lastName?: string; emails: string[]; phones: string[] };
};

const STATUS_LABELS: Record<Status, string> = { PENDING: "Pending", APPROVED: "Approved", BLOCKED: "Blocked" };
const STATUS_BADGES: Record<Status, string> = { PENDING: "badge warn", APPROVED: "badge", BLOCKED: "badge bad" };
const SIGN_UP_SWITCHES: { key: keyof SignUpSettings; label: string; hint: string }[] = [
  { key: "requireEmailVerification", label: "E-mail verification", hint: "A new member confirms their address with a code before the first login." },
  { key: "requireOwnerApproval", label: "Owner approval", hint: "A new member waits here, pending, until you approve them." },
  { key: "requireCaptcha", label: "Captcha", hint: "Sign-ups and logins need a captcha answer." },
  {
    key: "rejectInvisibleCaptcha",
    label: "Refuse invisible captcha answers",
    hint: "As Google refuses a low score: the visible challenge must follow (with the captcha on).",
  },
];

const dateOf = (iso?: string) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "never");
const displayName = (member: { nickname: string; name: string | null }) => member.name || member.nickname;

/** The member actions both the list and a member's page offer, named for what they do. */
const STATUS_ACTIONS: { action: "approve" | "block" | "unblock"; label: string; when: Status[]; done: string }[] = [
  { action: "approve", label: "Approve", when: ["PENDING"], done: "approved" },
  { action: "block", label: "Block", when: ["PENDING", "APPROVED"], done: "blocked" },
  { action: "unblock", label: "Unblock", when: ["BLOCKED"], done: "unblocked" },
];

/** Muting, offered beside the status actions; a muted member keeps their access but may not take part. */
const ACTIVITY_ACTIONS: { action: "mute" | "unmute"; label: string; when: Community["activityStatus"]; done: string }[] = [
  { action: "mute", label: "Mute", when: "ACTIVE", done: "muted" },
  { action: "unmute", label: "Unmute", when: "MUTED", done: "unmuted" },
];

/** The status and member actions that apply to a member now. */
const actionsFor = (member: { status: Status } & Community) => [
  ...STATUS_ACTIONS.filter(({ when }) => when.includes(member.status)),
  ...ACTIVITY_ACTIONS.filter(({ when }) => when === member.activityStatus),
];

function StatusBadge({ status }: { status: Status }) {
  return <span className={STATUS_BADGES[status]}>{STATUS_LABELS[status]}</span>;
}

function MutedBadge({ member }: { member: Community }) {
  return member.activityStatus === "MUTED" ? <span className="badge warn">Muted</span> : null;
}

function SignUpSettingsPanel() {
  const settings = useStudioData<SignUpSettings>("/members/sign-up-settings");
  const { error, message: saved, busy, run } = useChange();
  const change = (key: keyof SignUpSettings, label: string, on: boolean) =>
    run(
      () => studioApi("/members/sign-up-settings", { method: "PATCH", body: { [key]: on } }),
      () => `${label} is ${on ? "on" : "off"}.`,
    ).then(settings.reload);
  return (
    <section className="panel" aria-labelledby="sign-up-heading">
      <h2 id="sign-up-heading">Sign-up</h2>
      <p className="hint">What a new member goes through. Changes apply at once and last until the platform restarts.</p>
      <ErrorMessage error={settings.error ?? error} />
      {settings.data &&
        SIGN_UP_SWITCHES.map(({ key, label, hint }) => (
          <Switch key={key} label={label} hint={hint} on={settings.data![key]} disabled={busy} onChange={(on) => change(key, label, on)} />
        ))}
      <StatusMessage>{saved}</StatusMessage>
    </section>
  );
}

/** Runs one member action against the API; the caller learns the outcome through `done` or the returned error. */
function useMemberAction(done: (message: string) => void) {
  const change = useChange();
  const run = (path: string, method: "POST" | "DELETE", message: string, body?: unknown) =>
    change.run(
      () => studioApi(path, { method, body }),
      () => {
        done(message);
        return "";
      },
    );
  return { error: change.error, busy: change.busy, run };
}

function MemberList({ search }: { search: URLSearchParams }) {
  const [text, setText] = useState(search.get("search") ?? "");
  const [status, setStatus] = useState(search.get("status") ?? "");
  const filter = useDebounced(text.trim(), 300);
  const members = useStudioData<{ members: Listed[]; total: number }>("/members", { search: filter, status });
  const [message, setMessage] = useState("");
  const focusAfter = useRef<string | null>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const { reload } = members;
  const action = useMemberAction((done) => {
    setMessage(done);
    reload();
  });

  useEffect(() => {
    navigate(studioHref(["members"], { search: filter, status }), { replace: true });
  }, [filter, status]);
  // After an action the row's buttons change: the focus goes back to the member's name, or to the search after a deletion.
  useEffect(() => {
    if (members.loading || !focusAfter.current) return;
    const target = document.getElementById(`member-${focusAfter.current}`) ?? searchBox.current;
    focusAfter.current = null;
    target?.focus();
  }, [members.loading, members.data]);

  const list = members.data?.members;
  const act = (member: Listed, path: string, method: "POST" | "DELETE", done: string) => {
    focusAfter.current = member.id;
    return action.run(path, method, `${displayName(member)} (${member.loginEmail}) ${done}.`);
  };
  return (
    <>
      <AreaHeading>Members</AreaHeading>
      <SignUpSettingsPanel />
      <form className="toolbar" role="search" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="members-search">Search</label>
        <input id="members-search" ref={searchBox} type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="E-mail or name" />
        <label htmlFor="members-status">Status</label>
        <select id="members-status" value={status} onChange={(event) => setStatus(event.target.value)}>
          <option value="">Any</option>
          <option value="PENDING">Pending</option>
          <option value="APPROVED">Approved</option>
          <option value="BLOCKED">Blocked</option>
        </select>
      </form>
      <ErrorMessage error={members.error ?? action.error} />
      <StatusMessage>
        {message || (list && `${list.length === members.data!.total ? `${list.length}` : `${list.length} of ${members.data!.total}`} members`)}
      </StatusMessage>
      {!list && members.loading && <Loading what="the members" />}
      {list?.length === 0 && <p>No member matches.</p>}
      {list && list.length > 0 && (
        <Table caption="Members" columns={["Member", "Login e-mail", "Status", "Community", "Verified", "Joined", "Actions"]}>
          {list.map((member) => (
            <tr key={member.id}>
              <td>
                <Link id={`member-${member.id}`} href={studioHref(["members", member.id])}>
                  {displayName(member)}
                </Link>
              </td>
              <td>{member.loginEmail}</td>
              <td>
                <StatusBadge status={member.status} /> <MutedBadge member={member} />
              </td>
              <td>{member.privacyStatus === "PUBLIC" ? "Joined (public profile)" : "Not joined (private profile)"}</td>
              <td>{member.emailVerified ? "Yes" : "No"}</td>
              <td>{dateOf(member.createdDate)}</td>
              <td>
                <div className="row-actions" role="group" aria-label={`Actions for ${member.loginEmail}`}>
                  {actionsFor(member).map(({ action: name, label, done }) => (
                    <button
                      key={name}
                      type="button"
                      className="secondary small"
                      disabled={action.busy}
                      onClick={() => act(member, `/members/${member.id}/${name}`, "POST", done)}
                    >
                      {label}
                    </button>
                  ))}
                  <ConfirmAction
                    label="Delete"
                    question={`Delete ${member.loginEmail} for good?`}
                    confirmLabel="Delete the member"
                    disabled={action.busy}
                    onConfirm={() => act(member, `/members/${member.id}`, "DELETE", "deleted")}
                  />
                </div>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}

function MemberPage({ id }: { id: string }) {
  const loaded = useStudioData<{ member: FullMember; liveSessions: number }>(`/members/${encodeURIComponent(id)}`);
  const [message, setMessage] = useState("");
  const [resetSentTo, setResetSentTo] = useState("");
  const [requireNewPassword, setRequireNewPassword] = useState(false);
  const { reload } = loaded;
  const action = useMemberAction((done) => {
    setMessage(done);
    reload();
  });
  const member = loaded.data?.member;
  if (!member) {
    return (
      <>
        <AreaHeading focusKey={id}>Member</AreaHeading>
        <p>
          <Link href={studioHref(["members"])}>All members</Link>
        </p>
        <ErrorMessage error={loaded.error} />
        {loaded.loading && <Loading what="the member" />}
      </>
    );
  }
  const name = [member.contact.firstName, member.contact.lastName].filter(Boolean).join(" ");
  async function sendReset() {
    if (await action.run(`/members/${id}/password-reset`, "POST", `A reset link went to ${member!.loginEmail}.`, { requireNewPassword })) {
      setResetSentTo(member!.loginEmail);
    }
  }
  async function remove() {
    if (await action.run(`/members/${id}`, "DELETE", "")) navigate(studioHref(["members"]));
  }
  return (
    <>
      <AreaHeading focusKey={id}>{name || member.profile.nickname}</AreaHeading>
      <p>
        <Link href={studioHref(["members"])}>All members</Link>
      </p>
      <ErrorMessage error={action.error} />
      <StatusMessage>{message}</StatusMessage>
      <div className="member-grid">
        <section className="panel" aria-labelledby="profile-heading">
          <h2 id="profile-heading">Profile</h2>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={member.status} /> <MutedBadge member={member} />
            </dd>
            <dt>Login e-mail</dt>
            <dd>
              {member.loginEmail} {member.loginEmailVerified ? <span className="badge">Verified</span> : <span className="badge warn">Not verified</span>}
            </dd>
            <dt>Nickname</dt>
            <dd>{member.profile.nickname}</dd>
            <dt>Name</dt>
            <dd>{name || "—"}</dd>
            <dt>Slug</dt>
            <dd>
              <code>{member.profile.slug}</code>
            </dd>
            <dt>Community</dt>
            <dd>
              {member.privacyStatus === "PUBLIC"
                ? "Joined: a public profile, listed to everyone"
                : "Not joined: a private profile, seen by the site owner and themselves"}
            </dd>
            <dt>Activity</dt>
            <dd>{member.activityStatus === "MUTED" ? "Muted: may not take part in the community" : "Active"}</dd>
            <dt>Other e-mails</dt>
            <dd>{member.contact.emails.filter((email) => email !== member.loginEmail).join(", ") || "—"}</dd>
            <dt>Phones</dt>
            <dd>{member.contact.phones.join(", ") || "—"}</dd>
            <dt>Joined</dt>
            <dd>{dateOf(member.createdDate)}</dd>
            <dt>Last login</dt>
            <dd>{dateOf(member.lastLoginDate)}</dd>
            <dt>Member id</dt>
            <dd>
              <code>{member.id}</code>
            </dd>
          </dl>
        </section>
        <div>
          <section className="panel" aria-labelledby="access-heading">
            <h2 id="access-heading">Access</h2>
            <div className="actions">
              {actionsFor(member).map(({ action: verb, label, done }) => (
                <button
                  key={verb}
                  type="button"
                  disabled={action.busy}
                  onClick={() => action.run(`/members/${id}/${verb}`, "POST", `${member.loginEmail} ${done}.`)}
                >
                  {label}
                </button>
              ))}
            </div>
          </section>
          <section className="panel" aria-labelledby="sessions-heading">
            <h2 id="sessions-heading">Sessions</h2>
            <p>{loaded.data!.liveSessions === 1 ? "1 live login session." : `${loaded.data!.liveSessions} live login sessions.`}</p>
            <button
              type="button"
              className="secondary"
              disabled={action.busy}
              onClick={() => action.run(`/members/${id}/revoke-sessions`, "POST", `${member.loginEmail} is signed out everywhere.`)}
            >
              Sign out everywhere
            </button>
          </section>
          <section className="panel" aria-labelledby="password-heading">
            <h2 id="password-heading">Password</h2>
            <p className="check">
              <input id="require-new-password" type="checkbox" checked={requireNewPassword} onChange={(event) => setRequireNewPassword(event.target.checked)} />
              <label htmlFor="require-new-password">Also stop the current password working now</label>
            </p>
            <button type="button" className="secondary" disabled={action.busy} onClick={sendReset}>
              Send a password reset link
            </button>
            {resetSentTo && (
              <p className="after-action">
                <Link href={studioHref(["mailbox"], { to: resetSentTo })}>See it in the mailbox</Link>
              </p>
            )}
          </section>
          <section className="panel" aria-labelledby="delete-heading">
            <h2 id="delete-heading">Delete</h2>
            <p className="hint">The member, their profile and every session go; their e-mail can sign up again.</p>
            <ConfirmAction label="Delete this member" question={`Delete ${member.loginEmail} for good?`} confirmLabel="Delete the member" onConfirm={remove} />
          </section>
        </div>
      </div>
    </>
  );
}

/** Members (docs/platform/studio.md §5): the list with its sign-up settings, and one member's page. */
export function MembersArea({ path, search }: AreaProps) {
  return path[0] ? <MemberPage key={path[0]} id={path[0]} /> : <MemberList search={search} />;
}
