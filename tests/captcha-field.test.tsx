// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CaptchaField, RECAPTCHA_SCRIPT } from "@/components/auth/captcha-field";
import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";

const google = {
  kind: "recaptcha",
  siteKey: "6Ld0J8IcAAAAANyrnxzrRlX1xrrdXsOmsepUYosy",
  invisibleSiteKey: "6LdoPaUfAAAAAJphvHoUoOob7mx0KDlXyXlDrpSN",
} as const;
const local = { kind: "local", token: LOCAL_CAPTCHA_TOKEN } as const;
const formData = (container: HTMLElement) => new FormData(container.querySelector("form")!);

describe("the visible challenge", () => {
  it("on a real Wix site, is Google's widget with the SDK's visible site key (rendered, never loaded in tests)", () => {
    const html = renderToStaticMarkup(<CaptchaField config={google} stage="visible" />);
    expect(html).toContain('class="g-recaptcha"');
    expect(html).toContain(`data-sitekey="${google.siteKey}"`);
    expect(html).toContain(`src="${RECAPTCHA_SCRIPT}"`);
    expect(html).not.toContain(google.invisibleSiteKey);
    expect(html).not.toContain("captchaToken");
  });

  it("on the local platform, is a labelled checkbox that supplies nothing until it is ticked", () => {
    const html = renderToStaticMarkup(<CaptchaField config={local} stage="visible" />);
    expect(html).toContain("I am not a robot");
    expect(html).toContain('name="captchaToken" value=""');
    expect(html).not.toContain("recaptcha");
  });

  it("on the local platform, supplies the test token once ticked, and says it was the visible one", () => {
    const { container } = render(
      <form>
        <CaptchaField config={local} stage="visible" />
      </form>,
    );
    fireEvent.click(screen.getByLabelText("I am not a robot"));
    expect(formData(container).get("captchaToken")).toBe(LOCAL_CAPTCHA_TOKEN);
    expect(formData(container).get("captchaStage")).toBe("visible");
  });
});

describe("the invisible check", () => {
  it("on a real Wix site, is Google's invisible widget's place, with the script and no visible challenge (never loaded in tests)", () => {
    const html = renderToStaticMarkup(<CaptchaField config={google} stage="invisible" />);
    expect(html).toContain(`src="${RECAPTCHA_SCRIPT}"`);
    expect(html).toContain('name="invisibleCaptchaToken" value=""');
    expect(html).not.toContain('class="g-recaptcha"');
  });

  it("asks nothing of the person: the local stand-in answers once the page's script runs, and not before", () => {
    const html = renderToStaticMarkup(<CaptchaField config={local} stage="invisible" />);
    expect(html).toContain('name="invisibleCaptchaToken" value=""');
    expect(html).not.toContain("checkbox");
    const { container } = render(
      <form>
        <CaptchaField config={local} stage="invisible" />
      </form>,
    );
    expect([formData(container).get("captchaStage"), formData(container).get("invisibleCaptchaToken")]).toEqual(["invisible", LOCAL_CAPTCHA_TOKEN]);
  });
});
