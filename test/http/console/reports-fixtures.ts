/**
 * A company seeded for the console's reports, all through the device API, on days before today in its
 * zone (Central Time), so that every period has ended and the figures do not move while a test runs:
 * - A-1 (group West) with Dana West, two days ago from 12:00: 3 min at 130 km/h (over the 75 mph policy
 *   maximum: a speeding event), 7 min standing with the engine on (an idle event; the trip ends), the
 *   engine off, then a second trip at 12:30 of 2 min at 90 km/h (with a hard brake at 12:31:15) and 8 min standing;
 * - B-2 (no group) with Bo East, yesterday from 09:00: 3 min at 80 km/h, then 8 min standing;
 * - C-3 never reports;
 * - group West: A-1, Dana West and the fleet manager Lim Ited, whose visibility is limited.
 */
import assert from 'node:assert/strict';
import { uniq } from '../fixtures.js';
import { PASSWORD, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { createCompany } from '../../../src/domain/companies/service.js';
import { createUser } from '../../../src/domain/users/service.js';
import { createApiKey } from '../../../src/auth/api-keys.js';
import { addDays, localDate, startOfDay } from '../../../src/core/time-zone.js';
import { asCompany } from './kit.js';
import { send } from './dashboard-fixtures.js';

export const ZONE = 'Central Time (US & Canada)';
export const IANA = 'America/Chicago';
const MIN = 60_000;

export interface ReportFleet {
  companyId: number;
  apiKey: string;
  admin: string;
  limited: string;
  today: string;
  /** Two days ago and yesterday, the days with driving. */
  days: [string, string];
  vehicles: { A1: number; B2: number; C3: number };
  drivers: { dana: number; bo: number };
  west: number;
}

/** Fixes every 30 s from `at` for `minutes` at `kph`, moving north from `lat` (0.01° ≈ 1.11 km). */
function leg(at: number, minutes: number, kph: number, lat: number, ignition = true) {
  const step = ((kph / 3600) * 30) / 111.195; // degrees of latitude per 30 s
  return Array.from({ length: minutes * 2 + 1 }, (_, i) => ({
    at: at + i * 30_000,
    lat: lat + i * step,
    kph,
    ignition,
  }));
}

export async function seedReportFleet(t: OAuthTestApp, metric = false): Promise<ReportFleet> {
  const c = await createCompany(t.db, { name: 'Report Freight', time_zone: ZONE, metric_units: metric });
  const person = async (role: string, first: string, last: string, extra: Record<string, unknown> = {}) => {
    const email = `${first.toLowerCase()}.${uniq()}@reports.test`;
    const u = await createUser(
      t.db,
      { companyId: c.id },
      { role, email, password: PASSWORD, first_name: first, last_name: last, ...extra },
    );
    return { id: u.id, email };
  };
  const admin = await person('admin', 'Ada', 'Admin');
  const limited = await person('fleet_user', 'Lim', 'Ited', { group_visibility: 'limited' });
  const dana = await person('driver', 'Dana', 'West');
  const bo = await person('driver', 'Bo', 'East');
  const apiKey = (await createApiKey(t.db, c.id, 'test')).api_key;
  const api = asCompany(t, { companyId: c.id, apiKey, admin, manager: limited, driver: dana });
  const group = await api.call({ method: 'POST', url: '/v1/groups', payload: { name: 'West' } });
  assert.equal(group.status, 201, JSON.stringify(group.body));
  const west = group.body.group.id as number;
  const make = async (number: string, groups: number[] = []) => {
    const res = await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number, group_ids: groups } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.vehicle.id as number;
  };
  const vehicles = { A1: await make('A-1', [west]), B2: await make('B-2'), C3: await make('C-3') };
  const members = await api.call({
    method: 'POST',
    url: `/v1/groups/${west}/users`,
    payload: { ids: [limited.id, dana.id] },
  });
  assert.equal(members.status, 200, JSON.stringify(members.body));

  const today = localDate(Date.now(), IANA);
  const days: [string, string] = [addDays(today, -2), addDays(today, -1)];
  const noon = startOfDay(days[0], IANA).getTime() + 12 * 60 * MIN;
  const nine = startOfDay(days[1], IANA).getTime() + 9 * 60 * MIN;
  const fixes = (list: Array<{ at: number; lat: number; kph: number; ignition: boolean }>) =>
    list.map((f) => ({
      at: f.at,
      type: 'location',
      lat: f.lat,
      lon: -95,
      speed_kph: f.kph,
      bearing_deg: 0,
      ignition: f.ignition,
    }));
  const login = (at: number, driverId: number) => ({
    at: at - 1000,
    type: 'driver',
    action: 'login',
    driver_id: driverId,
  });
  const fast = leg(noon, 3, 130, 35);
  const stand = fast.at(-1)!.lat;
  const second = leg(noon + 30 * MIN, 2, 90, stand);
  // A hard brake (0.45 g, 90 to 70 km/h) at 12:31:15, between two fixes of the second trip.
  const brake = {
    at: noon + 31.25 * MIN,
    type: 'acceleration',
    longitudinal_g: -0.45,
    duration_ms: 2000,
    speed_kph: 90,
    end_speed_kph: 70,
    lat: (second[2].lat + second[3].lat) / 2,
    lon: -95,
    bearing_deg: 0,
  };
  await send(
    t,
    c.id,
    vehicles.A1,
    [
      login(noon, dana.id),
      brake,
      ...fixes([
        ...fast,
        ...leg(noon + 3.5 * MIN, 7, 0, stand),
        ...leg(noon + 11 * MIN, 1, 0, stand, false),
        ...second,
        ...leg(noon + 32.5 * MIN, 8, 0, second.at(-1)!.lat, false),
      ]),
    ].sort((x, y) => x.at - y.at),
  );
  const b = leg(nine, 3, 80, 36);
  await send(t, c.id, vehicles.B2, [
    login(nine, bo.id),
    ...fixes([...b, ...leg(nine + 3.5 * MIN, 8, 0, b.at(-1)!.lat, false)]),
  ]);
  return {
    companyId: c.id,
    apiKey,
    admin: admin.email,
    limited: limited.email,
    today,
    days,
    vehicles,
    drivers: { dana: dana.id, bo: bo.id },
    west,
  };
}
