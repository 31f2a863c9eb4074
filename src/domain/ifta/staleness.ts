/**
 * Which vehicle days must be recomputed. IFTA results are materialized per vehicle and UTC day and
 * recomputed on demand: before a report reads them, every location record stored since the last look
 * (telemetry_records ids above the company's watermark) marks the days it can change as stale, and
 * the report recomputes the stale days it needs (recompute.ts).
 *
 * A new point changes the segments that end at it, at its neighbours and at the neighbours' neighbours
 * (a neighbour may now be accepted or dropped by the cleaning rule), so the days marked are the point's
 * day, the day of the record before the earliest new point and the days of the two records after the
 * latest one. A stretch over water is placed with the records up to reach() away (docs/ifta.md), so a
 * record that near the start or the end of its day also marks the neighbouring day, when that day has
 * records that near. A calibration change marks every computed day from its effective time on, and
 * the day before when the time is that near its start.
 *
 * Ids are taken in commit order: on PostgreSQL the highest id is read under a momentary SHARE lock on
 * telemetry_records, which waits for the inserts in flight, so no id below the watermark can commit
 * later; SQLite has one writer at a time, so ids commit in order anyway.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import type { Kysely } from 'kysely';
import { nowIso, toIso } from '../../storage/values.js';
import { writeTx } from '../../telemetry/store/tx.js';
import { committedMaxRecordId, locatedDaysBetween, locatedFixTimes } from '../../telemetry/queries/located.js';
import { DEFAULT_RULES, type AllocationRules } from './rules.js';

export const DAY_MS = 86_400_000;
/** How far from a record the fragments it can change lie: the longest re-entry stretch and two segments. */
export const reach = (rules: AllocationRules = DEFAULT_RULES) => rules.reentryMaxMs + 2 * rules.gapTimeMs;
const startOf = (day: string) => Date.parse(`${day}T00:00:00Z`);
export const dayOf = (iso: string) => iso.slice(0, 10);
export const addDay = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

const hasRecords = async (k: Kysely<Database>, companyId: number, vehicleId: number, fromMs: number, toMs: number) =>
  !!(await locatedFixTimes(k, companyId, vehicleId)
    .where('fix_time', '>=', toIso(fromMs))
    .where('fix_time', '<', toIso(toMs))
    .limit(1)
    .executeTakeFirst());

/** Marks stale every (vehicle, day) given; a new token makes a recomputation in progress keep the mark. */
export async function markStale(
  k: Kysely<Database>,
  companyId: number,
  marks: Array<{ vehicleId: number; day: string }>,
): Promise<void> {
  const seen = new Set<string>();
  const rows = [];
  for (const m of marks) {
    const key = `${m.vehicleId}:${m.day}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push({ company_id: companyId, vehicle_id: m.vehicleId, day: m.day, token: randomUUID() });
  }
  for (let i = 0; i < rows.length; i += 500) {
    await k
      .insertInto('ifta_stale_days')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['vehicle_id', 'day']).doUpdateSet((eb) => ({ token: eb.ref('excluded.token') })))
      .execute();
  }
}

/** Turns the company's records stored since the last call into stale days. Returns how many days were marked. */
export async function markNewRecords(db: Db, companyId: number): Promise<number> {
  const top = await committedMaxRecordId(db);
  const progress = await db.kysely
    .selectFrom('ifta_progress')
    .select('last_record_id')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  const from = Number(progress?.last_record_id ?? 0);
  if (top <= from) return 0;
  const groups = await locatedDaysBetween(db.kysely, companyId, from, top);
  const marks: Array<{ vehicleId: number; day: string }> = [];
  const days = new Set(groups.map((g) => `${g.vehicle_id}:${g.day}`));
  for (const g of groups) {
    const v = g.vehicle_id!;
    marks.push({ vehicleId: v, day: g.day });
    if (!days.has(`${v}:${addDay(g.day, -1)}`)) {
      const prev = await locatedFixTimes(db.kysely, companyId, v)
        .where('fix_time', '<', g.first)
        .orderBy('fix_time', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (prev) marks.push({ vehicleId: v, day: dayOf(prev.fix_time) });
    }
    if (!days.has(`${v}:${addDay(g.day, 1)}`) || !days.has(`${v}:${addDay(g.day, 2)}`)) {
      const next = await locatedFixTimes(db.kysely, companyId, v)
        .where('fix_time', '>', g.last)
        .orderBy('fix_time')
        .limit(2)
        .execute();
      for (const r of next) marks.push({ vehicleId: v, day: dayOf(r.fix_time) });
    }
    const start = startOf(g.day),
      end = start + DAY_MS,
      w = reach();
    if (
      Date.parse(g.first) < start + w &&
      !days.has(`${v}:${addDay(g.day, -1)}`) &&
      (await hasRecords(db.kysely, companyId, v, start - w, start))
    ) {
      marks.push({ vehicleId: v, day: addDay(g.day, -1) });
    }
    if (
      Date.parse(g.last) >= end - w &&
      !days.has(`${v}:${addDay(g.day, 1)}`) &&
      (await hasRecords(db.kysely, companyId, v, end, end + w))
    ) {
      marks.push({ vehicleId: v, day: addDay(g.day, 1) });
    }
  }
  await writeTx(db, async (trx) => {
    await markStale(trx, companyId, marks);
    await trx
      .insertInto('ifta_progress')
      .values({ company_id: companyId, last_record_id: top, updated_at: nowIso() })
      .onConflict((oc) =>
        oc
          .column('company_id')
          .doUpdateSet({ last_record_id: top, updated_at: nowIso() })
          .where('ifta_progress.last_record_id', '<', top),
      )
      .execute();
  });
  return marks.length;
}

/**
 * Marks stale the days a calibration change can alter: every day of the vehicle with computed results
 * from `fromIso` on (from the day before when `fromIso` is within reach() of its day's start), and the
 * day of its first located record at or after `fromIso`.
 */
export async function markCalibrationChange(
  k: Kysely<Database>,
  companyId: number,
  vehicleId: number,
  fromIso: string,
): Promise<void> {
  const day = dayOf(fromIso);
  const firstDay = Date.parse(fromIso) < startOf(day) + reach() ? addDay(day, -1) : day;
  const computed = await k
    .selectFrom('ifta_fragments')
    .select('owner_day')
    .distinct()
    .where('vehicle_id', '=', vehicleId)
    .where('owner_day', '>=', firstDay)
    .execute();
  const first = await locatedFixTimes(k, companyId, vehicleId)
    .where('fix_time', '>=', fromIso)
    .orderBy('fix_time')
    .limit(1)
    .executeTakeFirst();
  const marks = computed.map((r) => ({ vehicleId, day: r.owner_day }));
  if (first) marks.push({ vehicleId, day: dayOf(first.fix_time) });
  await markStale(k, companyId, marks);
}
