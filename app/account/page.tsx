import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { DeleteAccount } from "@/components/account/delete-account";
import { reportedCollections } from "@/lib/site-config";
import { ProfileForm } from "@/components/account/profile-form";
import { TwoStepSignIn, type AppSetup } from "@/components/account/two-step-sign-in";
import { AskFirst } from "@/components/account/ask-first";
import { MemberAvatar } from "@/components/member-avatar";
import { YourOutings } from "@/components/outings/your-outings";
import { ActionForm } from "@/components/forms/action-form";
import { readAsMember, requireMember } from "@/lib/auth/request-session";
import { loginPageHref } from "@/lib/auth/routes";
import type { WixClient } from "@/lib/wix/client";
import { whenAvailable } from "@/lib/wix/collections";
import { myPasskeys, myRememberedDevices, mySecondFactors } from "@/lib/wix/factors";
import { RememberedDevices } from "@/components/account/remembered-devices";
import { whoSeesProfile } from "@/lib/account/profile-words";
import { qrCodeDataUrl } from "@/lib/account/qr-code";
import { countryOptions } from "@/lib/countries";
import { currentProfile } from "@/lib/wix/members";
import { MUTED_WORDS } from "@/lib/reports/forms";
import { joinedOutings } from "@/lib/wix/signups";
import {
  changePasswordAction,
  activateAppFactorAction,
  activatePhoneFactorAction,
  cancelSetupAction,
  forgetAllDevicesAction,
  forgetDeviceAction,
  changeSlugAction,
  deleteAccountAction,
  newRecoveryCodesAction,
  addPasskeyAction,
  askFirstAction,
  passkeyOptionsAction,
  removePasskeyAction,
  startAppFactorAction,
  turnOffFactorAction,
  turnOnEmailFactorAction,
  turnOnSmsFactorAction,
  updateProfileAction,
} from "./actions";

export const metadata: Metadata = { title: "Your account" };

/** What a member writes that outlives their account unless they remove it: "trail reports". */
const reportKinds = reportedCollections.map((collection) => collection.memberReports.title.toLowerCase()).join(" and ");

function Section({ id, title, intro, children }: { id: string; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-4 border-t border-stone-200 pt-8">
      <div>
        <h2 id={id} className="font-serif text-2xl font-semibold text-pine-900">
          {title}
        </h2>
        {intro && <p className="mt-1 text-sm text-stone-600">{intro}</p>}
      </div>
      {children}
    </section>
  );
}

const TWO_STEP_INTRO =
  "After your password, each login asks for a code we send you or your authenticator app shows, or for one of your passkeys, " +
  "so a stolen password alone cannot open your account. " +
  "Each change here asks for your password.";
const REMEMBERED_DEVICES_INTRO =
  "Browsers where you ticked “Remember this device” skip the second step for 30 days. " + "A new password or a change to two-step sign-in forgets them all.";

/** Made once: a formatter costs far more to make than to use. On the server's clock, as the member's join date always was. */
const JOINED_FORMAT = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" });

