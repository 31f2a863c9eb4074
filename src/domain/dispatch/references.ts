/**
 * What a dispatch body refers to: its driver and vehicle, the dispatch locations of its stops and the
 * forms attached to them. Each must belong to the caller's company; a reference that does not is a 400
 * naming the member that carries it (the body is wrong, the URL is fine). Every check runs inside the
 * caller's transaction.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { validation } from '../../core/errors.js';
import type { MiddleStopInput, StopsChange } from './stops.js';
import type { DispatchInput } from './input.js';
import { userRef } from '../users/refs.js';
import { vehicleRef } from '../vehicles/refs.js';

/**
 * The stops of a dispatch input (./input.ts) as a request names them: the location by id or by vendor_id,
 * the forms by UUID or by integer id, still to be resolved.
 */
export type LocatedChange = Pick<DispatchInput, 'shipper' | 'consignee' | 'dispatch_stops' | 'remove_stop_vendor_ids'>;
type LocatedStop = NonNullable<LocatedChange['shipper']> | NonNullable<LocatedChange['dispatch_stops']>[number];

export async function checkDriver(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  field = 'driver_id',
): Promise<void> {
  const u = await userRef(db, companyId, id);
  if (!u) throw validation(field, `names no user of this company (${id})`);
  if (u.role !== 'driver') throw validation(field, `must name a driver; user ${id} is a ${u.role}`);
}

export async function checkVehicle(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  field = 'vehicle_id',
): Promise<void> {
  const v = await vehicleRef(db, companyId, id);
  if (!v) throw validation(field, `names no vehicle of this company (${id})`);
}

interface Slot {
  input: LocatedStop;
  /** Prefix of the member names: `shipper_`, `consignee_` or `dispatch_stops[2].`. */
  id: string;
  vendor: string;
  forms: string;
}

function slots(change: LocatedChange): Slot[] {
  const out: Slot[] = [];
  for (const role of ['shipper', 'consignee'] as const) {
    const input = change[role];
    if (input)
      out.push({
        input,
        id: `${role}_dispatch_location_id`,
        vendor: `vendor_${role}_dispatch_location_id`,
        forms: `${role}_form_ids`,
      });
  }
  (change.dispatch_stops ?? []).forEach((input, i) =>
    out.push({
      input,
      id: `dispatch_stops[${i}].dispatch_location_id`,
      vendor: `dispatch_stops[${i}].vendor_dispatch_location_id`,
      forms: `dispatch_stops[${i}].form_ids`,
    }),
  );
  return out;
}

/** Resolves every stop's location to an id and checks every attached form; returns the plain change. */
export async function resolveStops(
  db: Kysely<Database>,
  companyId: number,
  change: LocatedChange,
): Promise<StopsChange> {
  const all = slots(change);
  const ids = [...new Set(all.map((s) => s.input.dispatch_location_id).filter((x): x is number => x !== undefined))];
  const vendorIds = [
    ...new Set(all.map((s) => s.input.vendor_dispatch_location_id).filter((x): x is string => x !== undefined)),
  ];
  const formRefs = all.flatMap((s) => s.input.form_ids ?? []);
  const formIds = [...new Set(formRefs.filter((f): f is string => typeof f === 'string'))];
  const formSeqs = [...new Set(formRefs.filter((f): f is number => typeof f === 'number'))];
  const live = () =>
    db
      .selectFrom('dispatch_locations')
      .select(['id', 'vendor_id'])
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null);
  const [byId, byVendor, forms] = await Promise.all([
    ids.length ? live().where('id', 'in', ids).execute() : [],
    vendorIds.length ? live().where('vendor_id', 'in', vendorIds).execute() : [],
    formRefs.length
      ? db
          .selectFrom('forms')
          .select(['id', 'seq'])
          .where('company_id', '=', companyId)
          .where((w) =>
            w.or([w('id', 'in', formIds.length ? formIds : ['']), w('seq', 'in', formSeqs.length ? formSeqs : [0])]),
          )
          .execute()
      : [],
  ]);
  const knownIds = new Set(byId.map((l) => l.id));
  const vendorMap = new Map(byVendor.map((l) => [l.vendor_id, l.id]));
  // A form named by its integer id is stored (and answered) by its UUID.
  const knownForms = new Map<string | number, string>(
    forms.flatMap(
      (f) =>
        [
          [f.id, f.id],
          [f.seq, f.id],
        ] as const,
    ),
  );

  const resolve = (slot: Slot) => {
    const { dispatch_location_id: id, vendor_dispatch_location_id: vendor, form_ids: refs, ...named } = slot.input;
    const form_ids = refs?.map((f, j) => {
      const uuid = knownForms.get(f);
      if (uuid === undefined)
        throw validation(`${slot.forms}[${j}]`, `names no form of this company (${JSON.stringify(f)})`);
      return uuid;
    });
    const rest = form_ids ? { ...named, form_ids } : named;
    if (id !== undefined) {
      if (!knownIds.has(id)) throw validation(slot.id, `names no dispatch location of this company (${id})`);
      return { ...rest, location: id };
    }
    if (vendor !== undefined) {
      const found = vendorMap.get(vendor);
      if (found === undefined)
        throw validation(slot.vendor, `names no dispatch location of this company ("${vendor}")`);
      return { ...rest, location: found };
    }
    return rest;
  };
  const out: StopsChange = { remove_stop_vendor_ids: change.remove_stop_vendor_ids };
  const lookup = new Map(all.map((s) => [s.input, s]));
  if (change.shipper) out.shipper = resolve(lookup.get(change.shipper)!);
  if (change.consignee) out.consignee = resolve(lookup.get(change.consignee)!);
  if (change.dispatch_stops)
    out.dispatch_stops = change.dispatch_stops.map((s) => resolve(lookup.get(s)!) as MiddleStopInput);
  return out;
}
