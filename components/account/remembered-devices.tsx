"use client";

import { useActionState } from "react";
import { ActionStateForm, SENT_FROM, replyFor } from "@/components/forms/action-form";
import { ConfirmationMessage, useNewestConfirmation } from "@/components/forms/feedback";
import type { FormAction } from "@/lib/form-state";
import type { RememberedDevice } from "@/lib/wix/factors";

/** A date on the account page, as its lists show them. */
export const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/**
 * The browsers the member ticked "Remember this device" on, which skip the second step: each
 * with a way to forget it, and one to forget them all. The confirmation stands above the list,
 * as a forgotten device's form goes with it.
 */
export function RememberedDevices({ devices, actions }: { devices: RememberedDevice[]; actions: { forget: FormAction; forgetAll: FormAction } }) {
  const forget = useActionState(actions.forget, {});
  const forgetAll = useActionState(actions.forgetAll, {});
  const news = useNewestConfirmation([forget[0], forgetAll[0]]);
  return (
    <div className="space-y-4">
      <ConfirmationMessage news={news} />
      {devices.length === 0 ? (
        <p className="text-sm text-stone-700">No device is remembered: each login asks for the second step.</p>
      ) : (
        <>
          <ul className="space-y-3">
            {devices.map((device) => (
              <li key={device.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-stone-200 p-4">
                <p className="text-sm text-stone-800">
                  <span className="font-medium">{device.name}</span>, remembered on {dateFormat.format(device.remembered)}, until{" "}
                  {dateFormat.format(device.expires)}
                </p>
                <ActionStateForm
                  kind="forgetDevice"
                  actionState={replyFor(forget, device.id)}
                  confirmationShownElsewhere
                  fields={[]}
                  hidden={{ deviceId: device.id, [SENT_FROM]: device.id }}
                  submitLabel={`Forget ${device.name}`}
                  pendingLabel="Forgetting…"
                  tone="quiet"
                  wideButton={false}
                />
              </li>
            ))}
          </ul>
          <ActionStateForm
            kind="buttonOnly"
            actionState={forgetAll}
            confirmationShownElsewhere
            fields={[]}
            submitLabel="Forget all devices"
            pendingLabel="Forgetting…"
            tone="quiet"
            wideButton={false}
          />
        </>
      )}
    </div>
  );
}
