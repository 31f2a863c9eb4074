/**
 * Use cases on dispatches, shared by /v1 and /v2 (the versions differ only in their wire mapping).
 * Every write runs in one transaction that first reads (on PostgreSQL: locks) the dispatch, plans the
 * new stops and trips, runs the triggers through the state machine, writes, and records its events.
 * The one-active-dispatch-per-driver rule is checked first for a clear message and enforced by a
 * partial unique index, which decides between concurrent requests.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { isUniqueViolation } from '../../storage/query.js';
import { bool, fromBool, nowIso } from '../../storage/values.js';
import { AppError, duplicate, notFound, validation } from '../../core/errors.js';
import { recordEvent } from '../../events/outbox.js';
import type { Tenant } from '../tenant.js';
import {
  apply,
  initialStatus,
  triggerFor,
  type DispatchStatus,
  type StopStatus,
  type Trigger,
} from './state-machine.js';
import { planStops, type Stop } from './stops.js';
import { planTrips, tripAssignment, tripTrigger, type Trip } from './trips.js';
import { checkDriver, checkVehicle, resolveStops } from './references.js';
import * as repo from './repository.js';
import { DISPATCH_DETAILS, detailsChange, dispatchDetailsOf, withDetails } from './details.js';
import type { DispatchInput } from './input.js';

export type { DispatchView, DispatchFilters } from './repository.js';

type Trx = Kysely<Database>;

export async function listDispatches(db: Db, t: Tenant, f: repo.DispatchFilters, limit: number, offset: number) {
  const { rows, total } = await repo.listDispatches(db.kysely, t.companyId, f, limit, offset);
  return { views: await repo.viewsOf(db.kysely, rows), total };
}

async function viewById(db: Kysely<Database>, id: number): Promise<repo.DispatchView> {
  const row = await db.selectFrom('dispatches').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return (await repo.viewsOf(db, [row]))[0];
}

const name = (row: { id: number; vendor_id: string | null }) =>
  row.vendor_id === null ? `dispatch ${row.id}` : `dispatch "${row.vendor_id}"`;

async function assertNoOtherActive(trx: Trx, driverId: number, exceptId: number) {
  const other = await repo.activeDispatchOf(trx, driverId, exceptId);
  if (other) throw activeConflict(driverId, other);
}

function activeConflict(driverId: number, other?: { id: number; vendor_id: string | null }) {
  const which = other ? ` (${name(other)})` : '';
  return new AppError(
    'invalid_state',
    `driver ${driverId} already has an active dispatch${which}; a driver can have at most one active dispatch`,
  );
}

/** Unique violations become 400s: the vendor_id taken, or the driver's one active dispatch. */
async function translate(
  db: Db,
  err: unknown,
  input: { vendor_id?: string | null },
  driverId: () => number | undefined,
): Promise<never> {
  if (!isUniqueViolation(err)) throw err;
  const e = err as { constraint?: string; message?: string };
  const text = `${e.constraint ?? ''} ${e.message ?? ''}`;
  const driver = driverId();
  if (/one_active|driver_id/.test(text) && driver !== undefined) {
    throw activeConflict(driver, await repo.activeDispatchOf(db.kysely, driver));
  }
  throw duplicate('vendor_id', String(input.vendor_id));
}

async function announce(trx: Trx, t: Tenant, id: number, trigger: 'created' | 'updated', from?: DispatchStatus) {
  const view = await viewById(trx, id);
  const data = { ...view.row, stops: view.stops, trips: view.trips };
  await recordEvent(trx, {
    companyId: t.companyId,
    action: 'dispatch_upserted',
    trigger,
    subject: { type: 'dispatch', id },
    data,
  });
  if (from !== undefined && from !== view.status) {
    await recordEvent(trx, {
      companyId: t.companyId,
      action: 'dispatch_status_changed',
      trigger: view.status,
      subject: { type: 'dispatch', id },
      data: { id, vendor_id: view.row.vendor_id, from, to: view.status, dispatch: data },
    });
  }
}

