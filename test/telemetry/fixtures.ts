/**
 * Shared pieces of the telemetry tests: a vehicle with a provisioned ELD and a driver, batches posted
 * through the real device API, and synthetic tracks (fixes along a straight line at a given speed).
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { useApp, type Dialect, type TestApp, type TestCompany } from '../helper.js';
import { createUser, createVehicle, uniq } from '../http/fixtures.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { telemetryFor } from '../../src/telemetry/store/runner.js';
import { startOsmand, type OsmandServer } from '../../src/telemetry/osmand.js';
import type { Db } from '../../src/storage/db.js';

export interface Rig {
  vehicle: any;
  driver: any;
  device: { id: number; identifier: string; device_token: string };
  seq: number;
}

/** A vehicle with an ELD and a driver of `as` (default: the test company). */
export async function rig(t: TestApp, as?: TestCompany): Promise<Rig> {
  const vehicle = await createVehicle(
    t,
    {
      make: 'Freightliner',
      model: 'Cascadia',
      year: '2022',
      vin: `1FUJHHDR0NL${String(uniq()).slice(-6).padStart(6, '0')}`,
    },
    as,
  );
  const driver = await createUser(t, {}, as);
  const device = await provisionDevice(
    t.db,
    { companyId: (as ?? t.company).id },
    { identifier: `SN-${uniq()}`, vehicleId: vehicle.id },
  );
  return { vehicle, driver, device, seq: 0 };
}

/** A test file's app, processing at once (no reorder window, no background sweep), and one rig on it; made once. */
export function useRigApp(dialect: Dialect, env: Record<string, string> = {}): () => Promise<{ t: TestApp; v: Rig }> {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0', ...env });
  let made: Promise<{ t: TestApp; v: Rig }> | null = null;
  return () => (made ??= getApp().then(async (t) => ({ t, v: await rig(t) })));
}

export async function post(t: TestApp, token: string | null, body: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/device/v1/batches',
    payload: body as object,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return { status: res.statusCode, body: res.json() as any };
}

/** Posts records (seq assigned from the rig's counter when missing); asserts 200 unless told. */
export async function send(t: TestApp, r: Rig, records: Array<Record<string, unknown>>, expectStatus = 200) {
  const withSeq = records.map((x) => ('seq' in x ? x : { ...x, seq: ++r.seq }));
  const res = await post(t, r.device.device_token, { records: withSeq });
  assert.equal(res.status, expectStatus, JSON.stringify(res.body));
  return res.body;
}

/** Processes everything stored (ignores the reorder window). */
export const settle = (t: TestApp) => telemetryFor(t.db, t.app.config.telemetry).settle();

/** The test day: a week ago (records must be neither in the future nor too old), fixes from 14:00 UTC. */
export const DAY = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
export const T0 = Date.parse(`${DAY}T14:00:00Z`);
export const at = (s: number) => new Date(T0 + s * 1000).toISOString();

/** Fixes every `everyS` seconds from (lat, lon) heading east at `kph` (speed 0 stands still). */
export function track(opts: {
  fromS: number;
  toS: number;
  everyS?: number;
  kph: number;
  lat?: number;
  lon?: number;
  extra?: Record<string, unknown>;
}) {
  const every = opts.everyS ?? 10;
  const lat = opts.lat ?? 39.8;
  const lon0 = opts.lon ?? -89.65;
  const out: Array<Record<string, unknown>> = [];
  for (let s = opts.fromS; s <= opts.toS; s += every) {
    const km = (opts.kph * (s - opts.fromS)) / 3600;
    const lon = lon0 + km / (111.32 * Math.cos((lat * Math.PI) / 180));
    out.push({ type: 'location', time: at(s), lat, lon, speed_kph: opts.kph, bearing_deg: 90, ...opts.extra });
  }
  return out;
}

export const engine = (s: number, state: 'on' | 'off', extra: Record<string, unknown> = {}) => ({
  type: 'engine',
  time: at(s),
  state,
  ...extra,
});
export const login = (s: number, driverId: number) => ({
  type: 'driver',
  time: at(s),
  action: 'login',
  driver_id: driverId,
});

export const DAY_LAT = 39.8;
export const DAY_LON0 = -89.65;
export const DEG_PER_KM = 1 / (111.32 * Math.cos((DAY_LAT * Math.PI) / 180));

