import type { Inline, RichBlock } from "@/lib/wix/rich-content";
import { Photo } from "./media-values";

/**
 * Rich content as React elements, from the reshaped tree (lib/wix/rich-content.ts): text is
 * only ever text, so nothing in a document can become markup. Its headings sit under the
 * field's own h2, so they start at h3.
 */
function InlineText({ inline }: { inline: Inline }) {
  let content: React.ReactNode = inline.text;
  if (inline.underline) content = <u>{content}</u>;
  if (inline.italic) content = <em>{content}</em>;
  if (inline.bold) content = <strong>{content}</strong>;
  if (inline.href) {
    const external = /^(https?|mailto):/.test(inline.href);
    content = (
      <a href={inline.href} rel={external ? "noopener noreferrer" : undefined}>
        {content}
      </a>
    );
  }
  return content;
}

function Inlines({ inlines }: { inlines: Inline[] }) {
  return inlines.map((inline, index) => <InlineText key={index} inline={inline} />);
}

const headingTags = ["h3", "h3", "h4", "h5", "h6", "h6"] as const;

function Block({ block }: { block: RichBlock }) {
  switch (block.kind) {
    case "paragraph":
      return (
        <p>
          <Inlines inlines={block.inlines} />
        </p>
      );
    case "heading": {
      const Heading = headingTags[block.level - 1];
      return (
        <Heading className="font-serif text-lg font-semibold text-pine-900">
          <Inlines inlines={block.inlines} />
        </Heading>
      );
    }
    case "list": {
      const List = block.ordered ? "ol" : "ul";
      return (
        <List>
          {block.items.map((item, index) => (
            <li key={index}>
              <Blocks blocks={item} />
            </li>
          ))}
        </List>
      );
    }
    case "quote":
      return (
        <blockquote className="border-l-4 border-pine-600 pl-4 text-stone-700">
          <Blocks blocks={block.blocks} />
        </blockquote>
      );
    case "image":
      return (
        <figure>
          <Photo picture={block.picture} layout="main" className="rounded-lg" />
          {block.caption && <figcaption className="mt-2 text-sm text-stone-700">{block.caption}</figcaption>}
        </figure>
      );
    case "divider":
      return <hr className="border-stone-300" />;
  }
}

function Blocks({ blocks }: { blocks: RichBlock[] }) {
  return blocks.map((block, index) => <Block key={index} block={block} />);
}

export function RichContentValue({ blocks }: { blocks: RichBlock[] }) {
  return (
    <div className="rich-text">
      <Blocks blocks={blocks} />
    </div>
  );
}
