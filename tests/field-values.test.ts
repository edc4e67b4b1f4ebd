import { describe, expect, it } from "vitest";
import { renderedFieldTypes, type ValueConfig } from "@/lib/site-config";
import { fieldValue } from "@/lib/wix/site-item";

const read = (type: ValueConfig["type"], raw: unknown, extra: Partial<ValueConfig> = {}) => fieldValue({ type, ...extra }, raw);

describe("reading each field type", () => {
  it("text, numbers, dates, times and yes/no", () => {
    expect(read("TEXT", "  Granite  ")).toEqual({ type: "text", text: "Granite" });
    expect(read("NUMBER", 4.5, { unit: "km" })).toEqual({ type: "number", value: 4.5, unit: "km" });
    expect(read("DATE", "2020-02-29")).toEqual({ type: "date", iso: "2020-02-29", withTime: false });
    expect(read("DATETIME", { $date: "2026-12-05T06:30:00.000Z" })).toEqual({ type: "date", iso: "2026-12-05T06:30:00.000Z", withTime: true });
    for (const raw of ["09:45", "09:45:00", "09:45:00.000", "09.45.00.000"]) expect(read("TIME", raw)).toEqual({ type: "time", text: "09:45" });
    expect(read("BOOLEAN", false)).toEqual({ type: "boolean", value: false });
    for (const [type, bad] of [
      ["TEXT", "   "],
      ["NUMBER", Infinity],
      ["DATE", "2020-02-30"],
      ["DATETIME", "soon"],
      ["TIME", "25:00"],
      ["BOOLEAN", "true"],
    ] as const) {
      expect(read(type, bad), type).toBeUndefined();
    }
  });

  it("URLs: web pages by host, e-mail and phone by address; script URLs never", () => {
    expect(read("URL", "https://parks.example/north-ridge")).toEqual({ type: "url", href: "https://parks.example/north-ridge", label: "parks.example" });
    expect(read("URL", "mailto:club@ridgeline.example")).toEqual({ type: "url", href: "mailto:club@ridgeline.example", label: "club@ridgeline.example" });
    expect(read("URL", "tel:+441234567")).toEqual({ type: "url", href: "tel:+441234567", label: "+441234567" });
    for (const bad of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<script>", "ftp://x.example/", "/relative"])
      expect(read("URL", bad), bad).toBeUndefined();
  });

  it("images, galleries, video, audio and documents", () => {
    expect(read("IMAGE", "/media/demo/ridge.jpg")).toEqual({ type: "image", picture: { src: "/media/demo/ridge.jpg", alt: "" } });
    expect(
      read("MEDIA_GALLERY", [
        {
          type: "image",
          src: "wix:image://v1/a.jpg/a.jpg#originWidth=300&originHeight=200",
          title: "Dawn",
          description: "First light",
          alt: "Dawn on the crest",
        },
        { type: "video", src: "/media/demo/ridge-flyover.mp4", thumbnail: "/media/demo/ridge.jpg", title: "Crest" },
        { type: "image", src: "javascript:alert(1)", title: "Bad" },
        { src: "/media/demo/lake.jpg" },
        "not an item",
      ]),
    ).toEqual({
      type: "gallery",
      entries: [
        {
          kind: "image",
          picture: { src: "https://static.wixstatic.com/media/a.jpg", alt: "Dawn on the crest", width: 300, height: 200 },
          title: "Dawn",
          description: "First light",
        },
        { kind: "video", video: { src: "/media/demo/ridge-flyover.mp4", poster: "/media/demo/ridge.jpg" }, title: "Crest" },
        { kind: "image", picture: { src: "/media/demo/lake.jpg", alt: "" } },
      ],
    });
    expect(read("MEDIA_GALLERY", [{ type: "image", src: "https://evil.example/x.jpg" }])).toBeUndefined();
    expect(read("VIDEO", "/media/demo/ridge-flyover.mp4")).toEqual({ type: "video", video: { src: "/media/demo/ridge-flyover.mp4" } });
    expect(read("AUDIO", "/media/demo/trail-notes.mp3")).toEqual({ type: "audio", sound: { src: "/media/demo/trail-notes.mp3" } });
    expect(read("DOCUMENT", "/media/demo/checklist.pdf")).toEqual({ type: "document", document: { href: "/media/demo/checklist.pdf", name: "checklist.pdf" } });
    for (const type of ["IMAGE", "VIDEO", "AUDIO", "DOCUMENT"] as const) expect(read(type, "javascript:alert(1)"), type).toBeUndefined();
  });

  it("rich text is sanitised and rich content reduced to safe blocks", () => {
    expect(read("RICH_TEXT", '<p onclick="x()">Hi<script>alert(1)</script></p>')).toEqual({ type: "rich-text", html: "<p>Hi</p>" });
    expect(read("RICH_CONTENT", { nodes: [{ type: "PARAGRAPH", nodes: [{ type: "TEXT", textData: { text: "Hi", decorations: [] } }] }] })).toEqual({
      type: "rich-content",
      blocks: [{ kind: "paragraph", inlines: [{ text: "Hi" }] }],
    });
    expect(read("RICH_CONTENT", "<p>not ricos</p>")).toBeUndefined();
  });

  it("tags, addresses and references", () => {
    expect(read("ARRAY_STRING", ["views", "", "lakes"])).toEqual({ type: "tags", values: ["views", "lakes"] });
    expect(
      read("ADDRESS", {
        formatted: "1 Lookout Road, Alder Springs, CO 81201, USA",
        streetAddress: { number: "1", name: "Lookout Road", apt: "Visitor centre" },
        city: "Alder Springs",
        subdivision: "US-CO",
        postalCode: "81201",
        country: "US",
        location: { latitude: 38.84, longitude: -106.13 },
      }),
    ).toEqual({
      type: "address",
      lines: ["1 Lookout Road", "Visitor centre", "Alder Springs, CO 81201", "United States"],
      mapHref: "https://www.openstreetmap.org/?mlat=38.84&mlon=-106.13#map=15/38.84/-106.13",
    });
    // Only the formatted text; a bad location is left out, not the address.
    expect(read("ADDRESS", { formatted: "Pier 3, Seal Cove", location: { latitude: "north" } })).toEqual({ type: "address", lines: ["Pier 3, Seal Cove"] });
    expect(read("ADDRESS", "1 Lookout Road")).toBeUndefined();
    expect(read("ADDRESS", {})).toBeUndefined();

    const region = { _id: "region-y", title: "Y Valley", slug: "y valley" };
    expect(read("REFERENCE", region, { references: "regions" })).toEqual({ type: "reference", title: "Y Valley", href: "/regions/y%20valley" });
    expect(read("REFERENCE", "region-y", { references: "regions" })).toBeUndefined();
    expect(
      read("MULTI_REFERENCE", [{ _id: "t1", title: "Summit Loop", slug: "summit-loop" }, "t2", { _id: "t3", title: "No slug" }], { references: "trails" }),
    ).toEqual({
      type: "references",
      links: [
        { title: "Summit Loop", href: "/trails/summit-loop" },
        { title: "No slug", href: undefined },
      ],
    });
  });

  it("objects by their configured parts, arrays by their element type", () => {
    const trailhead: ValueConfig = {
      type: "OBJECT",
      fields: [
        { key: "parking", label: "Parking", type: "TEXT" },
        { key: "gateOpens", label: "Gate opens", type: "TIME" },
      ],
    };
    expect(fieldValue(trailhead, { parking: "40 cars", gateOpens: "05:30:00.000", secret: "not configured" })).toEqual({
      type: "object",
      fields: [
        { key: "parking", label: "Parking", value: { type: "text", text: "40 cars" } },
        { key: "gateOpens", label: "Gate opens", value: { type: "time", text: "05:30" } },
      ],
    });
    expect(fieldValue(trailhead, ["not", "an", "object"])).toBeUndefined();
    expect(fieldValue({ type: "ARRAY", element: trailhead }, [{ parking: "Lot A" }, 3, { gateOpens: "nope" }])).toEqual({
      type: "list",
      items: [{ type: "object", fields: [{ key: "parking", label: "Parking", value: { type: "text", text: "Lot A" } }] }],
    });
    // Without a configuration, an object shows its plain values and an array its plain elements.
    expect(read("OBJECT", { phone: "+1 555 0100", open: true, nested: { a: 1 } })).toEqual({
      type: "object",
      fields: [
        { key: "phone", label: "phone", value: { type: "plain", text: "+1 555 0100" } },
        { key: "open", label: "open", value: { type: "plain", text: "Yes" } },
      ],
    });
    expect(read("ARRAY", ["a", 2, null, ["x", ["too deep"]]])).toEqual({
      type: "list",
      items: [
        { type: "plain", text: "a" },
        { type: "plain", text: "2" },
        { type: "list", items: [{ type: "plain", text: "x" }] },
      ],
    });
    expect(
      read(
        "ARRAY",
        Array.from({ length: 500 }, (_, index) => index),
      ),
    ).toMatchObject({ items: { length: 100 } });
  });

  it("any other type falls back to its words", () => {
    expect(read("EMAIL", "club@ridgeline.example")).toEqual({ type: "plain", text: "club@ridgeline.example" });
    expect(read("LANGUAGE", "en")).toEqual({ type: "plain", text: "en" });
    expect(read("ANY", { an: "object" })).toBeUndefined();
    expect(read("ANY", "<b>text</b>")).toEqual({ type: "plain", text: "<b>text</b>" });
  });

  it("covers every type the site says it renders", () => {
    expect(renderedFieldTypes).toHaveLength(20);
  });
});
