import { describe, expect, it } from "vitest";
import { richContentBlocks, richContentText } from "@/lib/wix/rich-content";

const text = (value: string, ...decorations: object[]) => ({ type: "TEXT", nodes: [], textData: { text: value, decorations } });
const paragraph = (...nodes: object[]) => ({ type: "PARAGRAPH", nodes, paragraphData: {} });
const link = (url: string) => ({ type: "LINK", linkData: { link: { url, target: "BLANK" } } });

describe("rich content (Ricos documents)", () => {
  it("keeps paragraphs, headings, lists, quotes, images and dividers, with bold, italic, underline and links", () => {
    const blocks = richContentBlocks({
      nodes: [
        paragraph(
          text("Start "),
          text("early", { type: "BOLD", fontWeightValue: 700 }, { type: "ITALIC", italicData: true }),
          text(" and "),
          text("read this", link("https://example.org/guide")),
        ),
        { type: "HEADING", nodes: [text("Kit")], headingData: { level: 2 } },
        {
          type: "BULLETED_LIST",
          nodes: [
            { type: "LIST_ITEM", nodes: [paragraph(text("Map", { type: "UNDERLINE", underlineData: true }))] },
            { type: "LIST_ITEM", nodes: [paragraph(text("Water"))] },
          ],
        },
        { type: "ORDERED_LIST", nodes: [{ type: "LIST_ITEM", nodes: [paragraph(text("Go"))] }] },
        { type: "BLOCKQUOTE", nodes: [paragraph(text("Hills stay."))] },
        {
          type: "IMAGE",
          nodes: [],
          imageData: { image: { src: { url: "/media/demo/gear.jpg" }, width: 1500, height: 1000 }, altText: "Gear", caption: "All of it." },
        },
        { type: "IMAGE", nodes: [], imageData: { image: { src: { id: "8bb438_gear.jpg" }, width: 800, height: 600 }, altText: "" } },
        { type: "DIVIDER", nodes: [], dividerData: {} },
      ],
    });
    expect(blocks).toEqual([
      {
        kind: "paragraph",
        inlines: [{ text: "Start " }, { text: "early", bold: true, italic: true }, { text: " and " }, { text: "read this", href: "https://example.org/guide" }],
      },
      { kind: "heading", level: 2, inlines: [{ text: "Kit" }] },
      {
        kind: "list",
        ordered: false,
        items: [[{ kind: "paragraph", inlines: [{ text: "Map", underline: true }] }], [{ kind: "paragraph", inlines: [{ text: "Water" }] }]],
      },
      { kind: "list", ordered: true, items: [[{ kind: "paragraph", inlines: [{ text: "Go" }] }]] },
      { kind: "quote", blocks: [{ kind: "paragraph", inlines: [{ text: "Hills stay." }] }] },
      { kind: "image", picture: { src: "/media/demo/gear.jpg", alt: "Gear", width: 1500, height: 1000 }, caption: "All of it." },
      { kind: "image", picture: { src: "https://static.wixstatic.com/media/8bb438_gear.jpg", alt: "", width: 800, height: 600 } },
      { kind: "divider" },
    ]);
    expect(richContentText(blocks)).toBe("Start early and read this Kit Map Water Go Hills stay. All of it.");
  });

  it("drops script links and foreign images, keeping the words; markup in text stays text", () => {
    const blocks = richContentBlocks({
      nodes: [
        paragraph(
          text("click", link("javascript:alert(1)")),
          text("<script>alert(2)</script>"),
          text("x", link("//evil.example")),
          text("mail", link("mailto:club@ridgeline.example")),
        ),
        { type: "IMAGE", nodes: [], imageData: { image: { src: { url: "https://evil.example/track.gif" } }, altText: "x" } },
        { type: "IMAGE", nodes: [], imageData: { image: { src: { url: "javascript:alert(3)" } } } },
        { type: "HTML", nodes: [], htmlData: { html: "<img src=x onerror=alert(4)>" } },
      ],
    });
    expect(blocks).toEqual([
      {
        kind: "paragraph",
        inlines: [{ text: "click" }, { text: "<script>alert(2)</script>" }, { text: "x" }, { text: "mail", href: "mailto:club@ridgeline.example" }],
      },
    ]);
  });

  it("keeps the text of node kinds it does not render, and reads anything else as nothing", () => {
    expect(richContentBlocks({ nodes: [{ type: "COLLAPSIBLE_LIST", nodes: [{ type: "COLLAPSIBLE_ITEM", nodes: [paragraph(text("Inside"))] }] }] })).toEqual([
      { kind: "paragraph", inlines: [{ text: "Inside" }] },
    ]);
    for (const junk of [null, "<p>html</p>", 42, { nodes: "x" }, { nodes: [null, 1, "s", { nodes: [] }] }]) expect(richContentBlocks(junk)).toEqual([]);
  });

  it("stops at a nesting depth and a node count, so a hostile document cannot exhaust the server", () => {
    let deep: object = paragraph(text("bottom"));
    for (let level = 0; level < 500; level += 1) deep = { type: "BLOCKQUOTE", nodes: [deep] };
    expect(JSON.stringify(richContentBlocks({ nodes: [deep] }))).not.toContain("bottom");
    const wide = { nodes: Array.from({ length: 10_000 }, (_, index) => paragraph(text(`p${index}`))) };
    const blocks = richContentBlocks(wide);
    expect(blocks.length).toBeGreaterThan(100);
    expect(blocks.length).toBeLessThan(2000);
  });
});
