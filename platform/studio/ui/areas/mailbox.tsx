import { useEffect, useState } from "react";
import { useStudioData } from "../api";
import type { AreaProps } from "../area-props";
import { AreaHeading, ErrorMessage, Loading, StatusMessage } from "../components";
import { navigate, studioHref, useDebounced } from "../router";

type Mail = { id: string; to: string; subject: string; text: string; kind: string; sentAt: string; code?: string; link?: string };

/** New mail shows up without a reload while the page is open. */
const REFRESH_MS = 3000;

const sentAt = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });

function CopyCode({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary small"
      onClick={() =>
        navigator.clipboard.writeText(code).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? "Copied" : "Copy code"}
    </button>
  );
}

export function MailboxArea({ search }: AreaProps) {
  const [to, setTo] = useState(search.get("to") ?? "");
  const filter = useDebounced(to.trim(), 300);
  const mail = useStudioData<{ messages: Mail[] }>("/mailbox", { to: filter });
  const { reload } = mail;

  useEffect(() => {
    navigate(studioHref(["mailbox"], { to: filter }), { replace: true });
  }, [filter]);
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === "visible" && reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  const messages = mail.data?.messages;
  return (
    <>
      <AreaHeading>Mailbox</AreaHeading>
      <p className="muted">E-mails and text messages the local platform would have sent. Nothing leaves this machine.</p>
      <form className="toolbar" role="search" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="mailbox-to">To</label>
        <input id="mailbox-to" type="search" value={to} onChange={(event) => setTo(event.target.value)} placeholder="Address, number or part of one" />
      </form>
      <ErrorMessage error={mail.error} />
      <StatusMessage>{messages && `${messages.length === 1 ? "1 message" : `${messages.length} messages`}${filter ? ` to ${filter}` : ""}`}</StatusMessage>
      {!messages && mail.loading && <Loading what="the mailbox" />}
      {messages?.length === 0 && <p>No messages{filter ? ` to ${filter}` : ""} yet.</p>}
      <ul className="cards">
        {messages?.map((message) => (
          <li key={message.id} className="card">
            <h2>{message.subject}</h2>
            <p className="muted">
              To {message.to} · {sentAt(message.sentAt)}
            </p>
            {/* The whole message, as its reader would get it: a notice without a code or link says what to do only here. */}
            <p className="mail-text">{message.text}</p>
            {message.code && (
              <p className="code-line">
                Code: <strong className="code">{message.code}</strong> <CopyCode code={message.code} />
              </p>
            )}
            {message.link && (
              <p>
                <a href={message.link} target="_blank" rel="noopener noreferrer">
                  Open the link in this message
                </a>
              </p>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
