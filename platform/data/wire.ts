/** Reshaping between stored rows and the data service's wire envelope (`{id, dataCollectionId, data}`). */

export type StoredItem = {
  collection_id: string;
  id: string;
  data: string;
};

export type WireDataItem = { id: string; dataCollectionId: string; data: Record<string, unknown> };

export function toWireItem(row: StoredItem, fields?: string[]): WireDataItem {
  const data = JSON.parse(row.data) as Record<string, unknown>;
  return { id: row.id, dataCollectionId: row.collection_id, data: fields && fields.length > 0 ? project(data, fields) : data };
}

/** Field projection keeps `_id` always (data semantics §5.3). */
function project(data: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const result: Record<string, unknown> = { _id: data._id };
  for (const field of fields) if (field in data) result[field] = data[field];
  return result;
}

export function dateValue(date: Date | string): { $date: string } {
  return { $date: new Date(date).toISOString() };
}
