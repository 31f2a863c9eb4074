/**
 * When each device was last heard from: `device_activity.last_seen_at`, shown by `fleet device list`
 * and `fleet device show`. The device API marks a device seen in the transaction that stores its batch
 * (telemetry/store/ingest.ts), but writes it at most once every SEEN_EVERY_MS per device on each node:
 * a batch every few seconds should not cost a write each, and "last seen" to the minute is what an
 * operator reads. Several nodes may write; the time only moves forward.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';

export const SEEN_EVERY_MS = 60_000;

/** Per database handle (tests open many in one process): device id → when this node last wrote it. */
const written = new WeakMap<Db, Map<number, number>>();

/** Marks `deviceId` seen at `at` (ISO time of `atMs`), through `trx` (the batch's transaction), unless this node wrote it within SEEN_EVERY_MS. */
export async function markDeviceSeen(db: Db, trx: Kysely<Database>, deviceId: number, at: string, atMs: number) {
  let mine = written.get(db);
  if (!mine) written.set(db, (mine = new Map()));
  const last = mine.get(deviceId);
  if (last !== undefined && atMs - last < SEEN_EVERY_MS) return;
  await trx
    .insertInto('device_activity')
    .values({ device_id: deviceId, last_seen_at: at })
    .onConflict((oc) =>
      oc
        .column('device_id')
        .doUpdateSet((eb) => ({ last_seen_at: eb.ref('excluded.last_seen_at') }))
        .where('device_activity.last_seen_at', '<', at),
    )
    .execute();
  mine.set(deviceId, atMs);
}
