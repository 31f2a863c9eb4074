/**
 * Shared pieces of the alert tests: a company with a vehicle in group West, a driver, an ELD on the
 * vehicle and a geofence on its road; records posted through the device API; a user's feed as the
 * console's JSON shows it.
 */
import assert from 'node:assert/strict';
import type { OAuthTestApp, Fleet } from '../../auth/oauth/flows.js';
import { asCompany, consoleBrowser } from '../../http/console/kit.js';
import { createGroup, limitedManager } from '../../http/console/manage-helper.js';
import { provisionDevice } from '../../../src/domain/devices/service.js';
import { uniq } from '../../http/fixtures.js';

export const ALERT_ENV = { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0', ALERT_WORKER: '0' };

const LAT = 39.8;
const LON0 = -89.65;
const lonAt = (km: number) => LON0 + km / (111.32 * Math.cos((LAT * Math.PI) / 180));

export interface Scene {
  fleet: Fleet;
  api: ReturnType<typeof asCompany>;
  vehicleId: number;
  number: string;
  west: number;
  east: number;
  geofence: string;
  /** Posts records through the device API (seq numbered here); asserts 200. */
  send(records: Array<Record<string, unknown>>): Promise<void>;
  /** Seconds from now (negative: past) as an ISO time. */
  at(s: number): string;
}

export async function scene(t: OAuthTestApp, name = 'Alert Freight'): Promise<Scene> {
  const fleet = await t.newFleet(name);
  const api = asCompany(t, fleet);
  const [west, east] = [await createGroup(api, 'West'), await createGroup(api, 'East')];
  const number = `T-${uniq()}`;
  const v = await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number, group_ids: [west] } });
  assert.equal(v.status, 201, v.raw);
  const geofence = `Yard ${uniq()}`;
  const g = await api.call({
    method: 'POST',
    url: '/v1/geofences/circular',
    payload: { name: geofence, center: { lat: LAT, lon: lonAt(1.6) }, radius_m: 500 },
  });
  assert.equal(g.status, 201, g.raw);
  const device = await provisionDevice(
    t.db,
    { companyId: fleet.companyId },
    { identifier: `SN-${uniq()}`, vehicleId: v.body.vehicle.id },
  );
  let seq = 0;
  const base = Date.now() - 3 * 3600_000;
  return {
    fleet,
    api,
    vehicleId: v.body.vehicle.id,
    number,
    west,
    east,
    geofence,
    at: (s) => new Date(base + s * 1000).toISOString(),
    async send(records) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/device/v1/batches',
        headers: { authorization: `Bearer ${device.device_token}` },
        payload: { records: records.map((r) => ({ seq: ++seq, ...r })) },
      });
      assert.equal(res.statusCode, 200, res.body);
    },
  };
}

/** The driver logs in, drives east at 125 km/h for 3 minutes (speeding, through the geofence), unplugs the gateway, and a fault appears. */
export function drive(s: Scene, driverId: number): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [
    { type: 'driver', time: s.at(-1), action: 'login', driver_id: driverId },
    { type: 'engine', time: s.at(0), state: 'on', lat: LAT, lon: LON0 },
  ];
  for (let sec = 0; sec <= 180; sec += 10) {
    out.push({
      type: 'location',
      time: s.at(sec),
      lat: LAT,
      lon: lonAt((125 * sec) / 3600),
      speed_kph: 125,
      bearing_deg: 90,
    });
  }
  out.push({ type: 'power', time: s.at(185), state: 'disconnected', lat: LAT, lon: lonAt(6.4) });
  out.push({
    type: 'fault',
    time: s.at(190),
    protocol: 'j1939',
    spn: 110,
    fmi: 0,
    source_address: 0,
    occurrence_count: 1,
    lamps: { amber_warning: true },
  });
  return out;
}

/** A group-limited fleet manager of these groups, signed in. */
export async function limitedUser(t: OAuthTestApp, s: Scene, groups: number[]) {
  const m = await limitedManager(t, s.fleet, s.api, groups);
  return { ...m, ...(await consoleBrowser(t, m.email)) };
}

/** A user's feed as the console's JSON shows it: [kind, title, detail, read], newest first. */
export async function feedOf(b: Awaited<ReturnType<typeof consoleBrowser>>['b']) {
  const res = await b.get('/console/api/alerts?after=0');
  assert.equal(res.status, 200, res.body);
  return {
    unread: res.json.unread as number,
    items: (res.json.items as any[]).map((a) => [a.kind, a.title, a.detail, a.read]),
    raw: res.json.items as any[],
  };
}
