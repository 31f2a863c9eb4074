import type { Migration } from './helpers.js';
import { notifyChanges } from './0012_change_notify.js';

/**
 * PostgreSQL: vehicles answer their external ids (record_external_ids, shared with assets and
 * inspection reports), so a vehicle read touches that table; without the change trigger of 0012 on it
 * no vehicle read could be cached. External ids change as slowly as the records they name.
 */
export const externalIdsNotify: Migration = {
  async up(db, kind) {
    if (kind !== 'postgres') return;
    await notifyChanges(db, ['record_external_ids']);
  },
};
