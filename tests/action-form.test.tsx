// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ActionForm } from "@/components/forms/action-form";
import type { FormState } from "@/lib/form-state";

const fields = [
  { name: "email", label: "E-mail", type: "email" as const },
  { name: "password", label: "Password", type: "password" as const },
];

afterEach(cleanup);

const nextFrame = () => act(() => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));

describe("a form on a server action", () => {
  it("shows the server's refusal next to each bad field, keeps what was typed, and focuses the first bad field", async () => {
    const action = vi.fn(async (): Promise<FormState> => ({
      result: {
        status: "error",
        initialValue: { email: "not-an-address" },
        error: { email: ["Enter an e-mail address like name@example.com."], password: ["Enter your password."] },
      },
    }));
    render(<ActionForm kind="login" action={action} fields={fields} submitLabel="Log in" pendingLabel="Logging in…" />);
    fireEvent.change(screen.getByLabelText("E-mail"), { target: { value: "not-an-address" } });
    fireEvent.click(screen.getByRole("button", { name: "Log in" }));
    await nextFrame();
    await nextFrame();
    expect(action).toHaveBeenCalledTimes(1);
    expect(screen.getByText("Enter an e-mail address like name@example.com.")).toBeTruthy();
    expect((screen.getByLabelText("E-mail") as HTMLInputElement).value).toBe("not-an-address");
    expect(screen.getByLabelText("E-mail").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("Password").getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(screen.getByLabelText("E-mail"));
  });

  it("hands a confirmation to onDone instead of showing it, and leaves the focus alone for whoever shows it", async () => {
    const action = vi.fn(async (): Promise<FormState> => ({ result: { status: "success", initialValue: {} }, done: "Your report is deleted." }));
    const onDone = vi.fn();
    render(
      <ActionForm
        kind="deleteReport"
        action={action}
        hidden={{ route: "trails", reportId: "r1" }}
        fields={[]}
        submitLabel="Yes, delete it"
        pendingLabel="Deleting…"
        onDone={onDone}
      />,
    );
    const button = screen.getByRole("button", { name: "Yes, delete it" });
    button.focus();
    fireEvent.click(button);
    await nextFrame();
    await nextFrame();
    expect(onDone).toHaveBeenCalledWith("Your report is deleted.");
    expect(screen.queryByRole("status")).toBeNull();
    // The button is disabled while the action runs, so the focus fixup rule (jsdom as Chrome) has
    // already sent the focus to the body; the form must not take it for its empty summary.
    expect(document.activeElement).toBe(document.body);
  });
});
