"use client";

import { ActionStateForm, SENT_FROM, replyFor, type ActionState } from "@/components/forms/action-form";
import { ConfirmationMessage, useNewestConfirmation } from "@/components/forms/feedback";
import { Disclosure } from "@/components/forms/disclosure";
import { showsReply, useFormReply } from "@/components/forms/form-reply";
import { focusRing } from "@/components/class-names";
import { AppActivation } from "./app-activation";
import { CardPasswordForm } from "./card-password-form";
import { PASSWORD_FIELD } from "./password-field";
import type { FormAction } from "@/lib/form-state";
import type { Passkey, SecondFactor } from "@/lib/wix/factors";
import { Passkeys } from "./passkeys";

type Actions = {
  turnOnEmail: FormAction;
  turnOnSms: FormAction;
  startApp: FormAction;
  activateApp: FormAction;
  activatePhone: FormAction;
  newRecoveryCodes: FormAction;
  turnOff: FormAction;
  cancelSetup: FormAction;
  passkeyOptions: FormAction;
  addPasskey: FormAction;
  removePasskey: FormAction;
};

/**
 * An authenticator app being set up: its factor, the secret to type in, its otpauth:// link (for an app on this device), and
 * the QR code of that link (a data URL drawn on the server).
 */
export type AppSetup = { factorId: string; secret: string; uri: string; qrCode: string };

/** Where a post of any of the section's forms without JavaScript comes back to: the confirmation, or the form that refused. */
const TWO_STEP_REPLY = "two-step-reply";
const RECOVERY_CODES_REPLY = "recovery-codes-reply";

const DESCRIPTIONS: Record<SecondFactor["type"], { on: (factor: SecondFactor, email: string | null) => string; off: string }> = {
  EMAIL: { on: (_factor, email) => `Codes by e-mail${email ? ` to ${email}` : ""}`, off: "Turn off e-mail codes" },
  SMS: { on: (factor) => `Codes by text message to ${factor.phone ?? "your phone"}`, off: "Turn off text-message codes" },
  TOTP: { on: () => "Codes from an authenticator app", off: "Turn off the authenticator app" },
};

/**
 * The account page's two-step sign-in: the factors that are on, each with a way to turn it off, and
 * forms for those that are not. A form goes as soon as its change is made (turned on, its factor
 * is listed instead), so the replies are kept here and the confirmation stands above the list,
 * taking the focus, and a post without JavaScript comes back to it (or to the form that refused).
 * The app's first code is one of them, so its confirmation replaces "Scan the QR code…".
 */
