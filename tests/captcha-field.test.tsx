// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CaptchaField, RECAPTCHA_SCRIPT } from "@/components/auth/captcha-field";
import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";

describe("the robot check", () => {
  it("on a real Wix site, is Google's widget with the SDK's site key (rendered, never loaded in tests)", () => {
    const html = renderToStaticMarkup(<CaptchaField config={{ kind: "recaptcha", siteKey: "6Ld0J8IcAAAAANyrnxzrRlX1xrrdXsOmsepUYosy" }} />);
    expect(html).toContain('class="g-recaptcha"');
    expect(html).toContain('data-sitekey="6Ld0J8IcAAAAANyrnxzrRlX1xrrdXsOmsepUYosy"');
    expect(html).toContain(`src="${RECAPTCHA_SCRIPT}"`);
    expect(html).not.toContain("captchaToken");
  });

  it("on the local platform, is a labelled checkbox that supplies nothing until it is ticked", () => {
    const html = renderToStaticMarkup(<CaptchaField config={{ kind: "local", token: LOCAL_CAPTCHA_TOKEN }} />);
    expect(html).toContain("I am not a robot");
    expect(html).toContain('name="captchaToken" value=""');
    expect(html).not.toContain("recaptcha");
  });

  it("on the local platform, supplies the test token once ticked", () => {
    const { container } = render(
      <form>
        <CaptchaField config={{ kind: "local", token: LOCAL_CAPTCHA_TOKEN }} />
      </form>,
    );
    fireEvent.click(screen.getByLabelText("I am not a robot"));
    expect(new FormData(container.querySelector("form")!).get("captchaToken")).toBe(LOCAL_CAPTCHA_TOKEN);
  });
});
