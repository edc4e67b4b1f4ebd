import { FieldValueView } from "@/components/collection/field-value";
import type { CollectionConfig } from "@/lib/site-config";
import type { SiteItem } from "@/lib/wix/site-item";

/** An outing's details in one list (when, where to meet, which trail), its summary left out. */
export function OutingFacts({ collection, item }: { collection: CollectionConfig; item: SiteItem }) {
  return (
    <dl className="space-y-1 text-sm">
      {collection.detailFields.flatMap((key) => {
        const field = item.fields[key];
        if (!field || key === collection.summaryField) return [];
        return [
          <div key={key} className="flex flex-wrap gap-1">
            <dt className="text-stone-600">{field.label}:</dt>
            <dd className="text-stone-900">
              <FieldValueView value={field.value} />
            </dd>
          </div>,
        ];
      })}
    </dl>
  );
}