export function TwoStepSignIn({
  factors,
  passkeys,
  passkeysCheckEveryTime,
  email,
  appSetup,
  recoveryCodesLeft,
  actions,
}: {
  factors: SecondFactor[];
  passkeys: Passkey[];
  /** The member chose that their passkeys' logins ask for the device's own check of them (PIN, fingerprint, face) every time. */
  passkeysCheckEveryTime: boolean;
  email: string | null;
  appSetup: AppSetup | null;
  recoveryCodesLeft: number;
  actions: Actions;
}) {
  // One reply id for them all: each has its own action, so React tells their replies apart.
  const turnOnEmail = useFormReply(actions.turnOnEmail, {}, TWO_STEP_REPLY);
  const turnOnSms = useFormReply(actions.turnOnSms, {}, TWO_STEP_REPLY);
  const startApp = useFormReply(actions.startApp, {}, TWO_STEP_REPLY);
  const activateApp = useFormReply(actions.activateApp, {}, TWO_STEP_REPLY);
  const activatePhone = useFormReply(actions.activatePhone, {}, TWO_STEP_REPLY);
  const cancelSetup = useFormReply(actions.cancelSetup, {}, TWO_STEP_REPLY);
  const turnOff = useFormReply(actions.turnOff, {}, TWO_STEP_REPLY);
  // Made, the codes have a page of their own; only a refusal comes back here.
  const newRecoveryCodes = useFormReply(actions.newRecoveryCodes, {}, RECOVERY_CODES_REPLY);
  const news = useNewestConfirmation([turnOnEmail[0], turnOnSms[0], startApp[0], activateApp[0], activatePhone[0], cancelSetup[0], turnOff[0]]);
  const byType = (type: SecondFactor["type"]) => factors.find((factor) => factor.type === type);
  const enabled = factors.filter((factor) => !factor.pending);
  const pendingPhone = factors.find((factor) => factor.type === "SMS" && factor.pending);
  return (
    <div className="space-y-6">
      <ConfirmationMessage news={news} replyId={TWO_STEP_REPLY} />
      {enabled.length === 0 && passkeys.length === 0 && <p className="text-sm text-stone-700">Two-step sign-in is off: your password alone logs you in.</p>}
      {enabled.length > 0 && (
        <ul className="space-y-4">
          {enabled.map((factor) => (
            <li key={factor.id} className="space-y-2 rounded-lg border border-stone-200 p-4">
              <p className="text-sm text-stone-800">{DESCRIPTIONS[factor.type].on(factor, email)}</p>
              <CardPasswordForm
                card={factor.id}
                idField="factorId"
                summary="Turn off…"
                actionState={turnOff}
                kind="removeFactor"
                replyId={TWO_STEP_REPLY}
                submitLabel={DESCRIPTIONS[factor.type].off}
                pendingLabel="Turning off…"
              />
            </li>
          ))}
        </ul>
      )}
      {appSetup && (
        <AppActivation factorId={appSetup.factorId} actionState={activateApp} replyId={TWO_STEP_REPLY}>
          <AppSetupSteps setup={appSetup} />
        </AppActivation>
      )}
      {appSetup ? (
        <CancelSetup cancelSetup={cancelSetup} factorId={appSetup.factorId} label="Cancel setting up the app" />
      ) : (
        !byType("TOTP") && (
          <TurnOnWithPassword actionState={startApp} way="An authenticator app" submitLabel="Set up an authenticator app" pendingLabel="Starting…">
            An authenticator app (such as the one built into your phone&apos;s password manager) makes a new code every 30 seconds, with no signal needed.
          </TurnOnWithPassword>
        )
      )}
      {(recoveryCodesLeft > 0 || passkeys.length > 0 || enabled.some((factor) => factor.type === "TOTP")) && (
        <div className="space-y-2 rounded-lg border border-stone-200 p-4">
          <p className="text-sm text-stone-800">
            Recovery codes: {recoveryCodesLeft} left. Each logs you in once if you lose your phone or passkey. New ones replace them all, and need your
            password.
          </p>
          <Disclosure summary="Make new recovery codes…" open={showsReply(newRecoveryCodes[0], false)}>
            <ActionStateForm
              kind="passwordProof"
              actionState={newRecoveryCodes}
              replyId={RECOVERY_CODES_REPLY}
              fields={[PASSWORD_FIELD]}
              submitLabel="Make new recovery codes"
              pendingLabel="Making codes…"
              wideButton={false}
            />
          </Disclosure>
        </div>
      )}
      <section aria-labelledby="passkeys-heading" className="space-y-3">
        <h3 id="passkeys-heading" className="font-semibold text-pine-900">
          Passkeys
        </h3>
        <Passkeys
          passkeys={passkeys}
          checkEveryTime={passkeysCheckEveryTime}
          actions={{ options: actions.passkeyOptions, add: actions.addPasskey, remove: actions.removePasskey }}
        />
      </section>
      {!byType("EMAIL") && (
        <TurnOnWithPassword actionState={turnOnEmail} way="Codes by e-mail" submitLabel="Turn on codes by e-mail" pendingLabel="Turning on…">
          A code e-mailed to your login address{email ? ` (${email})` : ""} at each login.
        </TurnOnWithPassword>
      )}
      {pendingPhone && (
        <div className="space-y-3 rounded-lg border border-pine-700/40 bg-pine-50/40 p-4">
          <p className="text-sm text-stone-800">
            We texted a 6-digit code to {pendingPhone.phone}. Enter it to turn text-message codes on; until then logins do not use this number.
          </p>
          <ActionStateForm
            kind="appFactorCode"
            actionState={activatePhone}
            confirmationShownElsewhere
            replyId={TWO_STEP_REPLY}
            fields={[{ name: "code", label: "Code from the text message", autoComplete: "one-time-code", inputMode: "numeric" }]}
            hidden={{ factorId: pendingPhone.id }}
            submitLabel="Turn on text-message codes"
            pendingLabel="Checking the code…"
            wideButton={false}
          />
          <CancelSetup cancelSetup={cancelSetup} factorId={pendingPhone.id} label="Use another number" />
        </div>
      )}
      {!byType("SMS") && (
        <div className="space-y-2 rounded-lg border border-stone-200 p-4">
          <Disclosure summary="Codes by text message" open={showsReply(turnOnSms[0], false)}>
            <p className="text-sm text-stone-700">We text a code to the number first, to check it is yours.</p>
            <ActionStateForm
              kind="smsFactor"
              actionState={turnOnSms}
              confirmationShownElsewhere
              replyId={TWO_STEP_REPLY}
              fields={[
                { name: "phone", label: "Mobile number", type: "tel", autoComplete: "tel", hint: "In international form, like +44 7700 900123." },
                PASSWORD_FIELD,
              ]}
              submitLabel="Turn on codes by text message"
              pendingLabel="Turning on…"
              wideButton={false}
            />
          </Disclosure>
        </div>
      )}
    </div>
  );
}

