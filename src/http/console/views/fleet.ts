/**
 * The console's view of the fleet: every active vehicle the viewer may see, with or without a position,
 * in one of five states, in the company's units. Reads go through the owners of each table (vehicles,
 * groups, users, companies, the current locations).
 *
 * A tracker that goes silent sends nothing to say so: its last fix would keep saying "moving" for ever.
 * A position at least `offlineAfterMin` minutes old (CONSOLE_OFFLINE_AFTER_MIN) therefore makes the
 * vehicle offline, and an offline vehicle has no speed.
 */
import type { Db } from '../../../storage/db.js';
import { fromBool } from '../../../storage/values.js';
import { listVehicles, type VehicleRow } from '../../../domain/vehicles/repository.js';
import { groupIdsOf } from '../../../domain/groups/membership.js';
import { listGroups } from '../../../domain/groups/service.js';
import { userSummaryRows } from '../../../domain/users/summaries.js';
import { getCompany } from '../../../domain/companies/service.js';
import { latestOf, type CurrentExtra } from '../../../telemetry/queries/locations.js';
import type { LatestLocationRow } from '../../../domain/freight/locations.js';
import { describePlace } from '../../../telemetry/geocode/places.js';
import { compass8 } from '../../../telemetry/units.js';
import { vehicleState } from '../../../wire/vehicle-location.js';
import type { Viewer } from '../data/data.js';

export type FleetState = 'never_reported' | 'offline' | 'stopped' | 'idling' | 'moving';
type Latest = LatestLocationRow & CurrentExtra;

export interface FleetVehicle {
  id: number;
  number: string;
  /** Year, make and model, when known. */
  name: string | null;
  driver: { id: number; name: string } | null;
  group_ids: number[];
  state: FleetState;
  /** What the list shows: "Moving · 58 mph", "Offline · last seen 12 min ago", "Never reported". */
  status: string;
  /** In the company's speed unit, whole; null unless the position is live (not offline). */
  speed: number | null;
  position: {
    lat: number;
    lon: number;
    bearing: number | null;
    located_at: string;
    /** As the API describes it ("26.4 mi SE of Deming, NM"); in kilometres for a metric company. */
    place: string | null;
  } | null;
}

export interface FleetView {
  vehicles: FleetVehicle[];
  /** The groups the visible vehicles belong to, by name. */
  groups: Array<{ id: number; name: string }>;
  units: { speed: 'mph' | 'km/h'; distance: 'mi' | 'km' };
  offline_after_min: number;
}

const MS_PER_MIN = 60_000;
const MS_PER_HOUR = 3_600_000;
const KPH_PER_MPH = 1.609344;
/** Rows per owner call: a company's whole fleet is read page by page. */
const PAGE = 1000;

/** The state of a vehicle whose latest position is `l` (undefined: none), at `now`. */
export function fleetState(l: Latest | undefined, now: number, offlineAfterMin: number): FleetState {
  if (!l) return 'never_reported';
  if (now - Date.parse(l.located_at) >= offlineAfterMin * MS_PER_MIN) return 'offline';
  // The API's vehicle_state (docs/reference/wire.md §4.4): moving above the motion threshold, idle with the engine on.
  const s = vehicleState(l);
  return s === 'moving' ? 'moving' : s === 'idle' ? 'idling' : 'stopped';
}

