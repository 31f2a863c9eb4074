import type { Migration } from './helpers.js';

type Column = [string, 'text' | 'integer' | 'double precision'];

const STOPS: Column[] = [
  ['bill_of_lading', 'text'],
  ['refno', 'text'],
  ['pallets', 'integer'],
  ['pieces', 'integer'],
  ['weight', 'double precision'],
  ['volume', 'double precision'],
  ['comments', 'text'],
];
const DISPATCHES: Column[] = [
  ['additional_pickups', 'integer'],
  ['additional_drops', 'integer'],
  ['pickup_number', 'text'],
  ['loaded_miles', 'double precision'],
];

/** Load details of stops and dispatches (src/domain/dispatch/details.ts), all optional. */
export const loadDetails: Migration = {
  async up(db) {
    for (const [name, type] of STOPS) await db.schema.alterTable('dispatch_stops').addColumn(name, type).execute();
    for (const [name, type] of DISPATCHES) await db.schema.alterTable('dispatches').addColumn(name, type).execute();
  },
};
