/**
 * Replay: rebuilds a vehicle's derived data from its stored records with the same processors. The
 * processors run over the whole history from a fresh state (so the state at `from` is right), rows
 * starting at or after `from` are deleted and rewritten, rows that started earlier are upserted with
 * their replayed values, utilization buckets from `from` on are recomputed, and the persisted state
 * becomes the replayed one. Nothing is announced again (no domain events). One transaction per
 * vehicle: readers see the old or the new derived data, never a mix.
 */
import type { Db } from '../../storage/db.js';
import { json, toIso } from '../../storage/values.js';
import type { Thresholds } from '../thresholds.js';
import { initialState, runPipeline } from '../processors/pipeline.js';
import type { Output } from '../processors/types.js';
import { writeOutputs } from './outputs.js';
import { envOf, loadGeofences, PENDING_COLUMNS, recordIn } from './process.js';
import { writeTx } from './tx.js';

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
    if (o.kind === 'geofence') return { key: `g${o.row.geofenceId}@${o.row.start}`, start: o.row.start, end: o.row.end };
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

export interface ReplayResult {
  vehicleId: number;
  records: number;
  outputs: number;
}

export async function replayVehicle(db: Db, companyId: number, vehicleId: number, from: Date | null, th: Thresholds): Promise<ReplayResult> {
  const fromIso = from ? from.toISOString() : '';
  const fromMs = from ? from.getTime() : -Infinity;
  return writeTx(db, async (trx) => {
    let q = trx.selectFrom('telemetry_state').selectAll().where('subject', '=', `v:${vehicleId}`).where('company_id', '=', companyId);
    if (db.kind === 'postgres') q = q.forUpdate();
    const st = await q.executeTakeFirst();
    if (!st) return { vehicleId, records: 0, outputs: 0 };
    const v = (t: 'driving_periods' | 'idle_events' | 'driver_performance_events' | 'geofence_events') =>
      trx.deleteFrom(t).where('vehicle_id', '=', vehicleId).where('start_time', '>=', fromIso).execute();
    await Promise.all([v('driving_periods'), v('idle_events'), v('driver_performance_events'), v('geofence_events')]);
    await trx.deleteFrom('fault_codes').where('vehicle_id', '=', vehicleId).where('first_observed_at', '>=', fromIso).execute();
    await trx.deleteFrom('utilization_buckets').where('vehicle_id', '=', vehicleId).where('bucket_start', '>=', fromIso).execute();

    const env = envOf(th, await loadGeofences(trx, companyId));
    const filter = new FromFilter(fromMs);
    let state = initialState();
    let records = 0;
    let outputs = 0;
    let after: { t: string; id: number } | null = null;
    for (let round = 0; round < 100_000; round++) {
      let rq = trx.selectFrom('telemetry_records').select([...PENDING_COLUMNS, 'id']).where('vehicle_id', '=', vehicleId);
      if (after) {
        const a = after;
        rq = rq.where((eb) => eb.or([eb('fix_time', '>', a.t), eb.and([eb('fix_time', '=', a.t), eb('id', '>', a.id)])]));
      }
      const rows = await rq.orderBy('fix_time').orderBy('id').limit(CHUNK).execute();
      if (rows.length === 0) break;
      const run = runPipeline(state, rows.map(recordIn), env);
      state = run.state;
      const kept = run.outputs.filter((o) => filter.keep(o));
      await writeOutputs(trx, { companyId, vehicleId, announce: false }, kept);
      records += rows.length;
      outputs += kept.length;
      const last = rows[rows.length - 1];
      after = { t: last.fix_time, id: Number(last.id) };
      if (rows.length < CHUNK) break;
    }
    const open = filter.stillOpen();
    await writeOutputs(trx, { companyId, vehicleId, announce: false }, open);
    outputs += open.length;
    await trx
      .updateTable('telemetry_state')
      .set({ state: json(state), horizon: after?.t ?? null, updated_at: toIso(Date.now()) })
      .where('subject', '=', st.subject)
      .execute();
    return { vehicleId, records, outputs };
  });
}

/** Vehicles of a company that have stored telemetry (optionally just one). */
export async function replayTargets(db: Db, companyId: number, vehicleId?: number): Promise<number[]> {
  let q = db.kysely.selectFrom('telemetry_state').select('vehicle_id').where('company_id', '=', companyId).where('vehicle_id', 'is not', null);
  if (vehicleId !== undefined) q = q.where('vehicle_id', '=', vehicleId);
  return (await q.orderBy('vehicle_id').execute()).map((r) => r.vehicle_id!);
}
