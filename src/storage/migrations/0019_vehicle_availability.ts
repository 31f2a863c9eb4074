import { sql } from 'kysely';
import type { Migration } from './helpers.js';

/**
 * The whole availability of a vehicle (docs/vehicles.md): why it is out of service, a note, and the
 * warning the driver app shows, next to the status. Every vehicle has an availability from now on:
 * rows without one (vehicles created through the API before this) are in service since they were
 * created.
 */
export const vehicleAvailability: Migration = {
  async up(db) {
    for (const col of ['out_of_service_reason', 'availability_note', 'availability_prompt']) {
      await db.schema.alterTable('vehicles').addColumn(col, 'text').execute();
    }
    await db
      .updateTable('vehicles')
      .set({
        availability_status: 'in_service',
        availability_updated_at: sql`coalesce(availability_updated_at, created_at)`,
      })
      .where('availability_status', 'is', null)
      .execute();
    await db
      .updateTable('vehicles')
      .set({ availability_updated_at: sql`created_at` })
      .where('availability_updated_at', 'is', null)
      .execute();
  },
};
