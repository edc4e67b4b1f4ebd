import { tzlib_get_ical_block, tzlib_get_timezones } from "timezones-ical-library";
import { wallClockOf, type WallClock } from "./time";

/**
 * A one-event iCalendar file (RFC 5545) for "Add to calendar". The event is small enough to write
 * here: the rules that matter are CRLF line ends (§3.1), lines folded at 75 octets (§3.1) and
 * escaped text (§3.3.11). The VTIMEZONE the start and end name (§3.6.5), with its rules for
 * summer time, comes from timezones-ical-library, which follows the IANA database.
 */

export type CalendarEvent = {
  /** Stable across downloads, so a second import updates the entry instead of adding one. */
  uid: string;
  /** The start and end instants (ISO), and the zone they are shown in. */
  startsAt: string;
  endsAt: string;
  timeZone: string;
  title: string;
  description: string;
  location?: string;
  url: string;
  /** When the file was made (DTSTAMP). */
  stamp: Date;
};

const CRLF = "\r\n";
const MAX_OCTETS = 75;

/** TEXT values: backslash, semicolon and comma escaped, line breaks written as \n. */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/** Splits a content line into lines of at most 75 octets, each continuation starting with a space; never inside a character. */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const lines: string[] = [];
  let current = "";
  let octets = 0;
  for (const character of line) {
    const size = encoder.encode(character).length;
    if (octets + size > MAX_OCTETS) {
      lines.push(current);
      current = " ";
      octets = 1;
    }
    current += character;
    octets += size;
  }
  lines.push(current);
  return lines.join(CRLF);
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

function localDateTime(clock: WallClock): string {
  return `${pad(clock.year, 4)}${pad(clock.month)}${pad(clock.day)}T${pad(clock.hour)}${pad(clock.minute)}${pad(clock.second)}`;
}

function utcDateTime(instant: Date): string {
  return localDateTime(wallClockOf(instant, "UTC")) + "Z";
}

let zones: Set<string> | undefined;
const knownZones = () => (zones ??= new Set(tzlib_get_timezones(false)));

/**
 * The zone's VTIMEZONE, with the rules of its standard and summer time, and the TZID parameter
 * the times name it by (the library's own name for it: "Etc/UTC" for "UTC"). A zone the library
 * does not know gives neither: the times are then written in UTC.
 */
function timeZoneOf(timeZone: string): { block: string[]; tzid: string } | undefined {
  // Asked only for a zone it lists: it would complain on the console of any other.
  if (!knownZones().has(timeZone)) return undefined;
  const found = tzlib_get_ical_block(timeZone);
  if (!Array.isArray(found) || !found[0] || !found[1]) return undefined;
  return { block: found[0].split(/\r?\n/), tzid: found[1] };
}

/** The whole file: CRLF after every line, the last one included. */
export function calendarFile(event: CalendarEvent): string {
  const zone = timeZoneOf(event.timeZone);
  const time = (name: string, iso: string) =>
    zone ? `${name};${zone.tzid}:${localDateTime(wallClockOf(new Date(iso), event.timeZone))}` : `${name}:${utcDateTime(new Date(iso))}`;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Ridgeline Hiking Club//Outings//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    ...(zone?.block ?? []),
    "BEGIN:VEVENT",
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${utcDateTime(event.stamp)}`,
    time("DTSTART", event.startsAt),
    time("DTEND", event.endsAt),
    `SUMMARY:${escapeText(event.title)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    `URL:${event.url}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}
