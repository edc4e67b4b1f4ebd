import type { ComponentType } from "react";
import type { AreaProps } from "./area-props";
import { CollectionsArea } from "./areas/collections";
import { MailboxArea } from "./areas/mailbox";
import { MembersArea } from "./areas/members";
import { SettingsArea } from "./areas/settings";
import { RequestsArea } from "./areas/requests";

export type Area = { id: string; label: string; Component: ComponentType<AreaProps> };

/** The Studio's areas in the order of its navigation; the first is its front page. */
export const AREAS: readonly Area[] = [
  { id: "collections", label: "Collections", Component: CollectionsArea },
  { id: "members", label: "Members", Component: MembersArea },
  { id: "mailbox", label: "Mailbox", Component: MailboxArea },
  { id: "requests", label: "Requests", Component: RequestsArea },
  { id: "settings", label: "Settings", Component: SettingsArea },
];
