/**
 * The shipper's side of freight visibility: tracking subscriptions to shared vehicles
 * (`POST`/`PUT`/`DELETE /v1/freight_visibility/subscribe`, docs/freight-visibility.md). A subscription
 * needs one carrier share covering its whole window; subscriptions of one shipper to one vehicle never
 * overlap (checked under a row lock on PostgreSQL; SQLite runs one writer at a time).
 */
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { nowIso } from '../../storage/values.js';
import { AppError, notFound, validation } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import type { FreightSubscriptionsTable } from './tables.js';
import { parseInstant } from '../inspections/instant.js';
import { carrierVehicle, lockVehicleRow, vehicleNumbers, type CarrierVehicleKey } from '../vehicles/carriers.js';
import { resolveCarrier } from './parties.js';
import { sharesOfVehicles } from './shares.js';
import { overlaps, shareCovering, windowProblem } from './visibility.js';
import type { CancelInput, ModifyInput, SubscribeInput } from './input.js';

export type SubscriptionRow = Selectable<FreightSubscriptionsTable>;

const present = (v: unknown) => v !== undefined && v !== null && String(v).trim() !== '';

function intParam(field: string, v: string | number): number {
  const s = String(v).trim();
  if (!/^\d{1,10}$/.test(s) || Number(s) < 1 || Number(s) > 2_147_483_647)
    throw validation(field, `must be a positive integer id, got "${s}"`);
  return Number(s);
}

function window(input: { start_time?: string; end_time?: string }) {
  if (!present(input.start_time)) throw validation('start_time', 'is required');
  if (!present(input.end_time)) throw validation('end_time', 'is required');
  return { start: parseInstant('start_time', input.start_time!), end: parseInstant('end_time', input.end_time!) };
}

function checkWindow(start: Date, end: Date): void {
  const problem = windowProblem(start.getTime(), end.getTime(), Date.now());
  if (problem) throw validation(problem[0], problem[1]);
}

/** The carrier's vehicle a request names, which must be shared (now or ever) with the shipper. */
async function sharedVehicle(db: Db, shipperId: number, carrierId: number, input: SubscribeInput) {
  let key: CarrierVehicleKey;
  let what: string;
  if (present(input.vehicle_id)) {
    const id = intParam('vehicle_id', input.vehicle_id!);
    key = { id };
    what = `vehicle_id: vehicle ${id}`;
  } else if (present(input.vehicle_name)) {
    key = { number: input.vehicle_name!.trim() };
    what = `vehicle_name: vehicle "${input.vehicle_name!.trim()}"`;
  } else if (present(input.driver_id)) {
    const id = intParam('driver_id', input.driver_id!);
    key = { currentDriverId: id };
    what = `driver_id: vehicle driven by user ${id}`;
  } else {
    throw validation('vehicle_id', 'is required (or vehicle_name, or driver_id)');
  }
  const vehicle = await carrierVehicle(db.kysely, carrierId, key);
  const shares = vehicle ? await sharesOfVehicles(db, shipperId, [vehicle.id]) : [];
  // A vehicle the carrier never shared with the caller is not revealed: "not found", as for a foreign id.
  if (!vehicle || shares.length === 0) throw notFound(what);
  return { vehicle, shares };
}

/** Existing subscriptions of the shipper to the vehicle that are not cancelled, except one. */
async function assertNoOverlap(
  trx: Kysely<Database>,
  shipperId: number,
  vehicleId: number,
  start: Date,
  end: Date,
  exceptId = 0,
) {
  const rows = await trx
    .selectFrom('freight_subscriptions')
    .select(['id', 'start_time', 'end_time'])
    .where('shipper_company_id', '=', shipperId)
    .where('vehicle_id', '=', vehicleId)
    .where('cancelled_at', 'is', null)
    .where('id', '!=', exceptId)
    .execute();
  const w = { start: start.getTime(), end: end.getTime() };
  const clash = rows.find((r) => overlaps(w, { start: Date.parse(r.start_time), end: Date.parse(r.end_time) }));
  if (clash) {
    throw validation(
      'start_time',
      `overlaps tracking subscription ${clash.id} (${clash.start_time} – ${clash.end_time}) of the same vehicle`,
    );
  }
}

/** Serializes writers per vehicle on PostgreSQL, so the overlap check holds under concurrency. */
async function lockVehicle(db: Db, trx: Kysely<Database>, vehicleId: number) {
  await lockVehicleRow(trx, db.kind, vehicleId);
}

function coverage(
  shares: Array<{ starts_at: string; ends_at: string; revoked_at: string | null }>,
  vehicleId: number,
  start: Date,
  end: Date,
) {
  if (!shareCovering(shares, start.getTime(), end.getTime())) {
    throw validation(
      'end_time',
      `vehicle ${vehicleId} is not shared with your company for the whole window ${start.toISOString()} – ${end.toISOString()}`,
    );
  }
}

