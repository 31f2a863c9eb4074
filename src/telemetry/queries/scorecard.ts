/**
 * The per-driver safety summary of `GET /v1/scorecard_summary`: every driver of the company (as driver
 * utilization lists them), their kilometers from the utilization buckets and their derived driver
 * performance events (hard brakes, accelerations, corners, speeding; on start_time) over one window,
 * and a 0–100 score. The score (docs/telemetry.md, "Speeding events and the scorecard summary"):
 * each event costs points by type (SCORE_WEIGHTS), normalised per 100 miles driven (docs/reference/domain-rules.md
 * §6.4), a driver with fewer than SCORE_MIN_MILES counted as having driven that many:
 * score = max(0, round(100 − SCORE_POINTS_PER_100_MI × points × 100 / max(miles, SCORE_MIN_MILES))).
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Tenant } from '../../domain/tenant.js';
import { kmToMi } from '../units.js';
import type { Window } from './derived.js';
import { driverUtilization } from './utilization.js';

export const SCORE_WEIGHTS = { hard_brake: 1, hard_accel: 1, hard_corner: 1, speeding: 2 } as const;
export const SCORE_POINTS_PER_100_MI = 10;
export const SCORE_MIN_MILES = 100;

export type EventCounts = Record<keyof typeof SCORE_WEIGHTS | 'coached', number>;

const none = (): EventCounts => ({ hard_brake: 0, hard_accel: 0, hard_corner: 0, speeding: 0, coached: 0 });

export function safetyScore(c: EventCounts, km: number): number {
  const points = (Object.keys(SCORE_WEIGHTS) as Array<keyof typeof SCORE_WEIGHTS>).reduce(
    (sum, k) => sum + SCORE_WEIGHTS[k] * c[k],
    0,
  );
  const miles = Math.max(kmToMi(km), SCORE_MIN_MILES);
  return Math.max(0, Math.round(100 - (SCORE_POINTS_PER_100_MI * points * 100) / miles));
}

async function eventCounts(db: Db, t: Tenant, w: Window, driverIds: number[]): Promise<Map<number, EventCounts>> {
  const out = new Map<number, EventCounts>();
  if (driverIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('driver_performance_events')
    .select([
      'driver_id',
      'type',
      sql<number>`count(*)`.as('n'),
      sql<number>`sum(case when coaching_status = 'coached' then 1 else 0 end)`.as('coached'),
    ])
    .where('company_id', '=', t.companyId)
    .where('start_time', '>=', w.start.toISOString())
    .where('start_time', '<', w.end.toISOString())
    .where('driver_id', 'in', driverIds)
    .groupBy(['driver_id', 'type'])
    .execute();
  for (const r of rows) {
    const c = out.get(Number(r.driver_id)) ?? none();
    if (r.type in SCORE_WEIGHTS) c[r.type as keyof typeof SCORE_WEIGHTS] += Number(r.n);
    c.coached += Number(r.coached);
    out.set(Number(r.driver_id), c);
  }
  return out;
}

/** A page of drivers (id order) with their kilometers, event counts and score over the window. */
export async function scorecardSummary(
  db: Db,
  t: Tenant,
  w: Window,
  driverIds: number[] | undefined,
  limit: number,
  offset: number,
) {
  const { rows, total } = await driverUtilization(db, t, w, driverIds, limit, offset);
  const counts = await eventCounts(
    db,
    t,
    w,
    rows.map((r) => r.driver.id),
  );
  return {
    total,
    rows: rows.map(({ driver, totals }) => {
      const c = counts.get(driver.id) ?? none();
      return { driver, km: totals.distance_km, counts: c, score: safetyScore(c, totals.distance_km) };
    }),
  };
}
