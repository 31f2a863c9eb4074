import type { Migration } from './helpers.js';
import { notifyChanges } from './0012_change_notify.js';

/**
 * The change trigger of 0012 on two more slowly changing tables that every telemetry batch reads: the
 * company's geofences and its webhook subscriptions. Their reads are then kept in each node's read
 * cache and dropped when another node changes them (src/telemetry/store/process.ts, locations.ts).
 */
export const ingestNotify: Migration = {
  async up(db, kind) {
    if (kind !== 'postgres') return;
    await notifyChanges(db, ['geofences', 'company_webhooks']);
  },
};
