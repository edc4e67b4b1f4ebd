// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { convertDraft, draftOf, editorKind, FieldEditor, type Draft, type Field } from "./field-editors";

/** The item form's editors: which control each field type gets, what it saves, and what it refuses and where it says so. */

afterEach(cleanup);

const field = (type: string, key = "value"): Field => ({ key, displayName: "Value", type });

/** One editor as the item form holds it, with the form's check run on demand. */
function Harness({ of, stored }: { of: Field; stored?: unknown }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(of, stored));
  const [error, setError] = useState<string>();
  const converted = convertDraft(of, draft, stored);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setError("error" in converted ? converted.error : undefined);
      }}
    >
      <FieldEditor field={of} draft={draft} stored={stored} onChange={setDraft} error={error} />
      <output data-testid="saved">{"value" in converted ? (JSON.stringify(converted.value) ?? "(left out)") : "refused"}</output>
      <button type="submit">Save</button>
    </form>
  );
}

const typeInto = (label: string | RegExp, text: string) => fireEvent.change(screen.getByLabelText(label), { target: { value: text } });
const saved = () => screen.getByTestId("saved").textContent;

describe("the item form's field editors", () => {
  it("give each field type its own control", () => {
    const cases: [string, unknown, string][] = [
      ["TEXT", "x", "input:text"],
      ["RICH_TEXT", "<p>x</p>", "textarea"],
      ["NUMBER", 3, "input:text"],
      ["BOOLEAN", true, "input:checkbox"],
      ["DATE", "2024-05-01", "input:date"],
      ["DATETIME", { $date: "2024-05-01T10:00:00.000Z" }, "input:datetime-local"],
      ["TIME", "07:30", "input:time"],
      ["URL", "https://example.com", "input:url"],
      ["IMAGE", "wix:image://v1/abc/photo.jpg", "input:text"],
      ["ARRAY_STRING", ["a"], "textarea"],
      ["OBJECT", { a: 1 }, "textarea"],
    ];
    for (const [type, stored, control] of cases) {
      const { unmount } = render(<Harness of={field(type)} stored={stored} />);
      const element = screen.getByLabelText(/Value/) as HTMLInputElement;
      expect(`${element.tagName.toLowerCase()}${element.tagName === "INPUT" ? `:${element.type}` : ""}`, type).toBe(control);
      unmount();
    }
  });

  it("save numbers as numbers, dates as the platform's date values, and leave an emptied field out", () => {
    render(<Harness of={field("NUMBER")} stored={14.2} />);
    expect(saved()).toBe("14.2");
    typeInto(/Value/, "9.5");
    expect(saved()).toBe("9.5");
    typeInto(/Value/, "");
    expect(saved()).toBe("(left out)");
    cleanup();

    render(<Harness of={field("DATETIME")} stored={{ $date: "2024-05-01T10:00:00.000Z" }} />);
    expect(JSON.parse(saved()!)).toEqual({ $date: "2024-05-01T10:00:00.000Z" });
    cleanup();

    render(<Harness of={field("BOOLEAN")} stored={false} />);
    fireEvent.click(screen.getByLabelText(/Value/));
    expect(saved()).toBe("true");
  });

  it("refuse invalid JSON with a message next to the field, tied to it for screen readers", () => {
    render(<Harness of={field("ARRAY_STRING")} stored={["views"]} />);
    typeInto(/Value/, '["views", ');
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    const control = screen.getByLabelText(/Value/);
    expect(control.getAttribute("aria-invalid")).toBe("true");
    const message = document.getElementById(control.getAttribute("aria-describedby")!.split(" ").pop()!);
    expect(message?.textContent).toMatch(/^This is not valid JSON/);
    expect(control.parentElement?.contains(message!)).toBe(true);

    typeInto(/Value/, '{"not": "a list"}');
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByText(/Enter a JSON list/)).toBeTruthy();
    typeInto(/Value/, '["views", "lakes"]');
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.queryByText(/Enter a JSON list/)).toBeNull();
    expect(saved()).toBe('["views","lakes"]');
  });

  it("refuse a number, a URL and a media URI that are not one", () => {
    expect(convertDraft(field("NUMBER"), "twelve")).toEqual({ error: expect.stringMatching(/number/) });
    expect(convertDraft(field("URL"), "example dot com")).toEqual({ error: expect.stringMatching(/full address/) });
    expect(convertDraft(field("IMAGE"), "photo.jpg")).toEqual({ error: expect.stringMatching(/media URI/) });
    expect(convertDraft(field("IMAGE"), "/media/demo/ridge.jpg")).toEqual({ value: "/media/demo/ridge.jpg" });
    expect(convertDraft(field("OBJECT"), "[1]")).toEqual({ error: expect.stringMatching(/JSON object/) });
  });

  it("edit a value of another shape than its field's type as JSON, so nothing is lost", () => {
    const gallery = [{ type: "image", src: "/media/a.jpg" }];
    expect(editorKind(field("IMAGE"), gallery)).toBe("json");
    expect(convertDraft(field("IMAGE"), draftOf(field("IMAGE"), gallery), gallery)).toEqual({ value: gallery });
    expect(editorKind(field("NUMBER"), "12")).toBe("json");
  });
});
