/**
 * Recomputes stale vehicle days: loads the days' located records with a margin of whole days before and
 * after (contextMs: what the placement of a stretch over water can depend on) plus three records
 * before and one after (the context the cleaning and the segment across midnight need), applies the
 * vehicle's odometer calibrations, runs the allocator over the segments ending on those days, and
 * replaces the days' fragments in one transaction. A stale mark is removed only if nobody re-marked it
 * meanwhile.
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { toIso } from '../../storage/values.js';
import { writeTx } from '../../telemetry/store/tx.js';
import { locatedFixes } from '../../telemetry/queries/located.js';
import { removedBefore } from '../../storage/partitions/horizon.js';
import { allocate } from './allocate.js';
import { jurisdictionIndex } from './boundaries.js';
import { contextMs, DEFAULT_RULES, type AllocationRules, type Fragment, type Track } from './rules.js';
import { calibrationsOf, offsetAt, type Calibration } from './calibrations.js';
import { DAY_MS, addDay, markNewRecords } from './staleness.js';
import type { IftaFragmentsTable } from './tables.js';

/** Jurisdiction code of distance that no jurisdiction could be found for. */
export const UNPLACED = '--';
/** Stale days recomputed together for one vehicle, at most. */
const RUN_DAYS = 7;
const CONTEXT_BEFORE = 3;

type Point = {
  fix_time: string;
  lat: number | null;
  lon: number | null;
  odometer_km: number | null;
  speed_kph: number | null;
  type: string;
  data: string | null;
};

async function loadPoints(
  db: Db,
  companyId: number,
  vehicleId: number,
  fromIso: string,
  toIso_: string,
): Promise<Point[]> {
  const [before, main, after] = await Promise.all([
    locatedFixes(db.kysely, companyId, vehicleId)
      .where('fix_time', '<', fromIso)
      .orderBy('fix_time', 'desc')
      .orderBy('id', 'desc')
      .limit(CONTEXT_BEFORE)
      .execute(),
    locatedFixes(db.kysely, companyId, vehicleId)
      .where('fix_time', '>=', fromIso)
      .where('fix_time', '<', toIso_)
      .orderBy('fix_time')
      .orderBy('id')
      .execute(),
    locatedFixes(db.kysely, companyId, vehicleId)
      .where('fix_time', '>=', toIso_)
      .orderBy('fix_time')
      .orderBy('id')
      .limit(1)
      .execute(),
  ]);
  return [...before.reverse(), ...main, ...after];
}

/**
 * The allocator's track of the records: calibrated odometer, speed, and from a record's other fields
 * its accuracy (`accuracy_m`) and whether the engine is off (an engine-off record, or `ignition`
 * false on a fix): what the stationary rule uses (docs/ifta.md).
 */
export function trackOf(points: Point[], cals: Calibration[]): Track {
  const n = points.length;
  const track: Track = {
    n,
    t: new Float64Array(n),
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    odo: new Float64Array(n),
    speed: new Float64Array(n),
    accuracy: new Float64Array(n).fill(NaN),
    engineOff: new Uint8Array(n),
  };
  for (let i = 0; i < n; i++) {
    const p = points[i];
    const t = Date.parse(p.fix_time);
    track.t[i] = t;
    track.lat[i] = p.lat!;
    track.lon[i] = p.lon!;
    track.odo[i] = p.odometer_km === null ? NaN : p.odometer_km + (offsetAt(cals, t) ?? 0);
    track.speed![i] = p.speed_kph ?? NaN;
    if (p.data === null) continue;
    const d = JSON.parse(p.data) as Record<string, unknown>;
    if (typeof d.accuracy_m === 'number') track.accuracy![i] = d.accuracy_m;
    if ((p.type === 'engine' && d.state === 'off') || d.ignition === false) track.engineOff![i] = 1;
  }
  return track;
}

function fragmentRow(
  companyId: number,
  vehicleId: number,
  f: Fragment,
  cals: Calibration[],
  ownerMs: number,
): IftaFragmentsTable {
  const code = f.j >= 0 ? jurisdictionIndex().codes[f.j] : UNPLACED;
  const odo = (cal: number, t: number) => {
    if (!Number.isFinite(cal)) return { raw: null, calibrated: null };
    const o = offsetAt(cals, t);
    return { raw: cal - (o ?? 0), calibrated: o === null ? null : cal };
  };
  const s = odo(f.startOdo, f.startT);
  const e = odo(f.endOdo, f.endT);
  return {
    company_id: companyId,
    vehicle_id: vehicleId,
    owner_day: toIso(f.owner * ownerMs).slice(0, 10),
    bucket_start: toIso(f.bucketStart),
    jurisdiction: code,
    distance_km: f.distanceKm,
    gap_km: f.gapKm,
    start_time: toIso(Math.round(f.startT)),
    end_time: toIso(Math.round(f.endT)),
    start_lat: f.startLat,
    start_lon: f.startLon,
    end_lat: f.endLat,
    end_lon: f.endLon,
    start_odometer_km: s.raw,
    end_odometer_km: e.raw,
    start_calibrated_km: s.calibrated,
    end_calibrated_km: e.calibrated,
  };
}

