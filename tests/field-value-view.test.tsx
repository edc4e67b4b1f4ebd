// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { FieldValueView } from "@/components/collection/field-value";
import { imageSizes } from "@/components/collection/image-sizes";
import type { FieldValue } from "@/lib/wix/site-item";
import { fieldValue } from "@/lib/wix/site-item";

afterEach(cleanup);

const show = (value: FieldValue, label = "Field") => render(<FieldValueView value={value} label={label} layout="main" />).container;

describe("a component for each field type", () => {
  it("text, numbers, dates, times, yes/no and the fallback", () => {
    expect(show({ type: "text", text: "Granite" }).textContent).toBe("Granite");
    expect(show({ type: "number", value: 1320, unit: "m" }).textContent).toBe("1,320 m");
    expect(show({ type: "date", iso: "2009-06-14", withTime: false }).querySelector("time")).toMatchObject({
      dateTime: "2009-06-14",
      textContent: "14 June 2009",
    });
    // A date and time with no zone of its own reads on the club's clocks (Denver), not in UTC.
    expect(show({ type: "date", iso: "2026-12-05T06:30:00.000Z", withTime: true }).textContent).toBe("Fri, 4 December 2026, 23:30 MST");
    expect(show({ type: "date", iso: "2026-08-07T09:00:00.000Z", withTime: true }).textContent).toBe("Fri, 7 August 2026, 03:00 MDT");
    expect(show({ type: "time", text: "09:45" }).querySelector("time")?.textContent).toBe("09:45");
    expect(show({ type: "boolean", value: false }).textContent).toBe("No");
    expect(show({ type: "plain", text: "<b>as text</b>" }).innerHTML).toBe("&lt;b&gt;as text&lt;/b&gt;");
  });

  it("links: URLs, references and lists of references", () => {
    show({ type: "url", href: "https://parks.example/north-ridge", label: "parks.example" });
    expect(screen.getByRole("link", { name: "parks.example" })).toHaveProperty("href", "https://parks.example/north-ridge");
    cleanup();
    show({ type: "references", links: [{ title: "Summit Loop", href: "/trails/summit-loop" }, { title: "Unlinked" }] });
    expect(screen.getByRole("link", { name: "Summit Loop" }).getAttribute("href")).toBe("/trails/summit-loop");
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Summit Loop", "Unlinked"]);
    cleanup();
    expect(show({ type: "reference", title: "No page" }).querySelector("a")).toBeNull();
  });

  it("images go through the optimiser with the layout's sizes", () => {
    const sized = show({ type: "image", picture: { src: "https://static.wixstatic.com/media/a.jpg", alt: "Summit", width: 1600, height: 1067 } }).querySelector(
      "img",
    )!;
    expect(sized.getAttribute("alt")).toBe("Summit");
    expect(sized.getAttribute("src")).toBe("/_next/image?url=https%3A%2F%2Fstatic.wixstatic.com%2Fmedia%2Fa.jpg&w=3840&q=75");
    expect(sized.getAttribute("srcset")).toContain("w=640&q=75 640w");
    expect(sized.getAttribute("sizes")).toBe(imageSizes.main);
    expect(sized.getAttribute("width")).toBe("1600");
    cleanup();
    // Without a known size the picture fills a 3:2 frame.
    const cropped = show({ type: "image", picture: { src: "/media/demo/ridge.jpg", alt: "" } }).querySelector("img")!;
    expect(cropped.getAttribute("src")).toContain("/_next/image?url=%2Fmedia%2Fdemo%2Fridge.jpg");
    expect(cropped.parentElement?.className).toContain("aspect-[3/2]");
  });

  it("a gallery of figures with captions, images and video", () => {
    show(
      {
        type: "gallery",
        entries: [
          {
            kind: "image",
            picture: { src: "/media/demo/ridge-dawn.jpg", alt: "Dawn on the crest" },
            title: "First light",
            description: "From the switchbacks.",
          },
          { kind: "video", video: { src: "/media/demo/ridge-flyover.mp4", poster: "/media/demo/ridge.jpg" }, title: "Along the crest" },
        ],
      },
      "Photos",
    );
    const gallery = screen.getByRole("list", { name: "Photos" });
    const [photo, clip] = within(gallery).getAllByRole("figure");
    expect(within(photo).getByRole("img", { name: "Dawn on the crest" })).toBeTruthy();
    expect(photo.querySelector("figcaption")?.textContent).toBe("First light. From the switchbacks.");
    expect(clip.querySelector("video source")?.getAttribute("src")).toBe("/media/demo/ridge-flyover.mp4");
    expect(clip.querySelector("video")?.getAttribute("aria-label")).toBe("Along the crest");
    // A tile's still is 384 px: never wider than a page's main picture of the same file takes (docs/public-site.md).
    expect(clip.querySelector("video")?.getAttribute("poster")).toBe("/_next/image?url=%2Fmedia%2Fdemo%2Fridge.jpg&w=384&q=75");
  });

  it("video, audio and documents", () => {
    const video = show(
      { type: "video", video: { src: "https://video.wixstatic.com/video/abc/file", poster: "https://static.wixstatic.com/media/abc.jpg" } },
      "Video",
    ).querySelector("video")!;
    expect(video.controls).toBe(true);
    // The still goes through the optimiser as well, at the 1x width of the main column.
    expect(video.getAttribute("poster")).toBe("/_next/image?url=https%3A%2F%2Fstatic.wixstatic.com%2Fmedia%2Fabc.jpg&w=750&q=75");
    expect(video.getAttribute("preload")).toBe("metadata");
    expect(video.querySelector("source")?.getAttribute("src")).toBe("https://video.wixstatic.com/video/abc/file");
    cleanup();
    const audio = show({ type: "audio", sound: { src: "/media/demo/trail-notes.mp3" } }, "Listen").querySelector("audio")!;
    expect(audio.getAttribute("aria-label")).toBe("Listen");
    expect(audio.getAttribute("preload")).toBe("none");
    cleanup();
    show({ type: "document", document: { href: "/media/demo/ten-essentials-checklist.pdf", name: "ten-essentials-checklist.pdf" } });
    // Browsers name the link "ten-essentials-checklist.pdf (PDF)". Testing Library's name computation trims the
    // inline span's " (PDF)" and, now that jsdom gives spans `display: inline`, joins it without the space.
    const link = screen.getByRole("link", { name: /^ten-essentials-checklist\.pdf ?\(PDF\)$/ });
    expect(link.textContent).toBe("ten-essentials-checklist.pdf (PDF)");
    expect(link.getAttribute("href")).toBe("/media/demo/ten-essentials-checklist.pdf");
  });

  it("rich text as sanitised markup; rich content as elements, headings under the field's h2", () => {
    expect(show({ type: "rich-text", html: "<p>Hi <strong>there</strong></p>" }).querySelector(".rich-text strong")?.textContent).toBe("there");
    cleanup();
    const content = show({
      type: "rich-content",
      blocks: [
        { kind: "heading", level: 2, inlines: [{ text: "Kit" }] },
        {
          kind: "paragraph",
          inlines: [{ text: "Read " }, { text: "this", bold: true, italic: true, href: "https://example.org/" }, { text: "<img src=x onerror=alert(1)>" }],
        },
        { kind: "list", ordered: true, items: [[{ kind: "paragraph", inlines: [{ text: "One" }] }]] },
        { kind: "quote", blocks: [{ kind: "paragraph", inlines: [{ text: "Hills stay." }] }] },
        { kind: "image", picture: { src: "/media/demo/gear.jpg", alt: "Gear", width: 1500, height: 1000 }, caption: "All of it." },
        { kind: "divider" },
      ],
    });
    expect(screen.getByRole("heading", { level: 3, name: "Kit" })).toBeTruthy();
    const link = screen.getByRole("link", { name: "this" });
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(link.querySelector("strong em")).not.toBeNull();
    expect(content.querySelector("img[onerror]")).toBeNull();
    expect(content.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(content.querySelector("ol li")?.textContent).toBe("One");
    expect(content.querySelector("blockquote")?.textContent).toBe("Hills stay.");
    expect(content.querySelector("figure figcaption")?.textContent).toBe("All of it.");
    expect(content.querySelector("hr")).not.toBeNull();
  });

  it("hostile values never reach the page as markup or script links", () => {
    const html = show(fieldValue({ type: "RICH_TEXT" }, '<p>ok</p><script>alert(1)</script><a href="javascript:alert(2)">x</a>')!).innerHTML;
    expect(html).not.toMatch(/script|javascript:/i);
    cleanup();
    const content = show(
      fieldValue(
        { type: "RICH_CONTENT" },
        {
          nodes: [
            {
              type: "PARAGRAPH",
              nodes: [{ type: "TEXT", textData: { text: "click", decorations: [{ type: "LINK", linkData: { link: { url: "javascript:alert(3)" } } }] } }],
            },
          ],
        },
      )!,
    );
    expect(content.querySelector("a")).toBeNull();
    expect(content.textContent).toBe("click");
    expect(fieldValue({ type: "URL" }, "javascript:alert(4)")).toBeUndefined();
  });

  it("tags, addresses, objects and lists", () => {
    show({ type: "tags", values: ["views", "lakes"] });
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["views", "lakes"]);
    cleanup();
    const address = show({
      type: "address",
      lines: ["1 Lookout Road", "Alder Springs, CO 81201", "United States"],
      mapHref: "https://www.openstreetmap.org/?mlat=1&mlon=2",
    });
    expect([...address.querySelectorAll("p > span")].map((line) => line.textContent)).toEqual(["1 Lookout Road", "Alder Springs, CO 81201", "United States"]);
    expect(screen.getByRole("link", { name: "Show on a map" }).getAttribute("href")).toBe("https://www.openstreetmap.org/?mlat=1&mlon=2");
    cleanup();
    const object = show({
      type: "object",
      fields: [
        { key: "parking", label: "Parking", value: { type: "text", text: "40 cars" } },
        { key: "toilets", label: "Toilets", value: { type: "boolean", value: true } },
      ],
    });
    expect([...object.querySelectorAll("dt")].map((term) => term.textContent)).toEqual(["Parking", "Toilets"]);
    expect([...object.querySelectorAll("dd")].map((term) => term.textContent)).toEqual(["40 cars", "Yes"]);
    cleanup();
    const list = show({
      type: "list",
      items: [
        {
          type: "object",
          fields: [
            { key: "name", label: "Waypoint", value: { type: "text", text: "Summit cairn" } },
            { key: "km", label: "At", value: { type: "number", value: 7.1, unit: "km" } },
          ],
        },
      ],
    });
    expect(list.querySelector("ol > li")?.textContent).toBe("Waypoint: Summit cairn · At 7.1 km");
  });
});
