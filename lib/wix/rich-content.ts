import { z } from "zod";
import { pictureFrom, type Picture } from "./media";

/**
 * RICH_CONTENT values are Ricos documents: a tree of nodes (paragraphs, headings, lists, images,
 * text with decorations). They are reduced here to a small tree of the kinds the site renders,
 * built only from text, whitelisted links and servable images, so nothing in a document can
 * become markup or script. Node kinds the site does not render keep their text; deep or huge
 * documents are cut off rather than walked.
 */

export type Inline = { text: string; bold?: true; italic?: true; underline?: true; href?: string };

export type RichBlock =
  | { kind: "paragraph"; inlines: Inline[] }
  | { kind: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; inlines: Inline[] }
  | { kind: "list"; ordered: boolean; items: RichBlock[][] }
  | { kind: "quote"; blocks: RichBlock[] }
  | { kind: "image"; picture: Picture; caption?: string }
  | { kind: "divider" };

const MAX_DEPTH = 12;
const MAX_NODES = 2000;

type RicosNode = { type?: unknown; nodes?: unknown; [data: string]: unknown };
const node = z.looseObject({ type: z.string(), nodes: z.array(z.unknown()).optional() });
const decoration = z.looseObject({
  type: z.string(),
  fontWeightValue: z.number().nullish(),
  linkData: z.object({ link: z.object({ url: z.string().optional() }).optional() }).nullish(),
});
const textData = z.object({ text: z.string(), decorations: z.array(z.unknown()).optional() });
const headingData = z.object({ level: z.number().int().min(1).max(6) });
const imageData = z.object({
  image: z.object({ src: z.object({ url: z.string().nullish(), id: z.string().nullish() }), width: z.number().nullish(), height: z.number().nullish() }),
  altText: z.string().nullish(),
  caption: z.string().nullish(),
});

/** Links that stay on the web: http(s), mailto and paths on this site. */
export function safeHref(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\/(?![/\\])/.test(trimmed)) return trimmed;
  try {
    const url = new URL(trimmed);
    return ["http:", "https:", "mailto:"].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function inlineOf(raw: unknown): Inline | undefined {
  const parsed = textData.safeParse((raw as RicosNode).textData);
  if (!parsed.success || parsed.data.text === "") return undefined;
  const inline: Inline = { text: parsed.data.text };
  for (const rawDecoration of parsed.data.decorations ?? []) {
    const found = decoration.safeParse(rawDecoration);
    if (!found.success) continue;
    const { type, fontWeightValue, linkData } = found.data;
    if (type === "BOLD" && (fontWeightValue ?? 700) >= 600) inline.bold = true;
    else if (type === "ITALIC") inline.italic = true;
    else if (type === "UNDERLINE") inline.underline = true;
    else if (type === "LINK") {
      const href = safeHref(linkData?.link?.url);
      if (href) inline.href = href;
    }
  }
  return inline;
}

class Reader {
  private seen = 0;

  /** The text pieces of a node's subtree, in order (a paragraph's TEXT nodes, or those of anything nested). */
  inlines(raw: unknown, depth: number): Inline[] {
    const parsed = this.node(raw, depth);
    if (!parsed) return [];
    if (parsed.type === "TEXT") return [inlineOf(raw)].filter((inline): inline is Inline => inline !== undefined);
    return (parsed.nodes ?? []).flatMap((child) => this.inlines(child, depth + 1));
  }

  blocks(children: unknown[] | undefined, depth: number): RichBlock[] {
    return (children ?? []).flatMap((child) => this.block(child, depth));
  }

  private node(raw: unknown, depth: number) {
    if (depth > MAX_DEPTH || this.seen >= MAX_NODES) return undefined;
    this.seen += 1;
    const parsed = node.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }

  private block(raw: unknown, depth: number): RichBlock[] {
    const parsed = this.node(raw, depth);
    if (!parsed) return [];
    const children = parsed.nodes;
    switch (parsed.type) {
      case "PARAGRAPH": {
        const inlines = children?.flatMap((child) => this.inlines(child, depth + 1)) ?? [];
        return inlines.length ? [{ kind: "paragraph", inlines }] : [];
      }
      case "HEADING": {
        const level = headingData.safeParse(parsed.headingData);
        const inlines = children?.flatMap((child) => this.inlines(child, depth + 1)) ?? [];
        return inlines.length ? [{ kind: "heading", level: (level.success ? level.data.level : 2) as 1 | 2 | 3 | 4 | 5 | 6, inlines }] : [];
      }
      case "BULLETED_LIST":
      case "ORDERED_LIST": {
        const items = (children ?? []).map((item) => this.blocks(this.node(item, depth + 1)?.nodes, depth + 2)).filter((item) => item.length > 0);
        return items.length ? [{ kind: "list", ordered: parsed.type === "ORDERED_LIST", items }] : [];
      }
      case "BLOCKQUOTE": {
        const blocks = this.blocks(children, depth + 1);
        return blocks.length ? [{ kind: "quote", blocks }] : [];
      }
      case "IMAGE": {
        const data = imageData.safeParse(parsed.imageData);
        if (!data.success) return [];
        const { image, altText, caption } = data.data;
        const source =
          image.src.url ??
          (image.src.id
            ? `wix:image://v1/${encodeURIComponent(image.src.id)}/#originWidth=${image.width ?? ""}&originHeight=${image.height ?? ""}`
            : undefined);
        const picture = pictureFrom(source, altText ?? "");
        if (!picture) return [];
        const sized = { ...picture, width: picture.width ?? image.width ?? undefined, height: picture.height ?? image.height ?? undefined };
        return [{ kind: "image", picture: sized, ...(caption?.trim() && { caption: caption.trim() }) }];
      }
      case "DIVIDER":
        return [{ kind: "divider" }];
      case "TEXT": {
        const inline = inlineOf(raw);
        return inline ? [{ kind: "paragraph", inlines: [inline] }] : [];
      }
      default:
        // A kind the site does not render: keep whatever text it holds.
        return this.blocks(children, depth + 1);
    }
  }
}

const document = z.object({ nodes: z.array(z.unknown()) });

/** A Ricos document as blocks; an empty list for anything that is not one. */
export function richContentBlocks(raw: unknown): RichBlock[] {
  const parsed = document.safeParse(raw);
  return parsed.success ? new Reader().blocks(parsed.data.nodes, 0) : [];
}

/** The document's words, for excerpts and search descriptions. */
export function richContentText(blocks: RichBlock[]): string {
  const words = (block: RichBlock): string[] => {
    switch (block.kind) {
      case "paragraph":
      case "heading":
        return [block.inlines.map((inline) => inline.text).join("")];
      case "list":
        return block.items.flatMap((item) => item.flatMap(words));
      case "quote":
        return block.blocks.flatMap(words);
      case "image":
        return block.caption ? [block.caption] : [];
      case "divider":
        return [];
    }
  };
  return blocks.flatMap(words).join(" ").replace(/\s+/g, " ").trim();
}