/** "12 min ago", "5 h ago", "3 days ago" for an age in milliseconds. */
export function ago(ms: number): string {
  const min = Math.max(0, Math.floor(ms / MS_PER_MIN));
  if (min < 60) return `${min} min ago`;
  const hours = Math.floor(min / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.floor(hours / 24)} days ago`;
}

/** When the text of `ago` changes next for a position taken at `at`. */
function agoChangesAt(at: number, now: number): number {
  const age = now - at;
  const unit = age < MS_PER_HOUR ? MS_PER_MIN : age < 48 * MS_PER_HOUR ? MS_PER_HOUR : 24 * MS_PER_HOUR;
  return at + (Math.floor(age / unit) + 1) * unit;
}

/**
 * The first moment after `now` at which the view would read differently with no new position: a live
 * vehicle turns offline, or an offline one's "last seen" moves on. Infinity when nothing is positioned.
 */
export function fleetChangesAt(view: FleetView, now: number): number {
  let next = Infinity;
  for (const v of view.vehicles) {
    if (!v.position) continue;
    const at = Date.parse(v.position.located_at);
    const t = v.state === 'offline' ? agoChangesAt(at, now) : at + view.offline_after_min * MS_PER_MIN;
    next = Math.min(next, t);
  }
  return next;
}

/** The place of a position as the API describes it (stored with the fix), in kilometres for a metric company. */
function placeOf(l: Latest, metric: boolean): string | null {
  if (!metric) return l.description;
  const p = describePlace(l.lat, l.lon);
  if (!p) return l.description;
  const where = `${p.city}, ${p.state}`;
  return p.match ? where : `${p.distanceKm.toFixed(1)} km ${compass8(p.bearingDeg)} of ${where}`;
}

function statusText(state: FleetState, speed: number | null, unit: string, age: number): string {
  switch (state) {
    case 'never_reported':
      return 'Never reported';
    case 'offline':
      return `Offline · last seen ${ago(age)}`;
    case 'moving':
      return speed === null ? 'Moving' : `Moving · ${speed} ${unit}`;
    case 'idling':
      return 'Idling';
    case 'stopped':
      return 'Stopped';
  }
}

async function everyRow<T>(page: (limit: number, offset: number) => Promise<{ rows: T[] }>): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await page(PAGE, offset);
    out.push(...rows);
    if (rows.length < PAGE) return out;
  }
}

const nameOf = (v: VehicleRow) => [v.year, v.make, v.model].filter(Boolean).join(' ') || null;
const byNumber = (a: VehicleRow, b: VehicleRow) =>
  a.number.localeCompare(b.number, 'en', { numeric: true }) || a.id - b.id;

/** Every active vehicle the viewer may see, by number, with its state at `now`. */
export async function fleetView(db: Db, v: Viewer, offlineAfterMin: number, now = Date.now()): Promise<FleetView> {
  const filter = { status: 'active', ...(v.vehicleIds ? { ids: [...v.vehicleIds] } : {}) };
  const vehicles = (
    await everyRow((limit, offset) => listVehicles(db.kysely, v.companyId, filter, limit, offset))
  ).sort(byNumber);
  const ids = vehicles.map((x) => x.id);
  const [latest, memberships, company, groups] = await Promise.all([
    latestOf(db, v.companyId, ids),
    groupIdsOf(db.kysely, 'group_vehicles', ids),
    getCompany(db, v.companyId),
    everyRow((limit, offset) => listGroups(db, v, limit, offset)),
  ]);
  const driverOf = (x: VehicleRow) => latest.get(x.id)?.driver_id ?? x.current_driver_id;
  const drivers = await userSummaryRows(db, v.companyId, vehicles.map(driverOf));
  const metric = fromBool(company.metric_units);
  const units = metric ? ({ speed: 'km/h', distance: 'km' } as const) : ({ speed: 'mph', distance: 'mi' } as const);
  const out = vehicles.map((x): FleetVehicle => {
    const l = latest.get(x.id);
    const state = fleetState(l, now, offlineAfterMin);
    const live = l && state !== 'offline' && l.speed !== null;
    const speed = live ? Math.round(metric ? l.speed! * KPH_PER_MPH : l.speed!) : null;
    const d = drivers.get(driverOf(x) ?? 0);
    return {
      id: x.id,
      number: x.number,
      name: nameOf(x),
      driver: d ? { id: d.id, name: `${d.first_name} ${d.last_name}` } : null,
      group_ids: memberships.get(x.id) ?? [],
      state,
      status: statusText(state, speed, units.speed, l ? now - Date.parse(l.located_at) : 0),
      speed,
      position: l
        ? { lat: l.lat, lon: l.lon, bearing: l.bearing, located_at: l.located_at, place: placeOf(l, metric) }
        : null,
    };
  });
  const used = new Set(out.flatMap((x) => x.group_ids));
  return {
    vehicles: out,
    groups: groups.filter((g) => used.has(g.id)).map((g) => ({ id: g.id, name: g.name })),
    units,
    offline_after_min: offlineAfterMin,
  };
}
