"use client";

import { useActionState } from "react";
import { ActionForm, ActionStateForm, SENT_FROM, replyFor, type ActionState } from "@/components/forms/action-form";
import { ConfirmationMessage, useNewestConfirmation } from "@/components/forms/feedback";
import { AppActivation } from "./app-activation";
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

/** An authenticator app being set up: its factor, the secret to type in, and the QR code (a data URL drawn on the server). */
export type AppSetup = { factorId: string; secret: string; qrCode: string };

const DESCRIPTIONS: Record<SecondFactor["type"], { on: (factor: SecondFactor, email: string | null) => string; off: string }> = {
  EMAIL: { on: (_factor, email) => `Codes by e-mail${email ? ` to ${email}` : ""}`, off: "Turn off e-mail codes" },
  SMS: { on: (factor) => `Codes by text message to ${factor.phone ?? "your phone"}`, off: "Turn off text-message codes" },
  TOTP: { on: () => "Codes from an authenticator app", off: "Turn off the authenticator app" },
};

/**
 * The account page's two-step sign-in: the factors that are on, each with a way to turn it off, and
 * forms for those that are not. A form goes as soon as its change is made (turned on, its factor
 * is listed instead), so the replies are kept here and the confirmation stands above the list,
 * taking the focus. The app's activation keeps its own (with the recovery codes it brings).
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
  const turnOnEmail = useActionState(actions.turnOnEmail, {});
  const turnOnSms = useActionState(actions.turnOnSms, {});
  const startApp = useActionState(actions.startApp, {});
  const activatePhone = useActionState(actions.activatePhone, {});
  const cancelSetup = useActionState(actions.cancelSetup, {});
  const turnOff = useActionState(actions.turnOff, {});
  const news = useNewestConfirmation([turnOnEmail[0], turnOnSms[0], startApp[0], activatePhone[0], cancelSetup[0], turnOff[0]]);
  const byType = (type: SecondFactor["type"]) => factors.find((factor) => factor.type === type);
  const enabled = factors.filter((factor) => !factor.pending);
  const pendingPhone = factors.find((factor) => factor.type === "SMS" && factor.pending);
  return (
    <div className="space-y-6">
      <ConfirmationMessage news={news} />
      {enabled.length === 0 && passkeys.length === 0 && <p className="text-sm text-stone-700">Two-step sign-in is off: your password alone logs you in.</p>}
      {enabled.length > 0 && (
        <ul className="space-y-4">
          {enabled.map((factor) => (
            <li key={factor.id} className="space-y-2 rounded-lg border border-stone-200 p-4">
              <p className="text-sm text-stone-800">{DESCRIPTIONS[factor.type].on(factor, email)}</p>
              <ActionStateForm
                kind="removeFactor"
                actionState={replyFor(turnOff, factor.id)}
                confirmationShownElsewhere
                fields={[PASSWORD_FIELD]}
                hidden={{ factorId: factor.id, [SENT_FROM]: factor.id }}
                submitLabel={DESCRIPTIONS[factor.type].off}
                pendingLabel="Turning off…"
                wideButton={false}
              />
            </li>
          ))}
        </ul>
      )}
      {/* Always in place, so the answer that turned the app on (and its recovery codes) outlives the set-up form. */}
      <AppActivation factorId={appSetup?.factorId ?? null} action={actions.activateApp}>
        {appSetup && <AppSetupSteps setup={appSetup} />}
      </AppActivation>
      {appSetup ? (
        <CancelSetup cancelSetup={cancelSetup} factorId={appSetup.factorId} label="Cancel setting up the app" />
      ) : (
        !byType("TOTP") && (
          <TurnOnWithPassword actionState={startApp} submitLabel="Set up an authenticator app" pendingLabel="Starting…">
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
          <ActionForm
            kind="passwordProof"
            action={actions.newRecoveryCodes}
            fields={[PASSWORD_FIELD]}
            submitLabel="Make new recovery codes"
            pendingLabel="Making codes…"
            wideButton={false}
          />
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
        <TurnOnWithPassword actionState={turnOnEmail} submitLabel="Turn on codes by e-mail" pendingLabel="Turning on…">
          Codes by e-mail, to your login address.
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
          <p className="text-sm text-stone-700">Codes by text message. We text a code to the number first, to check it is yours.</p>
          <ActionStateForm
            kind="smsFactor"
            actionState={turnOnSms}
            confirmationShownElsewhere
            fields={[
              { name: "phone", label: "Mobile number", type: "tel", autoComplete: "tel", hint: "In international form, like +44 7700 900123." },
              PASSWORD_FIELD,
            ]}
            submitLabel="Turn on codes by text message"
            pendingLabel="Turning on…"
            wideButton={false}
          />
        </div>
      )}
    </div>
  );
}

/** A factor not on yet, said in a line, and the form that turns it on (or starts it) with the member's password. */
function TurnOnWithPassword({
  actionState,
  submitLabel,
  pendingLabel,
  children,
}: {
  actionState: ActionState;
  submitLabel: string;
  pendingLabel: string;
  children: React.ReactNode;
}) {
  return (
    <div className="space-y-2 rounded-lg border border-stone-200 p-4">
      <p className="text-sm text-stone-700">{children}</p>
      <ActionStateForm
        kind="passwordProof"
        actionState={actionState}
        confirmationShownElsewhere
        fields={[PASSWORD_FIELD]}
        submitLabel={submitLabel}
        pendingLabel={pendingLabel}
        wideButton={false}
      />
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
            Or type in this key:{" "}
            <code className="rounded bg-stone-100 px-1 font-mono break-all text-stone-900">{setup.secret.replace(/(.{4})(?=.)/g, "$1 ")}</code>
          </p>
        </li>
        <li>Enter the 6-digit code the app now shows. Two-step sign-in turns on once the code is right.</li>
      </ol>
    </>
  );
}
