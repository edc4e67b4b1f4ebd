"use client";

import { ActionStateForm, SENT_FROM, replyFor } from "@/components/forms/action-form";
import { ConfirmationMessage, useNewestConfirmation } from "@/components/forms/feedback";
import { useFormReply } from "@/components/forms/form-reply";
import type { FormAction } from "@/lib/form-state";
import type { RememberedDevice } from "@/lib/wix/factors";

/** A date on the account page, as its lists show them. */
export const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** Where a post of these forms without JavaScript comes back to (each has its own action). */
const DEVICES_REPLY = "devices-reply";

/**
 * The browsers the member ticked "Remember this device" on, which skip the second step: each
 * with a way to forget it, and one to forget them all. The confirmation stands above the list,
 * as a forgotten device's form goes with it.
 */
export function RememberedDevices({ devices, actions }: { devices: RememberedDevice[]; actions: { forget: FormAction; forgetAll: FormAction } }) {
  const forget = useFormReply(actions.forget, {}, DEVICES_REPLY);
  const forgetAll = useFormReply(actions.forgetAll, {}, DEVICES_REPLY);
  const news = useNewestConfirmation([forget[0], forgetAll[0]]);
  return (
    <div className="space-y-4">
      <ConfirmationMessage news={news} replyId={DEVICES_REPLY} />
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
                  replyId={DEVICES_REPLY}
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
            replyId={DEVICES_REPLY}
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
