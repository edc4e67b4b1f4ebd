import type { ComponentType } from "react";
import { CollectionsArea } from "./areas/collections";
import { MailboxArea } from "./areas/mailbox";
import { MembersArea } from "./areas/members";
import { SettingsArea } from "./areas/settings";
import { RequestsArea } from "./areas/requests";

/** What an area receives: the path segments after its own, and the query. */
export type AreaProps = { path: string[]; search: URLSearchParams };

export type Area = { id: string; label: string; Component: ComponentType<AreaProps> };

/** The Studio's areas in the order of its navigation; the first is its front page. */
export const AREAS: readonly Area[] = [
  { id: "collections", label: "Collections", Component: CollectionsArea },
  { id: "members", label: "Members", Component: MembersArea },
  { id: "mailbox", label: "Mailbox", Component: MailboxArea },
  { id: "requests", label: "Requests", Component: RequestsArea },
  { id: "settings", label: "Settings", Component: SettingsArea },
];
