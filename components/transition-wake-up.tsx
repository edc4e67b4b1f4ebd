"use client";

import { useEffect, useState } from "react";

/**
 * The React build inside Next.js 15.5 can lose the wake-up of a transition that waited for the
 * server's streamed answer: the refreshed page after a server action arrives in full, yet is never
 * shown, and the form stays "Publishing…" until something else updates the page (React fixed
 * this after the version Next.js 15.5 ships; docs/architecture.md, "Forms that never finish").
 * Any ordinary state update wakes such a transition. So after each server action this component
 * makes a few updates of its own, spaced out; when nothing is stalled, they re-render only itself.
 */
const WAKE_EVENT = "ridgeline:wake-transitions";

/** When the updates come after an action's answer: soon, then while a slow page may still be streaming in. */
export const WAKE_AFTER_MS = [200, 1_000, 3_000, 8_000] as const;

/** Called when a server action has answered: its page refresh may still be on its way. */
export function wakeStalledTransitions(): void {
  window.dispatchEvent(new Event(WAKE_EVENT));
}

export function TransitionWakeUp() {
  const [, setWakeUps] = useState(0);
  useEffect(() => {
    let timers: ReturnType<typeof setTimeout>[] = [];
    const stop = () => timers.forEach(clearTimeout);
    const onWake = () => {
      stop();
      // A new value each time: an update to the same value would be skipped, and wake nothing.
      timers = WAKE_AFTER_MS.map((delay) => setTimeout(() => setWakeUps((count) => count + 1), delay));
    };
    window.addEventListener(WAKE_EVENT, onWake);
    return () => {
      window.removeEventListener(WAKE_EVENT, onWake);
      stop();
    };
  }, []);
  return null;
}

/** A server action that, once it has answered (or failed), wakes the page refresh React may have lost. */
export function wakingAfter<Args extends unknown[], Result>(action: (...args: Args) => Promise<Result>): (...args: Args) => Promise<Result> {
  return async (...args) => {
    try {
      return await action(...args);
    } finally {
      wakeStalledTransitions();
    }
  };
}
