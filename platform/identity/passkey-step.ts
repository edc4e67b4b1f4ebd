import { browserSupportsWebAuthn, startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";

/**
 * Browser code of the hosted page's passkey step (pages.ts `passkeySection`), bundled by
 * hosted-assets.ts. It asks the browser for the passkey with the request options the page holds,
 * puts the answer in the form's hidden field, with the page's "Remember this device" choice, and posts the form; the platform checks it. Without
 * this script the section stays hidden and the page's other ways work as forms.
 */
function run() {
  const section = document.getElementById("passkey");
  const form = document.getElementById("passkey-form");
  const message = document.getElementById("passkey-message");
  const options = document.getElementById("passkey-options");
  if (!section || !(form instanceof HTMLFormElement) || !message || !options) return;
  const button = form.querySelector("button");
  const credential = form.elements.namedItem("credential");
  const remember = form.elements.namedItem("remember");
  // The page's one "Remember this device" box, in the code page's form (pages.ts loginCodePage).
  const rememberBox = document.querySelector<HTMLInputElement>('#second-step input[name="remember"]');
  if (!button || !(credential instanceof HTMLInputElement) || !(remember instanceof HTMLInputElement)) return;
  const say = (text: string) => {
    message.textContent = text;
    message.hidden = false;
  };
  section.hidden = false;
  if (!browserSupportsWebAuthn()) {
    button.disabled = true;
    say("This browser cannot use passkeys. Use one of the other ways on this page.");
    return;
  }
  const optionsJSON = JSON.parse(options.textContent ?? "") as PublicKeyCredentialRequestOptionsJSON;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    button.disabled = true;
    message.hidden = true;
    startAuthentication({ optionsJSON }).then(
      (answer) => {
        credential.value = JSON.stringify(answer);
        remember.value = rememberBox?.checked ? "1" : "";
        form.submit();
      },
      (error: unknown) => {
        button.disabled = false;
        // Closed, timed out or refused by the person: nothing was sent, and the same challenge still works.
        const cancelled = error instanceof Error && error.name === "NotAllowedError";
        say(
          cancelled
            ? "The passkey request was closed before it finished. Try again, or use another way on this page."
            : "This browser could not use a passkey here. Try again, or use another way on this page.",
        );
      },
    );
  });
}

run();
