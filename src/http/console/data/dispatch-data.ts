/**
 * The dispatch form's data: the choices it offers the signed-in viewer (drivers, vehicles, dispatch
 * locations; a group-limited manager's own drivers and vehicles), what it holds as typed, and the body
 * of `POST/PUT /v1/dispatches` it becomes.
 *
 * The form's stops are rows in order: the first is the pickup (the API's shipper stop), the last the
 * delivery (consignee), those between the dispatch stops. Stops get vendor ids of their own (S1, S2 …,
 * unique within the dispatch, as the API requires) and a dispatch without one typed gets a generated
 * vendor_id, so that it can still be changed (the API changes dispatches by vendor_id). Editing keeps
 * the first and last stop where they are (the API's shipper and consignee members change them in
 * place) and sends the stops between as the complete list, so a row removed is a stop removed.
 * Reordering is left to the API. Dates are typed in the company's zone and sent as UTC instants.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../storage/db.js';
import { notFound } from '../../../core/errors.js';
import { zoneOffsetMs } from '../../../core/time-zone.js';
import { wireTime } from '../../../storage/values.js';
import { driversQuery } from '../../../domain/users/repository.js';
import { listVehicles } from '../../../domain/vehicles/service.js';
import { listLocations } from '../../../domain/dispatch/locations.js';
import type { DispatchView } from '../../../domain/dispatch/service.js';
import type { Viewer } from './data.js';
import { zonedParts } from '../../../core/time-zone.js';

/** More than a form can offer in a list; a bigger company plans through the API. */
const CHOICES_MAX = 2000;

export interface Choice {
  id: number;
  label: string;
}

export interface DispatchChoices {
  drivers: Choice[];
  vehicles: Choice[];
  locations: Choice[];
}

export interface StopValues {
  /** The stop's vendor id; empty for a row the form adds. */
  vendor_id: string;
  location: string;
  type: string;
  early: string;
  late: string;
}

export interface DispatchValues {
  vendor_id: string;
  driver_id: string;
  vehicle_id: string;
  stops: StopValues[];
}

export const STOP_FIELDS = ['vendor_id', 'location', 'type', 'early', 'late'] as const;
export const blankStop = (): StopValues => ({ vendor_id: '', location: '', type: '', early: '', late: '' });

export async function dispatchChoices(db: Db, v: Viewer): Promise<DispatchChoices> {
  const [drivers, vehicles, locations] = await Promise.all([
    driversQuery(db.kysely, v.companyId)
      .select(['id', 'first_name', 'last_name'])
      .where('status', '=', 'active')
      .orderBy('last_name')
      .orderBy('first_name')
      .limit(CHOICES_MAX)
      .execute(),
    listVehicles(
      db,
      v,
      { status: 'active', ...(v.vehicleIds === null ? {} : { ids: [...v.vehicleIds] }) },
      CHOICES_MAX,
      0,
    ),
    listLocations(db, v, CHOICES_MAX, 0),
  ]);
  return {
    drivers: drivers
      .filter((d) => v.driverIds === null || v.driverIds.has(d.id))
      .map((d) => ({ id: d.id, label: `${d.first_name} ${d.last_name}` })),
    vehicles: vehicles.rows
      .map((x) => ({ id: x.id, label: x.number }))
      .sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true })),
    locations: locations.rows.map((l) => ({ id: l.id, label: `${l.name}, ${l.city} ${l.state}` })),
  };
}

/** A limited manager names only their own drivers and vehicles: another is "not found", as another company's. */
export function assertChoosable(v: Viewer, values: DispatchValues): void {
  const id = (s: string) => (/^\d{1,10}$/.test(s) ? Number(s) : null);
  const driver = id(values.driver_id);
  const vehicle = id(values.vehicle_id);
  if (v.driverIds !== null && driver !== null && !v.driverIds.has(driver)) throw notFound(`driver ${driver}`);
  if (v.vehicleIds !== null && vehicle !== null && !v.vehicleIds.has(vehicle)) throw notFound(`vehicle ${vehicle}`);
}

/** `2026-03-02T14:05`, the value of a datetime-local control, of an instant in `zone`. */
export function localInput(iso: string | null, zone: string): string {
  if (!iso) return '';
  const p = zonedParts(Date.parse(iso), zone);
  return `${p.date}T${p.time}`;
}

/** The instant a datetime-local value names in `zone`; text that is none is passed on for the API to refuse. */
export function instantOf(local: string, zone: string): string | null {
  const s = local.trim();
  if (s === '') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(s);
  if (!m) return s;
  const naive = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  let t = naive - zoneOffsetMs(zone, naive);
  t = naive - zoneOffsetMs(zone, t);
  return wireTime(new Date(t).toISOString());
}