export default async function AccountPage() {
  const session = await requireMember("/account");
  // If the session has ended on the platform, the login page says so and comes back here.
  const asMember = <T,>(read: (client: WixClient) => Promise<T>) => readAsMember(session, "/account", read, loginPageHref("/account"));
  const reading = asMember(currentProfile);
  // All at once: the outings need only the member's id, which the session holds (the profile's
  // only for a session whose member lookup failed at login), so the page waits on two rounds of
  // platform calls, the outings' own second read being the other.
  const [profile, { factors, recoveryCodesLeft, ways }, devices, { passkeys, userVerification }, outings] = await Promise.all([
    reading,
    asMember(() => mySecondFactors(session.accessToken)),
    asMember(() => myRememberedDevices(session.accessToken)),
    asMember(() => myPasskeys(session.accessToken)),
    whenAvailable(async () => asMember(async (client) => joinedOutings(client, session.member?.id ?? (await reading).id))),
  ]);
  const pendingApp = factors.find((factor) => factor.type === "TOTP" && factor.setup);
  const appSetup: AppSetup | null = pendingApp?.setup
    ? { factorId: pendingApp.id, secret: pendingApp.setup.secret, uri: pendingApp.setup.uri, qrCode: await qrCodeDataUrl(pendingApp.setup.uri) }
    : null;

  return (
    <div className="mx-auto max-w-2xl space-y-10 py-12">
      <header className="flex flex-wrap items-center gap-5">
        <MemberAvatar name={profile.name} photoUrl={profile.photoUrl} size={80} />
        <div className="min-w-0">
          <h1 className="font-serif text-4xl font-semibold text-pine-900">Your account</h1>
          <p className="mt-1 break-words text-stone-700">
            {profile.name}
            {profile.email && <span className="text-stone-600"> · {profile.email}</span>}
          </p>
          {profile.joinedAt && <p className="text-sm text-stone-600">Member since {JOINED_FORMAT.format(profile.joinedAt)}</p>}
        </div>
        {profile.isMuted && (
          <p data-testid="muted-notice" className="w-full rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            {MUTED_WORDS}
          </p>
        )}
      </header>

      <Section id="your-outings" title="Your outings" intro="The outings you have joined, soonest first.">
        {outings.reachable ? (
          <YourOutings outings={outings.value} />
        ) : (
          <p className="text-stone-700">Your outings cannot be shown just now. Please try again in a minute.</p>
        )}
      </Section>

      <Section id="profile" title="Profile">
        <ProfileForm
          action={updateProfileAction}
          countries={countryOptions()}
          profile={{
            nickname: profile.nickname,
            publicProfile: !profile.isPrivate,
            title: profile.title,
            firstName: profile.firstName ?? "",
            lastName: profile.lastName ?? "",
            photoUrl: profile.photoUrl?.startsWith("http") ? profile.photoUrl : "",
            emails: profile.emails,
            phones: profile.phones,
            addresses: profile.addresses,
            customFields: profile.customFields,
          }}
        />
      </Section>

      <Section
        id="profile-address"
        title="Profile address"
        intro={
          profile.slug ? (
            <>
              Your profile is at{" "}
              <Link href={`/members/${profile.slug}`} className="font-medium text-pine-700 underline underline-offset-2">
                /members/{profile.slug}
              </Link>
              . {whoSeesProfile(profile.isPrivate)}
            </>
          ) : (
            "The address of your profile."
          )
        }
      >
        <ActionForm
          kind="slug"
          replyId="slug-reply"
          action={changeSlugAction}
          defaultValue={{ slug: profile.slug }}
          fields={[{ name: "slug", label: "Profile address", hint: "Lowercase letters, digits and hyphens." }]}
          submitLabel="Change address"
          wideButton={false}
          pendingLabel="Changing…"
        />
      </Section>

      <Section id="password" title="Password">
        <ActionForm
          kind="changePassword"
          replyId="password-reply"
          action={changePasswordAction}
          fields={[
            { name: "currentPassword", label: "Current password", type: "password", autoComplete: "current-password" },
            {
              name: "newPassword",
              label: "New password",
              type: "password",
              autoComplete: "new-password",
              hint: "At least 8 characters; avoid common passwords.",
            },
            { name: "confirmPassword", label: "New password again", type: "password", autoComplete: "new-password" },
          ]}
          submitLabel="Change password"
          wideButton={false}
          pendingLabel="Changing your password…"
        />
      </Section>

      <Section id="two-step" title="Two-step sign-in" intro={TWO_STEP_INTRO}>
        <TwoStepSignIn
          factors={factors}
          passkeys={passkeys}
          passkeysCheckEveryTime={userVerification === "REQUIRED"}
          email={profile.email ?? null}
          appSetup={appSetup}
          recoveryCodesLeft={recoveryCodesLeft}
          actions={{
            turnOnEmail: turnOnEmailFactorAction,
            turnOnSms: turnOnSmsFactorAction,
            startApp: startAppFactorAction,
            activateApp: activateAppFactorAction,
            activatePhone: activatePhoneFactorAction,
            newRecoveryCodes: newRecoveryCodesAction,
            turnOff: turnOffFactorAction,
            cancelSetup: cancelSetupAction,
            passkeyOptions: passkeyOptionsAction,
            addPasskey: addPasskeyAction,
            removePasskey: removePasskeyAction,
          }}
        />
        <AskFirst email={profile.email} ways={ways} action={askFirstAction} />
      </Section>

      {(devices.length > 0 || passkeys.length > 0 || factors.some((factor) => !factor.pending)) && (
        <Section id="remembered-devices" title="Remembered devices" intro={REMEMBERED_DEVICES_INTRO}>
          <RememberedDevices devices={devices} actions={{ forget: forgetDeviceAction, forgetAll: forgetAllDevicesAction }} />
        </Section>
      )}

      <Section id="delete" title="Delete account">
        <DeleteAccount action={deleteAccountAction} reports={reportKinds || undefined} />
      </Section>
    </div>
  );
}
