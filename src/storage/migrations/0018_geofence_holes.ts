import type { Migration } from './helpers.js';

/** Polygon geofences with holes (docs/reference/domain-rules.md §4.2): a JSON array of rings of `{lat, lon}`, `[]` for none. */
export const geofenceHoles: Migration = {
  async up(db) {
    await db.schema
      .alterTable('geofences')
      .addColumn('holes', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};