/** The form's values of a stored dispatch. */
export function valuesOfDispatch(d: DispatchView, zone: string): DispatchValues {
  return {
    vendor_id: d.row.vendor_id ?? '',
    driver_id: String(d.row.driver_id),
    vehicle_id: String(d.row.vehicle_id),
    stops: d.stops.map((s) => ({
      vendor_id: s.vendor_id,
      location: String(s.dispatch_location_id),
      type: s.type ?? '',
      early: localInput(s.early_date, zone),
      late: localInput(s.late_date, zone),
    })),
  };
}

/** A vendor id for a dispatch the form creates without one: `D-` and 10 letters and digits. */
export const newDispatchVendorId = () =>
  `D-${randomBytes(8).toString('base64url').replace(/[-_]/g, 'x').slice(0, 10).toUpperCase()}`;

const idOrText = (s: string) => (/^\d{1,10}$/.test(s.trim()) ? Number(s.trim()) : s.trim() === '' ? undefined : s);

/** The members of one stop, under the names its role has on the wire. */
function stopMembers(s: StopValues, zone: string, names: Record<keyof StopValues, string>, creating: boolean) {
  const out: Record<string, unknown> = {};
  if (s.vendor_id) out[names.vendor_id] = s.vendor_id;
  const location = idOrText(s.location);
  if (location !== undefined) out[names.location] = location;
  const type = s.type.trim();
  if (type !== '' || !creating) out[names.type] = type === '' ? null : type;
  const early = instantOf(s.early, zone);
  const late = instantOf(s.late, zone);
  if (early !== null || !creating) out[names.early] = early;
  if (late !== null || !creating) out[names.late] = late;
  return out;
}

const END_NAMES = (role: 'shipper' | 'consignee', dates: string) => ({
  vendor_id: `vendor_${role}_id`,
  location: `${role}_dispatch_location_id`,
  type: `${role}_type`,
  early: `${dates}_early_date`,
  late: `${dates}_late_date`,
});
const MIDDLE_NAMES = {
  vendor_id: 'vendor_id',
  location: 'dispatch_location_id',
  type: 'type',
  early: 'early_date',
  late: 'late_date',
};

/** Stop vendor ids for the rows that have none: S1, S2 …, skipping those the dispatch uses. */
function withStopIds(stops: StopValues[]): StopValues[] {
  const used = new Set(stops.map((s) => s.vendor_id).filter(Boolean));
  let n = 0;
  return stops.map((s) => {
    if (s.vendor_id) return s;
    while (used.has(`S${++n}`));
    used.add(`S${n}`);
    return { ...s, vendor_id: `S${n}` };
  });
}

/**
 * The API body of the form: for a new dispatch every stop; for a planned one the first and last stop
 * changed in place (their vendor ids are not sent, so nothing is renamed) and the stops between as the
 * complete list.
 */
export function dispatchBody(values: DispatchValues, zone: string, editing: boolean): Record<string, unknown> {
  const rows = values.stops.filter((s, i) => i === 0 || i === values.stops.length - 1 || !isBlank(s));
  const stops = withStopIds(rows);
  const first = stops[0] ?? blankStop();
  const last = stops.length > 1 ? stops[stops.length - 1] : blankStop();
  const body: Record<string, unknown> = { vendor_id: values.vendor_id };
  const driver = idOrText(values.driver_id);
  const vehicle = idOrText(values.vehicle_id);
  if (driver !== undefined) body.driver_id = driver;
  if (vehicle !== undefined) body.vehicle_id = vehicle;
  const end = (s: StopValues) => (editing ? { ...s, vendor_id: '' } : s);
  Object.assign(body, stopMembers(end(first), zone, END_NAMES('shipper', 'pickup'), !editing));
  Object.assign(body, stopMembers(end(last), zone, END_NAMES('consignee', 'delivery'), !editing));
  // A stop the form adds sends only what was typed; a stop that exists sends every field (empty clears).
  const middle = rows
    .slice(1, -1)
    .map((typed, i) => stopMembers(stops[i + 1], zone, MIDDLE_NAMES, !editing || typed.vendor_id === ''));
  if (middle.length || editing) body.dispatch_stops = middle;
  return body;
}

/** A row the form added and left empty: no stop. */
const isBlank = (s: StopValues) => STOP_FIELDS.every((k) => s[k].trim() === '');