/** A way not on yet, named in its disclosure, said in a line, and the form that turns it on (or starts it) with the member's password. */
function TurnOnWithPassword({
  actionState,
  way,
  submitLabel,
  pendingLabel,
  children,
}: {
  actionState: ActionState;
  way: string;
  submitLabel: string;
  pendingLabel: string;
  children: React.ReactNode;
}) {
  return (
    <div className="space-y-2 rounded-lg border border-stone-200 p-4">
      <Disclosure summary={way} open={showsReply(actionState[0], false)}>
        <p className="text-sm text-stone-700">{children}</p>
        <ActionStateForm
          kind="passwordProof"
          actionState={actionState}
          confirmationShownElsewhere
          replyId={TWO_STEP_REPLY}
          fields={[PASSWORD_FIELD]}
          submitLabel={submitLabel}
          pendingLabel={pendingLabel}
          wideButton={false}
        />
      </Disclosure>
    </div>
  );
}

/** Drops an app or a phone still waiting for its first code; the reply is this factor's only (`replyFor`). */
function CancelSetup({ cancelSetup, factorId, label }: { cancelSetup: ActionState; factorId: string; label: string }) {
  return (
    <ActionStateForm
      kind="cancelSetup"
      actionState={replyFor(cancelSetup, factorId)}
      confirmationShownElsewhere
      replyId={TWO_STEP_REPLY}
      fields={[]}
      hidden={{ factorId, [SENT_FROM]: factorId }}
      submitLabel={label}
      pendingLabel="Cancelling…"
      tone="quiet"
      wideButton={false}
    />
  );
}

/** Setting up an app: scan or type the secret, then its first code turns it on; until then logins do not ask for it. */
function AppSetupSteps({ setup }: { setup: AppSetup }) {
  return (
    <>
      <h3 className="font-semibold text-pine-900">Set up your authenticator app</h3>
      <ol className="list-decimal space-y-3 pl-5 text-sm text-stone-800">
        <li>
          <p>In your authenticator app, add an account and scan this QR code:</p>
          {/* A data URL made on the server from the app's otpauth:// link; no image service sees the secret. */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src={setup.qrCode} alt="QR code for adding this site to an authenticator app" width={192} height={192} className="mt-2 rounded bg-white" />
          <p className="mt-2">
            {/* The link stays on this device: the browser hands it to the app, no server sees it (the QR code holds the same). */}
            On this phone or computer?{" "}
            <a href={setup.uri} className={`font-medium text-pine-700 underline underline-offset-2 ${focusRing}`}>
              Add it to an authenticator app here
            </a>
            .
          </p>
          <p className="mt-2">
            Or type in this key: {/* Groups of four that never break inside: a narrow screen wraps between groups. */}
            <code className="rounded bg-stone-100 px-1 font-mono text-stone-900">
              {setup.secret.match(/.{1,4}/g)?.map((group, index) => (
                <span key={index}>
                  {index > 0 && " "}
                  <span className="whitespace-nowrap">{group}</span>
                </span>
              ))}
            </code>
          </p>
        </li>
        <li>Enter the 6-digit code the app now shows. Two-step sign-in turns on once the code is right.</li>
      </ol>
    </>
  );
}
