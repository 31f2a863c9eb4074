/**
 * Replay: rebuilds a vehicle's or an asset's derived data from its stored records with the same
 * processors, up to where live processing got (the horizon; later records are still pending and are
 * processed as usual). The processors run over the whole history from a fresh state (so the state at
 * `from` is right), rows starting at or after `from` are deleted and rewritten, rows that started
 * earlier are upserted with their replayed values, utilization buckets from `from` on are recomputed,
 * and the persisted state becomes the replayed one (the detector of automatic duty status keeps its
 * own: replay writes no duty status). Geofence visits are rebuilt for the company's active geofences
 * only: visits of a deleted or inactive geofence stay as they are. Records that arrived late (after
 * live processing had passed their time) are processed in their place: that is how late data reaches
 * derived data. Nothing is announced again (no domain events), and rebuilt rows get new ids. One
 * transaction per subject: readers see the old or the new derived data, never a mix.
 *
 * A vehicle's records of drivers' logs (duty statuses, exception claims, logins and logouts) from
 * `from` on are linked into the logs again (./hos-link.ts): those already there are skipped, and one
 * missing (left out by an earlier version of the server) is added, its driver re-evaluated and what
 * changed announced, as when a record arrives.
 */
import type { Db } from '../../storage/db.js';
import { json, toIso } from '../../storage/values.js';
import type { Thresholds } from '../thresholds.js';
import { initialAssetState, initialState, runAssetPipeline, runPipeline } from '../processors/pipeline.js';
import type { Output, RecordIn } from '../processors/types.js';
import { writeAssetOutputs, writeOutputs } from './outputs.js';
import { relinkHos, savedAutoDuty } from './hos-link.js';
import { envOf, loadGeofences } from './process.js';
import { PENDING_COLUMNS, recordIn } from './pending.js';
import { writeTx, type Trx } from './tx.js';

const CHUNK = 5000;

/**
 * Which outputs a replay from `from` writes. Rows starting from `from` on are written; a row that
 * started earlier is written only as it ends up: its open version is held back until it closes, and
 * dropped if it closed before `from` (that row was not deleted and is already right).
 */
class FromFilter {
  private held = new Map<string, Output>();
  constructor(private readonly from: number) {}

  private span(o: Output): { key: string; start: number; end: number | null } | null {
    if (o.kind === 'period') return { key: `p${o.row.start}`, start: o.row.start, end: o.row.end };
    if (o.kind === 'geofence')
      return { key: `g${o.row.geofenceId}@${o.row.start}`, start: o.row.start, end: o.row.end };
    if (o.kind === 'fault') return { key: `f${o.row.key}@${o.row.first}`, start: o.row.first, end: o.row.closedAt };
    return null;
  }

  keep(o: Output): boolean {
    const s = this.span(o);
    if (!s) {
      if (o.kind === 'utilization') return o.row.bucketStart >= this.from;
      if (o.kind === 'idle' || o.kind === 'performance') return o.row.start >= this.from;
      return false;
    }
    if (s.start >= this.from) return true;
    if (s.end === null) {
      this.held.set(s.key, o);
      return false;
    }
    this.held.delete(s.key);
    return s.end >= this.from;
  }

  /** Rows that started before `from` and are still open at the end of the history. */
  stillOpen(): Output[] {
    return [...this.held.values()];
  }
}

export type Subject = { vehicleId: number; assetId?: undefined } | { assetId: number; vehicleId?: undefined };

export interface ReplayResult {
  vehicleId?: number;
  assetId?: number;
  records: number;
  outputs: number;
  /** Records of drivers' logs that were missing from them and are now there. */
  hosRecords: number;
}

/** Deletes what the replay rewrites: rows of the subject starting at or after `from` (visits: of `geofenceIds`). */
async function clear(trx: Trx, s: Subject, fromIso: string, geofenceIds: number[]) {
  if (s.assetId !== undefined) {
    if (geofenceIds.length) {
      await trx
        .deleteFrom('asset_geofence_events')
        .where('asset_id', '=', s.assetId)
        .where('start_time', '>=', fromIso)
        .where('geofence_id', 'in', geofenceIds)
        .execute();
    }
    return;
  }
  const v = (t: 'driving_periods' | 'idle_events' | 'driver_performance_events') =>
    trx.deleteFrom(t).where('vehicle_id', '=', s.vehicleId).where('start_time', '>=', fromIso).execute();
  await Promise.all([v('driving_periods'), v('idle_events'), v('driver_performance_events')]);
  if (geofenceIds.length) {
    await trx
      .deleteFrom('geofence_events')
      .where('vehicle_id', '=', s.vehicleId)
      .where('start_time', '>=', fromIso)
      .where('geofence_id', 'in', geofenceIds)
      .execute();
  }
  await trx
    .deleteFrom('fault_codes')
    .where('vehicle_id', '=', s.vehicleId)
    .where('first_observed_at', '>=', fromIso)
    .execute();
  await trx
    .deleteFrom('utilization_buckets')
    .where('vehicle_id', '=', s.vehicleId)
    .where('bucket_start', '>=', fromIso)
    .execute();
}