const STATUS_OF: Record<'plan' | 'activate' | 'cancel' | 'complete', DispatchStatus> = {
  plan: 'planned',
  activate: 'active',
  cancel: 'cancelled',
  complete: 'completed',
};

/** Timestamps of entering a status. */
function entered(status: DispatchStatus, now: string) {
  if (status === 'active') return { activated_at: now };
  if (status === 'cancelled') return { cancelled_at: now };
  if (status === 'completed') return { completed_at: now };
  return {};
}

export async function createDispatch(db: Db, t: Tenant, input: DispatchInput): Promise<repo.DispatchView> {
  const who = tripAssignment(input.dispatch_trips, input);
  const fromTrips = tripTrigger(input.dispatch_trips);
  const initial = initialStatus(input.status ?? (fromTrips ? STATUS_OF[fromTrips] : undefined));
  if (!initial.ok) throw validation('status', `must be planned or active: ${initial.reason}`);
  if (who.driver_id === undefined) throw validation('driver_id', 'is required');
  if (who.vehicle_id === undefined) throw validation('vehicle_id', 'is required');
  const now = nowIso();
  try {
    const id = await db.kysely.transaction().execute(async (trx) => {
      if (input.vendor_id && (await repo.findByVendorId(trx, db.kind, t.companyId, input.vendor_id, false))) {
        throw duplicate('vendor_id', input.vendor_id);
      }
      await checkDriver(trx, t.companyId, who.driver_id!);
      await checkVehicle(trx, t.companyId, who.vehicle_id!);
      const plan = planStops([], await resolveStops(trx, t.companyId, input));
      const trips = planTrips(
        [],
        input.dispatch_trips,
        plan.stops.map((s) => s.vendor_id),
      );
      const outcome = apply(initial.next, plan.triggers);
      if (!outcome.ok) throw new AppError('invalid_state', `the new dispatch: ${outcome.reason}`);
      if (outcome.next === 'active') await assertNoOtherActive(trx, who.driver_id!, 0);
      const { id } = await trx
        .insertInto('dispatches')
        .values({
          company_id: t.companyId,
          vendor_id: input.vendor_id ?? null,
          status: outcome.next,
          driver_id: who.driver_id!,
          vehicle_id: who.vehicle_id!,
          auto_complete_forms: bool(input.auto_complete_forms),
          ...dispatchDetailsOf(input),
          activated_at: null,
          cancelled_at: null,
          completed_at: null,
          ...entered(outcome.next, now),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await repo.saveStopsAndTrips(trx, t.companyId, id, { stops: [], trips: [] }, plan.stops, trips);
      await announce(trx, t, id, 'created');
      return id;
    });
    return viewById(db.kysely, id);
  } catch (err) {
    return translate(db, err, input, () => who.driver_id);
  }
}

/** Applies a change to a dispatch read (and locked) inside `trx`; returns false when nothing changed. */
async function change(
  trx: Trx,
  t: Tenant,
  row: repo.DispatchRow,
  input: DispatchInput,
  who: { driver_id?: number; vehicle_id?: number },
) {
  const [current] = await repo.viewsOf(trx, [row]);
  const triggers: Trigger[] = [];
  const driverChanges = who.driver_id !== undefined && who.driver_id !== row.driver_id;
  const vehicleChanges = who.vehicle_id !== undefined && who.vehicle_id !== row.vehicle_id;
  if (driverChanges) await checkDriver(trx, t.companyId, who.driver_id!);
  if (vehicleChanges) await checkVehicle(trx, t.companyId, who.vehicle_id!);
  if (driverChanges || vehicleChanges) triggers.push('reassign');

  const plan = planStops(current.stops, await resolveStops(trx, t.companyId, input));
  const trips = planTrips(
    current.trips,
    input.dispatch_trips,
    plan.stops.map((s) => s.vendor_id),
  );
  const structural = plan.triggers.filter((x) => x === 'change_stops' || x === 'edit');
  const progress = plan.triggers.filter((x) => x === 'stop_progress' || x === 'consignee_departed');
  const tripsEdited =
    JSON.stringify(trips.map(({ vendor_id, stop_vendor_ids }) => [vendor_id, stop_vendor_ids])) !==
    JSON.stringify(current.trips.map(({ vendor_id, stop_vendor_ids }) => [vendor_id, stop_vendor_ids]));
  const flagEdited =
    (input.auto_complete_forms !== undefined && input.auto_complete_forms !== fromBool(row.auto_complete_forms)) ||
    detailsChange(DISPATCH_DETAILS, dispatchDetailsOf(row), input);
  if ((tripsEdited || flagEdited) && !structural.includes('edit')) structural.push('edit');
  triggers.push(...structural);
  // Asking for the status the dispatch already has is not a change (a client may send it back).
  const asked = input.status !== undefined ? triggerFor(input.status) : tripTrigger(input.dispatch_trips);
  if (asked && STATUS_OF[asked as keyof typeof STATUS_OF] !== current.status) triggers.push(asked);
  triggers.push(...progress);

  const outcome = apply(current.status, triggers);
  if (!outcome.ok) throw new AppError('invalid_state', `${name(row)}: ${outcome.reason}`);
  const next = outcome.next;
  const changed = next !== current.status || triggers.some((x) => x !== 'plan' && x !== 'activate');
  if (!changed) return false;
  const driverId = who.driver_id ?? row.driver_id;
  if (next === 'active' && (current.status !== 'active' || driverChanges))
    await assertNoOtherActive(trx, driverId, row.id);
  const now = nowIso();
  await trx
    .updateTable('dispatches')
    .set({
      status: next,
      driver_id: driverId,
      vehicle_id: who.vehicle_id ?? row.vehicle_id,
      auto_complete_forms:
        input.auto_complete_forms === undefined ? row.auto_complete_forms : bool(input.auto_complete_forms),
      ...withDetails(DISPATCH_DETAILS, dispatchDetailsOf(row), input),
      ...(next !== current.status ? entered(next, now) : {}),
      updated_at: now,
    })
    .where('id', '=', row.id)
    .execute();
  await repo.saveStopsAndTrips(trx, t.companyId, row.id, current, plan.stops, trips);
  await announce(trx, t, row.id, 'updated', current.status);
  return true;
}

/** PUT: the dispatch named by `vendor_id`, changed as the body asks. */
export async function updateDispatch(
  db: Db,
  t: Tenant,
  vendorId: string,
  input: DispatchInput,
): Promise<repo.DispatchView> {
  const who = tripAssignment(input.dispatch_trips, input);
  let driverId = who.driver_id;
  try {
    const id = await db.kysely.transaction().execute(async (trx) => {
      const row = await repo.findByVendorId(trx, db.kind, t.companyId, vendorId, true);
      if (!row) throw notFound(`dispatch with vendor_id "${vendorId}"`);
      driverId ??= row.driver_id;
      await change(trx, t, row, input, who);
      return row.id;
    });
    return viewById(db.kysely, id);
  } catch (err) {
    return translate(db, err, input, () => driverId);
  }
}

/**
 * Moves one stop of a dispatch forward (in_progress, departed) inside the caller's transaction: the
 * path form entries (auto_complete_forms) and device arrivals and departures take. The dispatch must
 * have been read with a lock by the caller.
 */
export async function moveStop(
  trx: Trx,
  t: Tenant,
  row: repo.DispatchRow,
  stops: Stop[],
  vendorStopId: string,
  status: StopStatus,
) {
  const at = stops.findIndex((s) => s.vendor_id === vendorStopId);
  if (at === -1) throw validation('vendor_stop_id', `names no stop of ${name(row)} ("${vendorStopId}")`);
  const input: DispatchInput = {};
  if (at === 0) input.shipper = { status };
  else if (at === stops.length - 1) input.consignee = { status };
  else
    input.dispatch_stops = stops
      .slice(1, -1)
      .map((s) => (s.vendor_id === vendorStopId ? { vendor_id: s.vendor_id, status } : { vendor_id: s.vendor_id }));
  return change(trx, t, row, input, {});
}

export type { Stop, Trip };
