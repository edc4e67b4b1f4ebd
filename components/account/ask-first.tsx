import { cookies } from "next/headers";
import { ActionForm } from "@/components/forms/action-form";
import { ASK_FIRST_WORDS, type AskFirstWay } from "@/lib/auth/ask-first";
import { askFirstChoice } from "@/lib/auth/ask-first-store";
import type { FormAction } from "@/lib/form-state";

/** A choice's label: the way's words with a capital. */
const label = (way: AskFirstWay) => ASK_FIRST_WORDS[way].replace(/^./, (first) => first.toUpperCase());

/**
 * "Ask first for" (lib/auth/ask-first.ts): this browser's choice of the way the member's logins lead
 * with, among the ways they have on (`ways`, oldest first); for a member with two or more.
 */
export async function AskFirst({ email, ways, action }: { email: string | undefined; ways: AskFirstWay[]; action: FormAction }) {
  if (ways.length < 2) return null;
  const chosen = email ? await askFirstChoice(await cookies(), email) : undefined;
  return (
    <div className="space-y-3 border-t border-stone-200 pt-6">
      <h3 className="font-semibold text-pine-900">Which way logins ask first</h3>
      <p className="text-sm text-stone-700">
        Logins ask first for the way you turned on first. On this browser, the login page can lead with another of your ways instead; a code by e-mail or text
        message still goes by the way the login asks first.
      </p>
      <ActionForm
        kind="askFirst"
        action={action}
        replyId="ask-first-reply"
        defaultValue={{ askFirst: chosen && ways.includes(chosen) ? chosen : "" }}
        fields={[
          {
            name: "askFirst",
            label: "Ask first for",
            type: "select",
            placeholder: `Whichever the login offers first (${ASK_FIRST_WORDS[ways[0]]})`,
            options: ways.map((way) => ({ value: way, label: label(way) })),
            optional: true,
          },
        ]}
        submitLabel="Save for this browser"
        pendingLabel="Saving…"
        wideButton={false}
      />
    </div>
  );
}
