/**
 * Running the engine for stored drivers. Each driver's records are loaded from the history its own
 * ruleset needs before the instant (historyMs: the longest window of its rules), never another driver's:
 * a driver's clocks do not depend on who else is on the page. Re-evaluating one driver after a change
 * reaches back further so that violations up to two days before the change (a split pair completed
 * retroactively) are judged with their full context.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { nowIso, toIso } from '../../storage/values.js';
import { recordEvent } from '../../events/outbox.js';
import type { Tenant } from '../tenant.js';
import { evaluate, historyMs } from './engine/index.js';
import { Days } from './engine/days.js';
import { DAY, type Evaluation } from './engine/types.js';
import { hosDrivers, type HosDriver } from './drivers.js';
import { loadWindows, lockDriver, type DriverWindow } from './store.js';
import type { Db } from '../../storage/db.js';
import { AppError } from '../../core/errors.js';
import { syncViolations } from './violation-store.js';
import { findUser, updateUser } from '../users/repository.js';

type Trx = Kysely<Database>;

/** How far back a driver's window reaches before the evaluated instant. */
export const lookbackMs = (d: HosDriver) => historyMs(d.ruleset);
/** Violations this long before a change may change with it. */
export const RETRO_MS = 2 * DAY;

const daysCache = new Map<string, Days>();
const daysOf = (zone: string, hour: number) => {
  const key = `${zone}|${hour}`;
  let d = daysCache.get(key);
  if (!d) daysCache.set(key, (d = new Days(zone, hour)));
  return d;
};

/**
 * A driver's evaluation at `at` from the history its ruleset needs, out of a window loaded from that far
 * back or further (records beginning before it are left out as the window query would leave them), so the
 * answer is the same whatever else was loaded with it.
 */
export function evaluateWindow(driver: HosDriver, w: DriverWindow, at: number): Evaluation {
  const from = at - lookbackMs(driver);
  const records = w.records.filter((r, i) => r.at <= at && (w.records[i + 1]?.at ?? Infinity) > from);
  const claims = w.claims.filter((c) => c.at > from && c.at <= at);
  const rs = driver.ruleset;
  return evaluate(rs, records, claims, at, daysOf(rs.zone, rs.dayStartHour));
}

export interface Evaluated {
  driver: HosDriver;
  evaluation: Evaluation;
}

/** The clocks of each driver at instant `at`, computed from stored records. */
export async function evaluateDrivers(
  db: Trx,
  t: Tenant,
  driverIds: number[],
  at: number,
): Promise<Map<number, Evaluated>> {
  const drivers = await hosDrivers(db, t.companyId, driverIds);
  // One window query per distinct lookback (a handful of rulesets), each for the drivers that need it.
  const groups = new Map<number, number[]>();
  for (const [id, d] of drivers) {
    const back = lookbackMs(d);
    groups.set(back, [...(groups.get(back) ?? []), id]);
  }
  const loaded = await Promise.all([...groups].map(([back, ids]) => loadWindows(db, t.companyId, ids, at - back, at)));
  const out = new Map<number, Evaluated>();
  for (const windows of loaded) {
    for (const [id, w] of windows) {
      const driver = drivers.get(id)!;
      out.set(id, { driver, evaluation: evaluateWindow(driver, w, at) });
    }
  }
  return out;
}

/**
 * Re-evaluates one driver after a change at `changedFrom` (or the passing of time): stores violations
 * that opened, closed or disappeared (each announced as hos_violation_upserted), the driver's next check
 * instant, and `users.duty_status` when the current status changed (user_duty_status_updated).
 */
export async function reevaluateDriver(
  trx: Trx,
  t: Tenant,
  driverId: number,
  changedFrom: number,
  at: number,
): Promise<Evaluation | null> {
  const driver = (await hosDrivers(trx, t.companyId, [driverId])).get(driverId);
  if (!driver) return null;
  const from = Math.min(changedFrom, at) - RETRO_MS;
  const w = (await loadWindows(trx, t.companyId, [driverId], from - lookbackMs(driver), at)).get(driverId)!;
  const rs = driver.ruleset;
  const ev = evaluate(rs, w.records, w.claims, at, daysOf(rs.zone, rs.dayStartHour));
  await syncViolations(trx, t, driver, ev.violations, from);
  const state = { evaluated_at: toIso(at), next_check_at: ev.nextCheckAt === null ? null : toIso(ev.nextCheckAt) };
  const updated = await trx
    .updateTable('hos_driver_states')
    .set(state)
    .where('driver_id', '=', driverId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await trx
      .insertInto('hos_driver_states')
      .values({ company_id: t.companyId, driver_id: driverId, ...state })
      .execute();
  }
  await updateDutyStatus(trx, t, driver, at);
  return ev;
}

async function updateDutyStatus(trx: Trx, t: Tenant, driver: HosDriver, at: number): Promise<void> {
  const current = await trx
    .selectFrom('hos_events')
    .select('status')
    .where('company_id', '=', t.companyId)
    .where('driver_id', '=', driver.id)
    .where('kind', '=', 'duty_status')
    .where('record_status', '=', 1)
    .where('occurred_at', '<=', toIso(at))
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const status = current?.status ?? 'off_duty';
  if (status === driver.duty_status) return;
  const now = nowIso();
  await updateUser(trx, t.companyId, driver.id, { duty_status: status, updated_at: now });
  const { password_hash: _secret, ...user } = (await findUser(trx, t.companyId, driver.id))!;
  await recordEvent(trx, {
    companyId: t.companyId,
    action: 'user_duty_status_updated',
    trigger: 'updated',
    subject: { type: 'user', id: driver.id },
    data: user,
  });
}

/**
 * Re-evaluates the company's drivers whose result can have changed by `at` without a new record (a limit
 * reached while driving, a day boundary): at most `limit` of them, oldest first. Returns how many.
 */
export async function refreshDue(db: Db, t: Tenant, at: number, limit = 200): Promise<number> {
  const due = await db.kysely
    .selectFrom('hos_driver_states')
    .select(['driver_id', 'evaluated_at'])
    .where('company_id', '=', t.companyId)
    .where('next_check_at', '<=', toIso(at))
    .orderBy('next_check_at')
    .limit(limit)
    .execute();
  for (const d of due) {
    await db.kysely.transaction().execute(async (trx) => {
      try {
        await lockDriver(trx, db.kind, t.companyId, d.driver_id);
      } catch (err) {
        // No longer a driver of this company: nothing to keep watching.
        if (!(err instanceof AppError && err.code === 'not_found')) throw err;
        await trx.deleteFrom('hos_driver_states').where('driver_id', '=', d.driver_id).execute();
        return;
      }
      await reevaluateDriver(trx, t, d.driver_id, Date.parse(d.evaluated_at), at);
    });
  }
  return due.length;
}
