import { offsetMinutes, wallClockOf, zoneName, type WallClock } from "./time";

/**
 * A one-event iCalendar file (RFC 5545) for "Add to calendar". Small enough to write here: the
 * rules that matter are CRLF line ends (§3.1), lines folded at 75 octets (§3.1), escaped text
 * (§3.3.11), and a VTIMEZONE for the TZID the start names (§3.6.5).
 */

export type CalendarEvent = {
  /** Stable across downloads, so a second import updates the entry instead of adding one. */
  uid: string;
  /** The start instant (ISO) and the zone it is shown in. */
  startsAt: string;
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

/** "-0700", "+0530". */
function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const size = Math.abs(minutes);
  return `${sign}${pad(Math.floor(size / 60))}${pad(size % 60)}`;
}

/**
 * The zone as it stands on the event's day: one observance with that day's offset. Calendars
 * know IANA zones by name; this keeps the file self-contained for those that do not, and is
 * exact for the one event the file holds.
 */
function timeZoneBlock(instant: Date, timeZone: string): string[] {
  const offset = offsetMinutes(instant, timeZone);
  const year = wallClockOf(instant, timeZone).year;
  const winter = offsetMinutes(new Date(Date.UTC(year, 0, 1)), timeZone);
  const summer = offsetMinutes(new Date(Date.UTC(year, 6, 1)), timeZone);
  const kind = winter !== summer && offset === Math.max(winter, summer) ? "DAYLIGHT" : "STANDARD";
  return [
    "BEGIN:VTIMEZONE",
    `TZID:${timeZone}`,
    `BEGIN:${kind}`,
    "DTSTART:19700101T000000",
    `TZOFFSETFROM:${utcOffset(offset)}`,
    `TZOFFSETTO:${utcOffset(offset)}`,
    `TZNAME:${escapeText(zoneName(instant, timeZone).split(" (")[0])}`,
    `END:${kind}`,
    "END:VTIMEZONE",
  ];
}

/** The whole file: CRLF after every line, the last one included. */
export function calendarFile(event: CalendarEvent): string {
  const start = new Date(event.startsAt);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Ridgeline Hiking Club//Outings//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    ...timeZoneBlock(start, event.timeZone),
    "BEGIN:VEVENT",
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${utcDateTime(event.stamp)}`,
    `DTSTART;TZID=${event.timeZone}:${localDateTime(wallClockOf(start, event.timeZone))}`,
    `SUMMARY:${escapeText(event.title)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    `URL:${event.url}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}
