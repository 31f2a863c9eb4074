/**
 * The statements on a subject's state row (telemetry_state) that every device batch runs, prepared
 * once (storage/prepared.ts): create it if missing, read it locked, and save what ingestion and
 * processing changed.
 */
import type { CompiledQuery, Kysely } from 'kysely';
import { along } from '../../storage/along.js';
import { prepared } from '../../storage/prepared.js';
import type { Database } from '../../storage/schema.js';

export const createState = prepared(
  (db, _kind, subject: string, companyId: number, vehicleId: number | null, assetId: number | null, now: string) =>
    db
      .insertInto('telemetry_state')
      .values({
        subject,
        company_id: companyId,
        vehicle_id: vehicleId,
        asset_id: assetId,
        state: '{}',
        horizon: null,
        max_fix_time: null,
        last_received_at: now,
        ingest_driver_id: null,
        ingest_driver_at: null,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('subject').doNothing()),
);

/** The subject's state row, locked until the transaction ends (FOR UPDATE on PostgreSQL; SQLite's write transaction holds the file). */
export const lockedState = prepared((db, kind, subject: string) => {
  const q = db.selectFrom('telemetry_state').selectAll().where('subject', '=', subject);
  return kind === 'postgres' ? q.forUpdate() : q;
});

/** The columns a stored batch sets (the arguments are values or a prepared statement's placeholders). */
const ingestColumns = (
  maxFix: string | null,
  receivedAt: string,
  driverId: number | null,
  driverAt: string | null,
  writer: string | null,
) => ({
  max_fix_time: maxFix,
  last_received_at: receivedAt,
  ingest_driver_id: driverId,
  ingest_driver_at: driverAt,
  writer,
});

/** What a stored batch changed: the newest fix stored, when the device was last heard from, who is logged in on it and since when. */
export const saveIngestState = prepared(
  (
    db,
    _kind,
    subject: string,
    maxFix: string | null,
    receivedAt: string,
    driverId: number | null,
    driverAt: string | null,
    writer: string | null,
  ) =>
    db
      .updateTable('telemetry_state')
      .set({ ...ingestColumns(maxFix, receivedAt, driverId, driverAt, writer), updated_at: receivedAt })
      .where('subject', '=', subject),
);

/** What a stored batch changes on its subject's state row. */
export interface IngestChanges {
  max_fix_time: string | null;
  last_received_at: string;
  ingest_driver_id: number | null;
  ingest_driver_at: string | null;
  /** The batch's token when it keeps the pending records in memory (./pending-memory.ts), else null. */
  writer: string | null;
  /**
   * Statements to send along with the row's update (PostgreSQL; storage/along.ts): the current location
   * (./locations.ts) and utilization increments (./outputs-utilization.ts). Empty on SQLite.
   */
  along: CompiledQuery[];
}

/** Runs an update of the state row, with `firsts` (statements whose answers nobody reads) in the same round trip. */
export function updateAlong(trx: Kysely<Database>, update: CompiledQuery, firsts: readonly CompiledQuery[]) {
  return trx.executeQuery(along(firsts, update));
}

/** saveIngestState and saveState in one statement: a batch processed in the transaction that stored it. */
export const saveIngestedState = prepared(
  (
    db,
    _kind,
    subject: string,
    state: string,
    horizon: string,
    now: string,
    maxFix: string | null,
    receivedAt: string,
    driverId: number | null,
    driverAt: string | null,
    writer: string | null,
  ) =>
    db
      .updateTable('telemetry_state')
      .set({ state, horizon, updated_at: now, ...ingestColumns(maxFix, receivedAt, driverId, driverAt, writer) })
      .where('subject', '=', subject),
);

/**
 * What processing outside a batch leaves behind: the processors' state and the horizon up to which records
 * are processed. It clears `writer`: the pending records a node keeps in memory are no longer the truth.
 */
export const saveState = prepared((db, _kind, subject: string, state: string, horizon: string, now: string) =>
  db
    .updateTable('telemetry_state')
    .set({ state, horizon, updated_at: now, writer: null })
    .where('subject', '=', subject),
);
