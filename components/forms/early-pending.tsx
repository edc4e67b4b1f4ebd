import { headers } from "next/headers";

/**
 * Before the page's script has started, a form on a server action posts natively, and on a slow
 * phone nothing on the page said so for seconds while the post was on its way. This listener,
 * inline at the top of the body so it runs before anything can be pressed, marks a form whose
 * submit button names its pending words (`data-pending-label`, SubmitButton) as sending; the CSS
 * in app/globals.css then shows those words and keeps the button from a second press. Once React
 * runs, it takes the submit itself (the event is then prevented) and shows its own pending state.
 * Nothing React renders is changed, so hydration finds the page as sent.
 */
const SCRIPT =
  'addEventListener("submit",function(e){var f=e.target,b=e.submitter;' +
  'if(e.defaultPrevented||!b||!b.hasAttribute("data-pending-label"))return;' +
  'if(f.hasAttribute("data-submitting")){e.preventDefault();return}' +
  'f.setAttribute("data-submitting","")})';

/** The request's nonce, when its policy has one: pages kept by the page cache have none, their policy lists the hash of each inline script instead. */
async function requestNonce(): Promise<string | undefined> {
  return (await headers()).get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
}

export async function EarlyPending() {
  return <script nonce={await requestNonce()} dangerouslySetInnerHTML={{ __html: SCRIPT }} />;
}