/** Recomputes consecutive days `days` (sorted) of one vehicle; `tokens` are the stale marks read. */
export async function recomputeDays(
  db: Db,
  companyId: number,
  vehicleId: number,
  days: string[],
  tokens: string[],
  rules: AllocationRules = DEFAULT_RULES,
): Promise<number> {
  const fromIso = `${days[0]}T00:00:00.000Z`;
  const endIso = `${addDay(days[days.length - 1], 1)}T00:00:00.000Z`;
  // Points from a margin before and after the days, so that stretches over water are decided as for the whole track.
  const margin = contextMs(rules);
  const fromT = Date.parse(fromIso),
    toT = Date.parse(endIso);
  const [points, cals] = await Promise.all([
    loadPoints(db, companyId, vehicleId, toIso(fromT - margin), toIso(toT + margin)),
    calibrationsOf(db.kysely, vehicleId),
  ]);
  const result = allocate(trackOf(points, cals), jurisdictionIndex(), rules, { fromT, toT });
  const rows = result.fragments.map((f) => fragmentRow(companyId, vehicleId, f, cals, rules.ownerMs));
  await writeTx(db, async (trx) => {
    if (db.kind === 'postgres') await sql`select pg_advisory_xact_lock(${0x1f7a}, ${vehicleId})`.execute(trx);
    await trx.deleteFrom('ifta_fragments').where('vehicle_id', '=', vehicleId).where('owner_day', 'in', days).execute();
    for (let i = 0; i < rows.length; i += 400)
      await trx
        .insertInto('ifta_fragments')
        .values(rows.slice(i, i + 400))
        .execute();
    for (let i = 0; i < days.length; i++) {
      await trx
        .deleteFrom('ifta_stale_days')
        .where('vehicle_id', '=', vehicleId)
        .where('day', '=', days[i])
        .where('token', '=', tokens[i])
        .execute();
    }
  });
  return rows.length;
}

type StaleMark = { vehicle_id: number; day: string; token: string };

/**
 * The stale marks to act on. A day whose records (or the context before it that its recompute reads)
 * retention may have removed, one starting less than contextMs after the raw records' horizon, keeps
 * the fragments computed while they were there: a recompute from what is left would shrink or erase
 * distance that IFTA keeps four years after the raw records go (docs/storage.md, Retention). Its mark
 * is dropped; so a calibration dated before the horizon changes the days after it only.
 */
async function unfrozen(db: Db, stale: StaleMark[]): Promise<StaleMark[]> {
  const horizon = await removedBefore(db, 'telemetry_records');
  if (!horizon || stale.length === 0) return stale;
  const limit = Date.parse(horizon) + contextMs(DEFAULT_RULES);
  const frozen = stale.filter((s) => Date.parse(`${s.day}T00:00:00Z`) < limit);
  if (frozen.length)
    await writeTx(db, async (trx) => {
      for (const s of frozen)
        await trx
          .deleteFrom('ifta_stale_days')
          .where('vehicle_id', '=', s.vehicle_id)
          .where('day', '=', s.day)
          .where('token', '=', s.token)
          .execute();
    });
  return stale.filter((s) => !frozen.includes(s));
}

export interface RefreshScope {
  vehicleIds: number[];
  /** The UTC window the caller will read. */
  start: Date;
  end: Date;
}

/**
 * Brings the fragments a read of `scope` sees up to date: marks what new records changed, then
 * recomputes the stale days of those vehicles from the day before the window to the day after, and
 * the day of each vehicle's first record after the window (whose first segment may reach back into it).
 */
export async function refresh(db: Db, companyId: number, scope: RefreshScope): Promise<{ days: number }> {
  if (scope.vehicleIds.length === 0) return { days: 0 };
  await markNewRecords(db, companyId);
  const first = addDay(toIso(scope.start).slice(0, 10), -1);
  const last = addDay(toIso(new Date(scope.end.getTime() - 1)).slice(0, 10), 1);
  const stale = await unfrozen(
    db,
    await db.kysely
      .selectFrom('ifta_stale_days')
      .select(['vehicle_id', 'day', 'token'])
      .where('company_id', '=', companyId)
      .where('vehicle_id', 'in', scope.vehicleIds)
      .where('day', '>=', first)
      .orderBy('vehicle_id')
      .orderBy('day')
      .execute(),
  );
  const byVehicle = new Map<number, Array<{ day: string; token: string }>>();
  const later = new Map<number, Map<string, string>>();
  for (const s of stale) {
    if (s.day <= last) {
      if (!byVehicle.has(s.vehicle_id)) byVehicle.set(s.vehicle_id, []);
      byVehicle.get(s.vehicle_id)!.push({ day: s.day, token: s.token });
    } else {
      if (!later.has(s.vehicle_id)) later.set(s.vehicle_id, new Map());
      later.get(s.vehicle_id)!.set(s.day, s.token);
    }
  }
  const endIso = `${addDay(last, 1)}T00:00:00.000Z`;
  for (const [vehicleId, marks] of later) {
    const next = await locatedFixes(db.kysely, companyId, vehicleId)
      .where('fix_time', '>=', endIso)
      .orderBy('fix_time')
      .limit(1)
      .executeTakeFirst();
    const token = next ? marks.get(next.fix_time.slice(0, 10)) : undefined;
    if (next && token) {
      if (!byVehicle.has(vehicleId)) byVehicle.set(vehicleId, []);
      byVehicle.get(vehicleId)!.push({ day: next.fix_time.slice(0, 10), token });
    }
  }
  let days = 0;
  for (const [vehicleId, marks] of byVehicle) {
    let run: typeof marks = [];
    const flush = async () => {
      if (!run.length) return;
      await recomputeDays(
        db,
        companyId,
        vehicleId,
        run.map((r) => r.day),
        run.map((r) => r.token),
      );
      days += run.length;
      run = [];
    };
    for (const m of marks) {
      const prev = run[run.length - 1];
      if (prev && (Date.parse(m.day) - Date.parse(prev.day) !== DAY_MS || run.length >= RUN_DAYS)) await flush();
      run.push(m);
    }
    await flush();
  }
  return { days };
}