export async function subscribe(db: Db, t: Tenant, input: SubscribeInput): Promise<SubscriptionRow> {
  if (present(input.asset_id))
    throw validation('asset_id', 'cannot be tracked: only vehicles can be subscribed to here');
  if (!present(input.company_id) && !present(input.dot_id)) throw validation('company_id', 'or dot_id is required');
  if (!present(input.vehicle_id) && !present(input.vehicle_name) && !present(input.driver_id)) {
    throw validation('vehicle_id', 'is required (or vehicle_name, or driver_id)');
  }
  const { start, end } = window(input);
  checkWindow(start, end);
  for (const f of ['load_id', 'load_details'] as const) {
    if (input[f] !== undefined && String(input[f]).length > (f === 'load_id' ? 255 : 2000))
      throw validation(f, 'is too long');
  }
  const now = nowIso();
  const carrier = await resolveCarrier(db, t.companyId, input, now);
  const { vehicle, shares } = await sharedVehicle(db, t.companyId, carrier.id, input);
  if (vehicle.status !== 'active')
    throw validation('vehicle_id', `vehicle ${vehicle.id} is ${vehicle.status}; only active vehicles can be tracked`);
  coverage(shares, vehicle.id, start, end);
  const id = await db.kysely.transaction().execute(async (trx) => {
    await lockVehicle(db, trx, vehicle.id);
    await assertNoOverlap(trx, t.companyId, vehicle.id, start, end);
    const row = await trx
      .insertInto('freight_subscriptions')
      .values({
        shipper_company_id: t.companyId,
        carrier_company_id: carrier.id,
        vehicle_id: vehicle.id,
        start_time: start.toISOString(),
        end_time: end.toISOString(),
        load_id: present(input.load_id) ? String(input.load_id).trim() : null,
        load_details: present(input.load_details) ? String(input.load_details) : null,
        cancelled_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return getSubscription(db, t, id);
}

export async function getSubscription(db: Db, t: Tenant, id: number): Promise<SubscriptionRow> {
  const row = await db.kysely
    .selectFrom('freight_subscriptions')
    .selectAll()
    .where('shipper_company_id', '=', t.companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`tracking subscription ${id}`);
  return row;
}

async function ownLiveSubscription(db: Db, t: Tenant, raw: string | number | undefined, verb: string) {
  if (!present(raw)) throw validation('tracking_subscription_id', 'is required');
  const sub = await getSubscription(db, t, intParam('tracking_subscription_id', raw!));
  if (sub.cancelled_at)
    throw new AppError('invalid_state', `tracking subscription ${sub.id} is cancelled and cannot be ${verb}`);
  if (Date.parse(sub.end_time) <= Date.now())
    throw new AppError('invalid_state', `tracking subscription ${sub.id} has already ended and cannot be ${verb}`);
  return sub;
}

/** `PUT …/subscribe`: widens a subscription's window; the start can only move earlier and the end later. */
export async function modifySubscription(db: Db, t: Tenant, input: ModifyInput): Promise<SubscriptionRow> {
  const sub = await ownLiveSubscription(db, t, input.tracking_subscription_id, 'modified');
  if (!present(input.start_time) && !present(input.end_time)) throw validation('start_time', 'or end_time is required');
  const start = present(input.start_time) ? parseInstant('start_time', input.start_time!) : new Date(sub.start_time);
  const end = present(input.end_time) ? parseInstant('end_time', input.end_time!) : new Date(sub.end_time);
  if (start.toISOString() > sub.start_time)
    throw validation('start_time', `can only move earlier than ${sub.start_time}`);
  if (end.toISOString() < sub.end_time) throw validation('end_time', `can only move later than ${sub.end_time}`);
  checkWindow(start, end);
  coverage(await sharesOfVehicles(db, t.companyId, [sub.vehicle_id]), sub.vehicle_id, start, end);
  await db.kysely.transaction().execute(async (trx) => {
    await lockVehicle(db, trx, sub.vehicle_id);
    await assertNoOverlap(trx, t.companyId, sub.vehicle_id, start, end, sub.id);
    await trx
      .updateTable('freight_subscriptions')
      .set({ start_time: start.toISOString(), end_time: end.toISOString(), updated_at: nowIso() })
      .where('id', '=', sub.id)
      .execute();
  });
  return getSubscription(db, t, sub.id);
}

/** `DELETE …/subscribe`: cancels a subscription that has not ended; it shows nothing from then on. */
export async function cancelSubscription(
  db: Db,
  t: Tenant,
  raw: CancelInput['tracking_subscription_id'],
): Promise<void> {
  const sub = await ownLiveSubscription(db, t, raw, 'cancelled');
  const now = nowIso();
  await db.kysely
    .updateTable('freight_subscriptions')
    .set({ cancelled_at: now, updated_at: now })
    .where('id', '=', sub.id)
    .execute();
}

/** The shipper's subscriptions to one carrier that are not cancelled and not ended, by vehicle. */
export async function activeSubscriptions(
  db: Db,
  t: Tenant,
  carrierId: number,
  f: { vehicle_id?: string | number; vehicle_name?: string },
) {
  let q = db.kysely
    .selectFrom('freight_subscriptions as s')
    .innerJoin(vehicleNumbers(db.kysely).as('v'), 'v.id', 's.vehicle_id')
    .select(['s.id', 's.vehicle_id', 'v.number', 's.start_time', 's.end_time', 's.load_id'])
    .where('s.shipper_company_id', '=', t.companyId)
    .where('s.carrier_company_id', '=', carrierId)
    .where('s.cancelled_at', 'is', null)
    .where('s.end_time', '>', nowIso());
  if (present(f.vehicle_id)) q = q.where('s.vehicle_id', '=', intParam('vehicle_id', f.vehicle_id!));
  if (present(f.vehicle_name)) q = q.where('v.number', '=', f.vehicle_name!.trim());
  return q.orderBy('s.vehicle_id').orderBy('s.start_time').execute();
}
