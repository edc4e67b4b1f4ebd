import { LRUCache } from "lru-cache";

/**
 * An outing's times, on the clocks where it happens: its own IANA zone is data (the item's
 * time-zone field), never the server's zone or the reader's. Everything here is Intl only.
 */

/**
 * One formatter per locale and options, made on first use: making one costs twenty times what
 * using it does, and a page shows many times. Bounded, as the zone in the options is data.
 */
const formats = new LRUCache<string, Intl.DateTimeFormat>({ max: 1000 });

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

/** The zone, when the runtime knows it; undefined for anything else (times then show in UTC, saying so). */
export function knownTimeZone(zone: unknown): string | undefined {
  if (typeof zone !== "string" || zone.trim() === "" || zone.length > 64) return undefined;
  try {
    return dateFormat("en-GB", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function part(parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes): string {
  return parts.find((entry) => entry.type === type)?.value ?? "";
}

/**
 * The zone's name at that instant, as people there write it: "MST", "MDT", "GMT", "PST". Where
 * the zone has no common abbreviation ("GMT+11"), its long name follows: "GMT+11 (Australian
 * Eastern Daylight Time)".
 */
export function zoneName(instant: Date, timeZone: string): string {
  const short = part(dateFormat("en-US", { timeZone, timeZoneName: "short" }).formatToParts(instant), "timeZoneName");
  if (!/^GMT[+-]/.test(short)) return short;
  const long = part(dateFormat("en-GB", { timeZone, timeZoneName: "long" }).formatToParts(instant), "timeZoneName");
  return `${short} (${long})`;
}

const dayFormat = { weekday: "short", day: "numeric", month: "long", year: "numeric" } as const;
const compactDayFormat = { day: "numeric", month: "short", year: "numeric" } as const;

/** "Sat, 5 December 2026, 06:30 MST" (compact: "5 Dec 2026, 06:30 MST"). */
export function formatInZone(iso: string, timeZone: string, compact = false): string {
  const instant = new Date(iso);
  const day = dateFormat("en-GB", { ...(compact ? compactDayFormat : dayFormat), timeZone }).format(instant);
  return `${day}, ${clockTime(instant, timeZone)} ${zoneName(instant, timeZone)}`;
}

/** "06:30": the 24-hour wall-clock time in the zone. */
export function clockTime(instant: Date, timeZone: string): string {
  return dateFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(instant);
}

export type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The date and time an instant reads on the zone's clocks. */
export function wallClockOf(instant: Date, timeZone: string): WallClock {
  const parts = dateFormat("en-GB", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const number = (type: Intl.DateTimeFormatPartTypes) => Number(part(parts, type));
  return { year: number("year"), month: number("month"), day: number("day"), hour: number("hour"), minute: number("minute"), second: number("second") };
}

/** "2026-10-02": the calendar day an instant falls on, on the zone's clocks. */
export function dayInZone(instant: Date, timeZone: string): string {
  const { year, month, day } = wallClockOf(instant, timeZone);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
