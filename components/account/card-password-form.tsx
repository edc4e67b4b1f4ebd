import type { ComponentProps } from "react";
import { ActionStateForm, SENT_FROM, replyFor, type ActionState } from "@/components/forms/action-form";
import { Disclosure } from "@/components/forms/disclosure";
import { showsReply } from "@/components/forms/form-reply";
import { PASSWORD_FIELD } from "./password-field";

type FormProps = ComponentProps<typeof ActionStateForm>;

/**
 * A form of one card of a list (a factor's, a passkey's), folded under `summary` and confirmed with
 * the password. The forms of all the cards share one reply, of which this card's is picked
 * (`replyFor`), and their confirmation stands above the list; a refusal keeps the fold open.
 */
export function CardPasswordForm({
  card,
  idField,
  summary,
  actionState,
  ...form
}: Pick<FormProps, "kind" | "replyId" | "submitLabel" | "pendingLabel" | "tone"> & {
  /** The card's id, sent as `idField` (what the action acts on) and as the card the reply goes back to. */
  card: string;
  idField: string;
  summary: string;
  actionState: ActionState;
}) {
  const reply = replyFor(actionState, card);
  return (
    <Disclosure summary={summary} open={showsReply(reply[0], false)}>
      <ActionStateForm
        {...form}
        actionState={reply}
        confirmationShownElsewhere
        fields={[PASSWORD_FIELD]}
        hidden={{ [idField]: card, [SENT_FROM]: card }}
        wideButton={false}
      />
    </Disclosure>
  );
}
