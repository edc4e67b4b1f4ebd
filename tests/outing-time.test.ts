import { afterEach, describe, expect, it, vi } from "vitest";
import { clockTime, formatInZone, knownTimeZone, wallClockOf, zoneName } from "@/lib/outings/time";

/** Outing times on the clocks where the outing is, whatever zone the server runs in. */

describe("formatInZone", () => {
  it("shows a Colorado sunrise at 06:30 Mountain Time, not in UTC", () => {
    expect(formatInZone("2026-12-05T13:30:00.000Z", "America/Denver")).toBe("Sat, 5 December 2026, 06:30 MST");
    expect(formatInZone("2026-12-05T13:30:00.000Z", "America/Denver", true)).toBe("5 Dec 2026, 06:30 MST");
  });

  it("moves to the next day when the zone's clocks have", () => {
    expect(formatInZone("2026-12-05T23:30:00.000Z", "Australia/Sydney")).toBe("Sun, 6 December 2026, 10:30 GMT+11 (Australian Eastern Daylight Time)");
  });

  it("follows the zone across a daylight-saving change", () => {
    // Denver moved its clocks forward at 02:00 on 14 March 2027: 09:00 UTC before is 02:00 MST, after is 03:00 MDT.
    expect(formatInZone("2027-03-14T08:59:00.000Z", "America/Denver")).toBe("Sun, 14 March 2027, 01:59 MST");
    expect(formatInZone("2027-03-14T09:00:00.000Z", "America/Denver")).toBe("Sun, 14 March 2027, 03:00 MDT");
    // London in autumn: 01:30 happens twice; the zone's name tells them apart.
    expect(formatInZone("2026-10-25T00:30:00.000Z", "Europe/London")).toBe("Sun, 25 October 2026, 01:30 GMT+1 (British Summer Time)");
    expect(formatInZone("2026-10-25T01:30:00.000Z", "Europe/London")).toBe("Sun, 25 October 2026, 01:30 GMT");
  });

  it("keeps Phoenix on MST all year", () => {
    expect(clockTime(new Date("2027-07-01T22:30:00.000Z"), "America/Phoenix")).toBe("15:30");
    expect(zoneName(new Date("2027-07-01T22:30:00.000Z"), "America/Phoenix")).toBe("MST");
  });
});

describe("zoneName", () => {
  it("names the zone as it is on the outing's day", () => {
    expect(zoneName(new Date("2026-12-05T13:30:00.000Z"), "America/Denver")).toBe("MST");
    expect(zoneName(new Date("2027-06-05T12:30:00.000Z"), "America/Denver")).toBe("MDT");
    expect(zoneName(new Date("2026-12-05T13:30:00.000Z"), "UTC")).toBe("UTC");
  });
});

describe("knownTimeZone", () => {
  it("accepts IANA names and refuses anything else", () => {
    expect(knownTimeZone("America/Denver")).toBe("America/Denver");
    expect(knownTimeZone("UTC")).toBe("UTC");
    expect(knownTimeZone("Mars/Olympus_Mons")).toBeUndefined();
    expect(knownTimeZone("")).toBeUndefined();
    expect(knownTimeZone(7)).toBeUndefined();
    expect(knownTimeZone(undefined)).toBeUndefined();
  });
});

describe("wall clocks", () => {
  it("read the zone's clocks", () => {
    expect(wallClockOf(new Date("2026-12-05T13:30:00.000Z"), "America/Denver")).toEqual({ year: 2026, month: 12, day: 5, hour: 6, minute: 30, second: 0 });
    expect(wallClockOf(new Date("2027-07-05T13:30:00.000Z"), "America/Denver")).toMatchObject({ hour: 7, minute: 30 });
  });
});

describe("formatters", () => {
  afterEach(() => vi.restoreAllMocks());

  it("are made once per locale and options, not at each time shown", () => {
    formatInZone("2026-12-05T13:30:00.000Z", "Pacific/Chatham");
    wallClockOf(new Date("2026-12-05T13:30:00.000Z"), "Pacific/Chatham");
    knownTimeZone("Pacific/Chatham");
    const made = vi.spyOn(Intl, "DateTimeFormat");
    expect(formatInZone("2027-01-09T20:00:00.000Z", "Pacific/Chatham")).toBe("Sun, 10 January 2027, 09:45 GMT+13:45 (Chatham Daylight Time)");
    expect(wallClockOf(new Date("2027-01-09T20:00:00.000Z"), "Pacific/Chatham")).toMatchObject({ day: 10, hour: 9, minute: 45 });
    expect(knownTimeZone("Pacific/Chatham")).toBe("Pacific/Chatham");
    expect(made).not.toHaveBeenCalled();
  });
});