/** The day: idle 410 s, drive 90 kph from 410 s to 1600 s (30 km), stand until the engine stops at 2200 s. */
export function vehicleDay(driverId: number) {
  const recs: Array<Record<string, unknown>> = [
    engine(0, 'on', { lat: DAY_LAT, lon: DAY_LON0, odometer_km: 1000, fuel_used_l: 500 }),
    login(1, driverId),
  ];
  const fix = (s: number, km: number, kph: number) => ({
    type: 'location',
    time: at(s),
    lat: DAY_LAT,
    lon: DAY_LON0 + km * DEG_PER_KM,
    speed_kph: kph,
    bearing_deg: 90,
    odometer_km: 1000 + km,
    fuel_used_l: 500 + s * 0.005,
    battery_v: 13.8,
    fuel_level_pct: 61,
  });
  for (let s = 10; s <= 400; s += 10) recs.push(fix(s, 0, 0));
  for (let s = 410; s <= 1600; s += 10) recs.push(fix(s, ((s - 410) * 90) / 3600, 90));
  const endKm = (1190 * 90) / 3600;
  for (let s = 1610; s <= 2190; s += 10) recs.push(fix(s, endKm, 0));
  recs.push({
    type: 'fault',
    time: at(500),
    protocol: 'j1939',
    spn: 110,
    fmi: 0,
    source_address: 0,
    occurrence_count: 1,
    lamps: { amber_warning: true },
  });
  recs.push({
    type: 'fault',
    time: at(700),
    protocol: 'j1939',
    spn: 110,
    fmi: 0,
    source_address: 0,
    status: 'cleared',
  });
  recs.push({
    type: 'acceleration',
    time: at(1000),
    longitudinal_g: -0.45,
    duration_ms: 2000,
    speed_kph: 90,
    end_speed_kph: 60,
    lat: DAY_LAT,
    lon: DAY_LON0 + 14.75 * DEG_PER_KM,
    bearing_deg: 90,
  });
  recs.push(engine(2200, 'off', { lat: DAY_LAT, lon: DAY_LON0 + endKm * DEG_PER_KM }));
  // Sent in time order: with a zero reorder window a record older than what was processed is late.
  return recs.sort((a, b) => Date.parse(a.time as string) - Date.parse(b.time as string));
}

/** Tables of data derived from a vehicle's records. */
export const DERIVED_TABLES = [
  'driving_periods',
  'idle_events',
  'fault_codes',
  'driver_performance_events',
  'geofence_events',
  'utilization_buckets',
] as const;

/** A vehicle's derived rows without ids and timestamps of writing, numbers rounded, in a stable order. */
export async function derivedSnapshot(db: Db, vehicleId: number) {
  const out: Record<string, unknown[]> = {};
  for (const table of DERIVED_TABLES) {
    const rows = await db.kysely.selectFrom(table).selectAll().where('vehicle_id', '=', vehicleId).execute();
    out[table] = rows
      .map((r: Record<string, unknown>) => {
        const { id: _i, created_at: _c, updated_at: _u, ...rest } = r;
        for (const k of Object.keys(rest))
          if (typeof rest[k] === 'number') rest[k] = Math.round((rest[k] as number) * 1e6) / 1e6;
        return rest;
      })
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return out;
}

export interface OsmandRig {
  t: TestApp;
  osmand: OsmandServer;
  phone: Rig;
  /** Records stored for the phone so far. */
  stored(): Promise<number>;
}

/** For the enclosing suite: an app, an OsmAnd listener on a free port and a provisioned phone, filled in before its tests. */
export function useOsmandRig(dialect: Dialect): OsmandRig {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  const r = {
    stored: async () =>
      (
        await r.t.db.kysely
          .selectFrom('telemetry_records')
          .select('id')
          .where('device_id', '=', r.phone.device.id)
          .execute()
      ).length,
  } as OsmandRig;
  before(async () => {
    r.t = await getApp();
    r.osmand = await startOsmand(telemetryFor(r.t.db, r.t.app.config.telemetry), { host: '127.0.0.1', port: 0 });
    r.phone = await rig(r.t);
  });
  after(async () => {
    await r.osmand?.close();
  });
  return r;
}