export async function replaySubject(
  db: Db,
  companyId: number,
  s: Subject,
  from: Date | null,
  th: Thresholds,
): Promise<ReplayResult> {
  const fromIso = from ? from.toISOString() : '';
  const filter = new FromFilter(from ? from.getTime() : -Infinity);
  const subject = s.vehicleId !== undefined ? `v:${s.vehicleId}` : `a:${s.assetId}`;
  const none = { ...s, records: 0, outputs: 0, hosRecords: 0 };
  return writeTx(db, async (trx) => {
    let q = trx
      .selectFrom('telemetry_state')
      .selectAll()
      .where('subject', '=', subject)
      .where('company_id', '=', companyId);
    if (db.kind === 'postgres') q = q.forUpdate();
    const st = await q.executeTakeFirst();
    // Drivers' logs take every stored log record, processed or not (./hos-link.ts).
    const hos =
      st && s.vehicleId !== undefined ? (await relinkHos(db, trx, companyId, s.vehicleId, fromIso)).logged : 0;
    // Nothing processed yet: nothing derived to rebuild.
    if (!st || st.horizon === null) return { ...none, hosRecords: hos };
    const horizon = st.horizon;
    const geofences = await loadGeofences(trx, companyId);
    await clear(
      trx,
      s,
      fromIso,
      geofences.map((g) => g.id),
    );
    const env = envOf(th, geofences);
    const write = (outs: Output[]) =>
      s.vehicleId !== undefined
        ? writeOutputs(trx, { companyId, vehicleId: s.vehicleId, announce: false, kind: db.kind }, outs)
        : writeAssetOutputs(trx, { companyId, assetId: s.assetId!, announce: false }, outs);
    let vehicleState = initialState();
    let assetState = initialAssetState();
    const step = (records: RecordIn[]): Output[] => {
      if (s.vehicleId !== undefined) {
        const run = runPipeline(vehicleState, records, env);
        vehicleState = run.state;
        return run.outputs;
      }
      const run = runAssetPipeline(assetState, records, env);
      assetState = run.state;
      return run.outputs;
    };
    let records = 0;
    let outputs = 0;
    let after: { t: string; id: number } | null = null;
    for (let round = 0; round < 100_000; round++) {
      let rq = trx
        .selectFrom('telemetry_records')
        .select([...PENDING_COLUMNS, 'id'])
        .where('fix_time', '<=', horizon);
      rq = s.vehicleId !== undefined ? rq.where('vehicle_id', '=', s.vehicleId) : rq.where('asset_id', '=', s.assetId);
      if (after) {
        const a = after;
        rq = rq.where((eb) =>
          eb.or([eb('fix_time', '>', a.t), eb.and([eb('fix_time', '=', a.t), eb('id', '>', a.id)])]),
        );
      }
      const rows = await rq.orderBy('fix_time').orderBy('id').limit(CHUNK).execute();
      if (rows.length === 0) break;
      const kept = step(rows.map(recordIn)).filter((o) => filter.keep(o));
      await write(kept);
      records += rows.length;
      outputs += kept.length;
      const last = rows[rows.length - 1];
      after = { t: last.fix_time, id: Number(last.id) };
      if (rows.length < CHUNK) break;
    }
    const open = filter.stillOpen();
    await write(open);
    outputs += open.length;
    const state =
      s.vehicleId !== undefined ? json({ ...vehicleState, hos_auto: savedAutoDuty(st.state) }) : json(assetState);
    await trx
      .updateTable('telemetry_state')
      .set({ state, updated_at: toIso(Date.now()), writer: null })
      .where('subject', '=', st.subject)
      .execute();
    return { ...s, records, outputs, hosRecords: hos };
  });
}

export const replayVehicle = (db: Db, companyId: number, vehicleId: number, from: Date | null, th: Thresholds) =>
  replaySubject(db, companyId, { vehicleId }, from, th);

/** The vehicles and assets of a company that have stored telemetry (or just the one asked for). */
export async function replayTargets(db: Db, companyId: number, only?: Subject): Promise<Subject[]> {
  let q = db.kysely
    .selectFrom('telemetry_state')
    .select(['vehicle_id', 'asset_id'])
    .where('company_id', '=', companyId);
  if (only?.vehicleId !== undefined) q = q.where('vehicle_id', '=', only.vehicleId);
  if (only?.assetId !== undefined) q = q.where('asset_id', '=', only.assetId);
  const rows = await q.orderBy('vehicle_id').orderBy('asset_id').execute();
  return rows.map((r): Subject => (r.vehicle_id !== null ? { vehicleId: r.vehicle_id } : { assetId: r.asset_id! }));
}
