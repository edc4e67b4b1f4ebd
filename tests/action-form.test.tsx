// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ActionForm, ActionStateForm, replyFor } from "@/components/forms/action-form";
import { ReportsFeedback, useReportForm } from "@/components/reports/reports-feedback";
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

  it("keeps a report form's reply above the list, where it stays when the refreshed list no longer has the form", async () => {
    const remove = vi.fn(async (): Promise<FormState> => ({
      result: { status: "success", initialValue: { reportId: "r1", sentFrom: "r1" } },
      done: "Your report is deleted.",
    }));
    const unused = vi.fn(async (): Promise<FormState> => ({}));
    /** A report's card: gone once the reply says it is deleted, as in the refreshed list. */
    function Card() {
      const reply = replyFor(useReportForm("remove"), "r1");
      if (reply[0].done) return null;
      return (
        <ActionStateForm
          actionState={reply}
          confirmationShownElsewhere
          kind="deleteReport"
          hidden={{ route: "trails", reportId: "r1", sentFrom: "r1" }}
          fields={[]}
          submitLabel="Yes, delete it"
          pendingLabel="Deleting…"
        />
      );
    }
    render(
      <ReportsFeedback actions={{ write: unused, edit: unused, remove }}>
        <Card />
      </ReportsFeedback>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Yes, delete it" }));
    await nextFrame();
    await nextFrame();
    expect(remove).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("button", { name: "Yes, delete it" })).toBeNull();
    expect(screen.getByRole("status").textContent).toBe("Your report is deleted.");
    expect(document.activeElement).toBe(screen.getByRole("status"));
  });
});
