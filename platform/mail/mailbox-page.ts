import { escapeHtml, type PageContent } from "../identity/pages";
import type { Mail } from "./outbox";

/** The outbox as a person reads it: newest first, codes and links ready to use. */
export function mailboxPage(messages: Mail[]): PageContent {
  const items = messages.map(
    (mail) => `<li>
<p><strong>${escapeHtml(mail.subject)}</strong><br>
<span class="hint">To ${escapeHtml(mail.to)} · ${escapeHtml(new Date(mail.sentAt).toLocaleString("en-GB"))}</span></p>
${mail.code ? `<p>Code: <strong>${escapeHtml(mail.code)}</strong></p>` : ""}
${mail.link ? `<p><a href="${escapeHtml(mail.link)}">Open the link in this e-mail</a></p>` : ""}
</li>`,
  );
  return {
    title: "Mailbox",
    intro: "E-mails the local platform would have sent. Nothing leaves this machine.",
    content: `${messages.length === 0 ? "<p>No messages yet.</p>" : `<ul>${items.join("\n")}</ul>`}`,
  };
}
