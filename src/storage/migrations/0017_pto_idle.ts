import type { Migration } from './helpers.js';

/**
 * PTO idling (docs/reference/domain-rules.md §7 D-3): an idle event records whether the power take-off was engaged
 * while it lasted, and each utilization bucket how much of its idle time and idle fuel was with PTO
 * engaged (a part of idle_s / idle_fuel_l), so that reports can leave PTO idling out when an operator
 * asks (IDLE_EXCLUDE_PTO) without reprocessing anything. Rows written before this have no PTO.
 */
export const ptoIdle: Migration = {
  async up(db) {
    await db.schema
      .alterTable('idle_events')
      .addColumn('pto', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('utilization_buckets')
      .addColumn('pto_idle_s', 'double precision', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('utilization_buckets')
      .addColumn('pto_idle_fuel_l', 'double precision', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
