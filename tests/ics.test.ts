import { describe, expect, it } from "vitest";
import { calendarFile, escapeText, foldLine, type CalendarEvent } from "@/lib/outings/ics";

/** The "Add to calendar" file against the rules of RFC 5545. */

const sunrise: CalendarEvent = {
  uid: "MembersOutings-outing-1@ridgeline",
  startsAt: "2026-12-05T13:30:00.000Z",
  endsAt: "2026-12-05T17:30:00.000Z",
  timeZone: "America/Denver",
  title: "Sunrise on the Summit",
  description: "Meeting time: 06:15 MST. Headlamps on at 5:30; coffee at the top.",
  location: "Lookout Road trailhead, Alder Springs, CO",
  url: "https://ridgeline.example/member-outings/sunrise-on-the-summit",
  stamp: new Date("2026-11-24T18:00:05.000Z"),
};

/** The file's content lines with the folding undone (§3.1). */
const unfolded = (file: string) => file.replace(/\r\n[ \t]/g, "").split("\r\n");

describe("escapeText", () => {
  it("escapes backslashes, semicolons, commas and line breaks", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
  });
});

describe("foldLine", () => {
  it("leaves a line of 75 octets alone and folds a longer one with a leading space", () => {
    const line = "X".repeat(75);
    expect(foldLine(line)).toBe(line);
    const folded = foldLine("X".repeat(160)).split("\r\n");
    expect(folded.map((part) => Buffer.byteLength(part))).toEqual([75, 75, 12]);
    expect(folded.slice(1).every((part) => part.startsWith(" "))).toBe(true);
  });

  it("counts octets, not characters, and never splits a character", () => {
    const folded = foldLine("DESCRIPTION:" + "é".repeat(60)).split("\r\n");
    for (const part of folded) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(folded.join("").replace(/ /g, "")).toBe("DESCRIPTION:" + "é".repeat(60));
    expect(folded.join("\r\n")).not.toContain("\uFFFD");
  });
});

describe("calendarFile", () => {
  const file = calendarFile(sunrise);
  const lines = unfolded(file);

  it("ends every line with CRLF and keeps lines within 75 octets", () => {
    expect(file.endsWith("\r\n")).toBe(true);
    expect(file.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of file.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it("starts and ends at the outing's local times in its zone, and defines that zone with its summer time", () => {
    expect(lines).toContain("DTSTART;TZID=America/Denver:20261205T063000");
    expect(lines).toContain("DTEND;TZID=America/Denver:20261205T103000");
    const zone = lines.slice(lines.indexOf("BEGIN:VTIMEZONE"), lines.indexOf("END:VTIMEZONE") + 1);
    expect(zone[1]).toBe("TZID:America/Denver");
    const observance = (kind: string) => zone.slice(zone.indexOf(`BEGIN:${kind}`), zone.indexOf(`END:${kind}`) + 1);
    // Summer time from the second Sunday in March, standard time from the first Sunday in November.
    expect(observance("DAYLIGHT")).toEqual(
      expect.arrayContaining(["TZNAME:MDT", "TZOFFSETFROM:-0700", "TZOFFSETTO:-0600", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"]),
    );
    expect(observance("STANDARD")).toEqual(
      expect.arrayContaining(["TZNAME:MST", "TZOFFSETFROM:-0600", "TZOFFSETTO:-0700", "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"]),
    );
    // The zone block comes before the event that names it.
    expect(lines.indexOf("END:VTIMEZONE")).toBeLessThan(lines.indexOf("BEGIN:VEVENT"));
  });

  it("writes a summer date in the zone's summer time", () => {
    const summer = unfolded(calendarFile({ ...sunrise, startsAt: "2027-06-05T12:30:00.000Z", endsAt: "2027-06-05T16:30:00.000Z" }));
    expect(summer).toContain("DTSTART;TZID=America/Denver:20270605T063000");
    expect(summer).toContain("DTEND;TZID=America/Denver:20270605T103000");
  });

  it("names UTC by the zone's own TZID, and writes the times in UTC for a zone it does not know", () => {
    const utc = unfolded(calendarFile({ ...sunrise, timeZone: "UTC" }));
    expect(utc).toContain("DTSTART;TZID=Etc/UTC:20261205T133000");
    expect(utc).toContain("TZID:Etc/UTC");
    const unknown = unfolded(calendarFile({ ...sunrise, timeZone: "Nowhere/Atlantis" }));
    expect(unknown).toContain("DTSTART:20261205T133000Z");
    expect(unknown).toContain("DTEND:20261205T173000Z");
    expect(unknown).not.toContain("BEGIN:VTIMEZONE");
  });

  it("carries a stable UID, a UTC DTSTAMP and the escaped text", () => {
    expect(lines).toContain("UID:MembersOutings-outing-1@ridgeline");
    expect(lines).toContain("DTSTAMP:20261124T180005Z");
    expect(lines).toContain("DESCRIPTION:Meeting time: 06:15 MST. Headlamps on at 5:30\\; coffee at the top.");
    expect(lines).toContain("LOCATION:Lookout Road trailhead\\, Alder Springs\\, CO");
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines).toContain("VERSION:2.0");
    expect(lines.filter((line) => line.startsWith("PRODID:"))).toHaveLength(1);
    expect(lines.at(-2)).toBe("END:VCALENDAR");
    expect(calendarFile(sunrise)).toBe(file);
  });

  it("folds a long description and unfolds back to it", () => {
    const description = "Bring water, a warm layer, and a headlamp; ".repeat(6).trim();
    const long = calendarFile({ ...sunrise, description });
    expect(long.split("\r\n").some((line) => line.startsWith(" "))).toBe(true);
    expect(unfolded(long)).toContain(`DESCRIPTION:${escapeText(description)}`);
  });
});
