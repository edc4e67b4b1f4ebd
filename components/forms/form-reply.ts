"use client";

import { useActionState, useEffect, type RefObject } from "react";
import type { FormState } from "@/lib/form-state";

/**
 * A form's reply, and where the page opens when it was posted without JavaScript. React posts such
 * a form to its permalink, here `#<replyId>` of the page's own address (query kept), so the
 * answering page comes back scrolled to the element that shows the reply, which carries that id
 * (only while it shows one: the id is never on two elements). Each hook on a page needs its own
 * id, or another action: React gives a posted reply to the hook with the same action and permalink.
 *
 * A browser keeps the fragment of the address it posted to across a redirect without one, so the
 * next page would open at a fragment of no meaning there: a form whose action redirects passes no
 * id (logging in), or redirects to an address with a fragment of its own (deleting the account
 * goes to `/#top`, the top of the page by the HTML standard).
 */
export function useFormReply<State>(
  action: (state: Awaited<State>, formData: FormData) => State | Promise<State>,
  initial: Awaited<State>,
  replyId: string | undefined,
) {
  return useActionState(action, initial, replyId && `#${replyId}`);
}

/**
 * Moves the focus to the reply a page opened at (`#<replyId>`, a post without JavaScript) once the
 * page's script runs: the browser scrolls to it, but leaves the focus at the top.
 */
export function useFocusWhenOpenedAt(element: RefObject<HTMLElement | null>, replyId: string | undefined) {
  useEffect(() => {
    if (replyId && window.location.hash === `#${replyId}` && element.current?.id === replyId) element.current.focus();
  }, [element, replyId]);
}

/** Whether a form shows its reply itself: errors (at its fields or above them), or its own confirmation. */
export function showsReply(state: FormState, confirmationHere = true): boolean {
  return Object.values(state.result?.error ?? {}).some((errors) => errors?.length) || Boolean(confirmationHere && (state.done || state.finished));
}
