import Link from "next/link";
import type { FieldValue, Link as ItemLink, ShownField } from "@/lib/wix/site-item";
import type { ImageLayout } from "./image-sizes";
import { AudioValue, DocumentValue, GalleryValue, ImageValue, VideoValue } from "./media-values";
import { RichContentValue } from "./rich-content";
import { formatInZone } from "@/lib/outings/time";
import { clubTimeZone } from "@/lib/site-config";

const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
const numberFormat = new Intl.NumberFormat("en-GB");

const linkClass = "text-pine-700 underline underline-offset-2 hover:text-pine-900";

function NumberValue({ value, unit }: { value: number; unit?: string }) {
  return <>{numberFormat.format(value) + (unit ? ` ${unit}` : "")}</>;
}

/** A date and time in its item's zone (an outing's), else on the club's clocks; a day alone as it is. */
function DateValue({ iso, withTime, timeZone, compact }: { iso: string; withTime: boolean; timeZone?: string; compact: boolean }) {
  return <time dateTime={iso}>{withTime ? formatInZone(iso, timeZone ?? clubTimeZone, compact) : dateFormat.format(new Date(iso))}</time>;
}

function TimeValue({ text, zone }: { text: string; zone?: string }) {
  return <time dateTime={text}>{zone ? `${text} ${zone}` : text}</time>;
}

function UrlValue({ href, label }: { href: string; label: string }) {
  return (
    <a href={href} rel="noopener noreferrer" className={linkClass}>
      {label}
    </a>
  );
}

function TagsValue({ values }: { values: string[] }) {
  return (
    <ul className="flex flex-wrap gap-1.5">
      {values.map((tag) => (
        <li key={tag} className="rounded bg-sand-100 px-2 py-0.5 text-xs text-stone-700">
          {tag}
        </li>
      ))}
    </ul>
  );
}

function AddressValue({ lines, mapHref }: { lines: string[]; mapHref?: string }) {
  return (
    <>
      <p>
        {lines.map((line, index) => (
          <span key={index} className="block">
            {line}
          </span>
        ))}
      </p>
      {mapHref && (
        <a href={mapHref} rel="noopener noreferrer" className={`mt-1 inline-block ${linkClass}`}>
          Show on a map
        </a>
      )}
    </>
  );
}

function ReferenceValue({ title, href }: ItemLink) {
  return href ? (
    <Link href={href} className={linkClass}>
      {title}
    </Link>
  ) : (
    <>{title}</>
  );
}

function ReferencesValue({ links }: { links: ItemLink[] }) {
  return (
    <ul className="space-y-1">
      {links.map((link, index) => (
        <li key={`${link.href ?? link.title}-${index}`}>
          <ReferenceValue {...link} />
        </li>
      ))}
    </ul>
  );
}

/** An object's parts as a small definition list, or on one line inside a list ("Summit cairn · At 7.1 km"). */
function ObjectValue({ fields, compact }: { fields: ShownField[]; compact: boolean }) {
  if (compact) {
    const [first, ...rest] = fields;
    return (
      <>
        <span className="font-medium">
          <span className="sr-only">{first.label}: </span>
          <FieldValueView value={first.value} />
        </span>
        {rest.map((field) => (
          <span key={field.key}>
            {" · "}
            {field.label} <FieldValueView value={field.value} />
          </span>
        ))}
      </>
    );
  }
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
      {fields.map((field) => (
        <div key={field.key} className="contents">
          <dt className="text-stone-700">{field.label}</dt>
          <dd>
            <FieldValueView value={field.value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ListValue({ items }: { items: FieldValue[] }) {
  return (
    <ol className="list-decimal space-y-1 pl-5">
      {items.map((item, index) => (
        <li key={index}>
          <FieldValueView value={item} compact />
        </li>
      ))}
    </ol>
  );
}

/**
 * One field's value, by type: every type the platform has gets its own component (media in
 * media-values.tsx, rich content in rich-content.tsx), and "plain" shows whatever else as
 * text. Values arrive reshaped and made safe by lib/wix/site-item.ts. `compact` keeps a value
 * on one line, for cards and list entries.
 */
export function FieldValueView({
  value,
  label = "",
  layout = "aside",
  compact = false,
}: {
  value: FieldValue;
  label?: string;
  layout?: ImageLayout;
  compact?: boolean;
}) {
  switch (value.type) {
    case "text":
    case "plain":
      return <>{value.text}</>;
    case "number":
      return <NumberValue value={value.value} unit={value.unit} />;
    case "date":
      return <DateValue iso={value.iso} withTime={value.withTime} timeZone={value.timeZone} compact={compact} />;
    case "time":
      return <TimeValue text={value.text} zone={value.zone} />;
    case "boolean":
      return <>{value.value ? "Yes" : "No"}</>;
    case "url":
      return <UrlValue href={value.href} label={value.label} />;
    case "image":
      return <ImageValue picture={value.picture} layout={layout} />;
    case "gallery":
      return <GalleryValue entries={value.entries} label={label} />;
    case "video":
      return <VideoValue video={value.video} label={label} layout={layout} />;
    case "audio":
      return <AudioValue sound={value.sound} label={label} />;
    case "document":
      return <DocumentValue document={value.document} />;
    case "rich-text":
      return <div className="rich-text" dangerouslySetInnerHTML={{ __html: value.html }} />;
    case "rich-content":
      return <RichContentValue blocks={value.blocks} />;
    case "tags":
      return <TagsValue values={value.values} />;
    case "address":
      return <AddressValue lines={value.lines} mapHref={value.mapHref} />;
    case "reference":
      return <ReferenceValue title={value.title} href={value.href} />;
    case "references":
      return <ReferencesValue links={value.links} />;
    case "object":
      return <ObjectValue fields={value.fields} compact={compact} />;
    case "list":
      return <ListValue items={value.items} />;
  }
}

/** Values that read as a passage or a piece of media, shown in an item page's main column rather than its details. */
export function isWide(value: FieldValue): boolean {
  return ["rich-text", "rich-content", "gallery", "video", "audio"].includes(value.type);
}
