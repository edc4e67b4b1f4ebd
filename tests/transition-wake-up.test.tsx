// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { Profiler } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ActionForm } from "@/components/forms/action-form";
import { TransitionWakeUp, WAKE_AFTER_MS, wakeStalledTransitions, wakingAfter } from "@/components/transition-wake-up";
import type { FormState } from "@/lib/form-state";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The wake-up component under a profiler: how many times it has committed an update. */
function renderWakeUp() {
  let updates = 0;
  render(
    <Profiler id="wake-up" onRender={(_id, phase) => void (phase === "update" && updates++)}>
      <TransitionWakeUp />
    </Profiler>,
  );
  return () => updates;
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** Past every delay of one series, one act() per delay: updates inside one act() are committed together. */
async function throughOneSeries() {
  let elapsed = 0;
  for (const delay of WAKE_AFTER_MS) {
    await advance(delay - elapsed);
    elapsed = delay;
  }
}

describe("waking transitions React may have lost", () => {
  it("updates the page once at each delay after a server action answered, and not before", async () => {
    const updates = renderWakeUp();
    await advance(10_000);
    expect(updates()).toBe(0);

    act(() => wakeStalledTransitions());
    let elapsed = 0;
    for (const [index, delay] of WAKE_AFTER_MS.entries()) {
      await advance(delay - elapsed - 1);
      expect(updates()).toBe(index);
      await advance(1);
      expect(updates()).toBe(index + 1);
      elapsed = delay;
    }
    await advance(60_000);
    expect(updates()).toBe(WAKE_AFTER_MS.length);
  });

  it("starts the series again for a new answer instead of adding a second one", async () => {
    const updates = renderWakeUp();
    act(() => wakeStalledTransitions());
    await advance(WAKE_AFTER_MS[0]);
    act(() => wakeStalledTransitions());
    await throughOneSeries();
    await advance(60_000);
    expect(updates()).toBe(1 + WAKE_AFTER_MS.length);
  });

  it("wakes after an action that failed as after one that answered, and passes both through unchanged", async () => {
    const updates = renderWakeUp();
    await expect(wakingAfter(async (value: number) => value * 2)(21)).resolves.toBe(42);
    await expect(wakingAfter(async () => Promise.reject(new Error("refused")))()).rejects.toThrow("refused");
    await advance(WAKE_AFTER_MS[0]);
    expect(updates()).toBe(1);
  });

  it("a form's server action sets it off when the server answers", async () => {
    const updates = renderWakeUp();
    let answer!: (state: FormState) => void;
    const action = vi.fn(() => new Promise<FormState>((resolve) => (answer = resolve)));
    render(<ActionForm kind="buttonOnly" action={action} fields={[]} submitLabel="Send" pendingLabel="Sending…" />);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await advance(WAKE_AFTER_MS.at(-1)!);
    expect(action).toHaveBeenCalledTimes(1);
    expect(updates()).toBe(0);

    await act(async () => answer({ done: "Sent." }));
    await advance(WAKE_AFTER_MS[0]);
    expect(updates()).toBe(1);
  });
});
