/** Tenant-scoped queries on hours-of-service records. Every function takes the company id first. */
import type { Kysely } from 'kysely';
import type { DbKind } from '../../storage/db.js';
import { notFound } from '../../core/errors.js';
import type { Database } from '../../storage/schema.js';
import { toIso } from '../../storage/values.js';
import { lockDriverForHos } from '../users/refs.js';
import type { Claim, ClaimKind, DutyRecord } from './engine/types.js';
import { clockOf } from './records.js';

/** `ended_at` of the duty record in effect now: sorts after every real instant. */
export const OPEN_END = '9999-12-31T23:59:59.999Z';

type Trx = Kysely<Database>;

/** Serializes writers of one driver's log (PostgreSQL row lock) and checks the driver exists. */
export async function lockDriver(trx: Trx, kind: DbKind, companyId: number, driverId: number): Promise<void> {
  if (!(await lockDriverForHos(trx, kind, companyId, driverId))) throw notFound(`driver ${driverId}`);
}

const activeDuty = (trx: Trx, companyId: number, driverId: number) =>
  trx
    .selectFrom('hos_events')
    .where('company_id', '=', companyId)
    .where('driver_id', '=', driverId)
    .where('kind', '=', 'duty_status')
    .where('record_status', '=', 1);

/**
 * Recomputes `ended_at` of the active duty records from the one in effect at `from` onward, so that each
 * ends where the next begins and the last is open.
 */
export async function rechain(trx: Trx, companyId: number, driverId: number, from: string): Promise<void> {
  const before = await activeDuty(trx, companyId, driverId)
    .select('occurred_at')
    .where('occurred_at', '<', from)
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const rows = await activeDuty(trx, companyId, driverId)
    .select(['id', 'occurred_at', 'ended_at'])
    .where('occurred_at', '>=', before?.occurred_at ?? from)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
  for (let i = 0; i < rows.length; i++) {
    const ended = rows[i + 1]?.occurred_at ?? OPEN_END;
    if (rows[i]!.ended_at !== ended)
      await trx.updateTable('hos_events').set({ ended_at: ended }).where('id', '=', rows[i]!.id).execute();
  }
}

/** The active duty record in effect at instant t (the last one at or before it). */
export async function dutyAt(trx: Trx, companyId: number, driverId: number, t: string) {
  return activeDuty(trx, companyId, driverId)
    .selectAll()
    .where('occurred_at', '<=', t)
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Active duty records that begin inside [from, to). */
export async function dutyBetween(trx: Trx, companyId: number, driverId: number, from: string, to: string) {
  return activeDuty(trx, companyId, driverId)
    .selectAll()
    .where('occurred_at', '>=', from)
    .where('occurred_at', '<', to)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
}

export async function nextSequence(trx: Trx, companyId: number, driverId: number): Promise<number> {
  const row = await trx
    .selectFrom('hos_events')
    .select('sequence_id')
    .where('company_id', '=', companyId)
    .where('driver_id', '=', driverId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? (row.sequence_id + 1) % 0x10000 : 0;
}

export interface DriverWindow {
  records: DutyRecord[];
  claims: Claim[];
}

/**
 * The engine's input for each driver: active duty records in effect at any time in [from, to] (the first
 * one may begin before `from`) and the exception claims made in it. One query for all the drivers.
 */
export async function loadWindows(
  db: Trx,
  companyId: number,
  driverIds: number[],
  from: number,
  to: number,
): Promise<Map<number, DriverWindow>> {
  const out = new Map<number, DriverWindow>();
  for (const id of driverIds) out.set(id, { records: [], claims: [] });
  if (driverIds.length === 0) return out;
  const window = (kind: string) =>
    db
      .selectFrom('hos_events')
      .where('company_id', '=', companyId)
      .where('driver_id', 'in', driverIds)
      .where('ended_at', '>', toIso(from))
      .where('record_status', '=', 1)
      .where('kind', '=', kind)
      .where('occurred_at', '<=', toIso(to));
  // ended_at orders an active chain as occurred_at does, and it is the order of the covering index. Two
  // records of one instant (both kept, docs/hos.md) make the first last no time: its ended_at equals
  // that of the record before it, so occurred_at breaks the tie.
  const [duty, claims] = await Promise.all([
    window('duty_status')
      .select(['driver_id', 'status', 'occurred_at'])
      .orderBy('driver_id')
      .orderBy('ended_at')
      .orderBy('occurred_at')
      .execute(),
    window('exception').select(['driver_id', 'code', 'occurred_at']).execute(),
  ]);
  let w: DriverWindow | undefined;
  let wid = -1;
  for (const r of duty) {
    if (r.driver_id !== wid) w = out.get((wid = r.driver_id));
    w!.records.push({ at: Date.parse(r.occurred_at), status: clockOf(r.status) });
  }
  for (const r of claims)
    out.get(r.driver_id)!.claims.push({ at: Date.parse(r.occurred_at), kind: r.code as ClaimKind });
  return out;
}
