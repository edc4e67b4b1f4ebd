import type { Db } from "../db";
import { DataStore } from "../data/store";
import { demoCollections, demoItems } from "./demo-content";

/** Seeds the demo site into an empty database; a database that has collections is left alone. */
export function seedDemoContent(db: Db): boolean {
  const store = new DataStore(db);
  if (store.countCollections() > 0) return false;
  db.transaction(() => {
    for (const collection of demoCollections) store.createCollection(collection);
    for (const [collectionId, items] of Object.entries(demoItems())) {
      for (const item of items) store.insertItem(collectionId, item, null, true);
    }
  })();
  return true;
}
