/**
 * Shared pieces of the console tests: the OAuth test app (companies with an admin, a fleet manager and
 * a driver who can sign in), the API fixtures bound to one of its companies, positions ingested through
 * the device API, a metric company, and signing in to the console with the miniature browser.
 */
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import type { TestApp } from '../../helper.js';
import { Browser, PASSWORD, inputValue, type Fleet, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { uniq } from '../fixtures.js';
import { provisionDevice } from '../../../src/domain/devices/service.js';
import { telemetryFor } from '../../../src/telemetry/store/runner.js';
import { nowIso } from '../../../src/storage/values.js';
import { createCompany } from '../../../src/domain/companies/service.js';
import { createUser } from '../../../src/domain/users/service.js';
import { createApiKey } from '../../../src/auth/api-keys.js';

/** The API fixtures of test/http and test/domain/dispatch, acting as `fleet` with its API key. */
export function asCompany(t: OAuthTestApp, fleet: Fleet): TestApp {
  const company = { id: fleet.companyId, apiKey: fleet.apiKey, headers: { 'x-api-key': fleet.apiKey } };
  return {
    ...t,
    company,
    newCompany: () => Promise.reject(new Error('use t.newFleet')),
    call: (opts) => t.call({ ...opts, as: opts.as ?? company }),
  };
}

const devices = new WeakMap<object, Map<number, { token: string; seq: number }>>();

/**
 * Fixes of a vehicle posted through the device API (an ELD provisioned on first use), then processed;
 * returns their times. `ignition: true` says the engine runs (a standing vehicle then idles); `driverId`
 * logs that driver in on the device a second before the first fix.
 */
export async function ingest(
  t: OAuthTestApp,
  fleet: Pick<Fleet, 'companyId'>,
  vehicleId: number,
  fixes: Array<{ lat: number; lon: number; kph: number; agoS: number; bearing?: number; ignition?: boolean }>,
  opts: { driverId?: number } = {},
): Promise<string[]> {
  const ofDb = devices.get(t.db) ?? new Map<number, { token: string; seq: number }>();
  devices.set(t.db, ofDb);
  let d = ofDb.get(vehicleId);
  if (!d) {
    const dev = await provisionDevice(t.db, { companyId: fleet.companyId }, { identifier: `SN-${uniq()}`, vehicleId });
    ofDb.set(vehicleId, (d = { token: dev.device_token, seq: 0 }));
  }
  const first = Date.now() - fixes[0].agoS * 1000;
  const login =
    opts.driverId === undefined
      ? []
      : [
          {
            seq: ++d.seq,
            type: 'driver',
            time: new Date(first - 1000).toISOString(),
            action: 'login',
            driver_id: opts.driverId,
          },
        ];
  const records = fixes.map((f) => ({
    seq: ++d.seq,
    type: 'location',
    time: new Date(Date.now() - f.agoS * 1000).toISOString(),
    lat: f.lat,
    lon: f.lon,
    speed_kph: f.kph,
    bearing_deg: f.bearing ?? 90,
    ...(f.ignition === undefined ? {} : { ignition: f.ignition }),
  }));
  const res = await t.app.inject({
    method: 'POST',
    url: '/device/v1/batches',
    headers: { authorization: `Bearer ${d.token}` },
    payload: { records: [...login, ...records] },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().accepted, login.length + records.length, res.body);
  await telemetryFor(t.db, t.app.config.telemetry).settle();
  return records.map((r) => r.time);
}

/** A company that measures in kilometres (`metric_units`), with an admin, a fleet manager and a driver. */
export async function metricFleet(t: OAuthTestApp): Promise<Fleet> {
  const c = await createCompany(t.db, { name: 'Metric Haulage', metric_units: true });
  const person = async (role: string) => {
    const email = `${role}.${uniq()}@metric.test`;
    const u = await createUser(
      t.db,
      { companyId: c.id },
      { role, email, password: PASSWORD, first_name: 'Kim', last_name: role },
    );
    return { id: u.id, email };
  };
  return {
    companyId: c.id,
    apiKey: (await createApiKey(t.db, c.id, 'test')).api_key,
    admin: await person('admin'),
    manager: await person('fleet_user'),
    driver: await person('driver'),
  };
}

/** A miniature browser signed in to the console as `email`; returns it with the map page. */
export async function consoleBrowser(t: OAuthTestApp, email: string) {
  const b = new Browser(t.app);
  const first = await b.get('/console');
  assert.equal(first.status, 303);
  const form = await b.get(first.headers.location);
  assert.equal(form.status, 200, form.body);
  const res = await b.post('/sign-in', {
    csrf_token: inputValue(form.body, 'csrf_token'),
    return_to: inputValue(form.body, 'return_to'),
    email,
    password: PASSWORD,
  });
  assert.equal(res.status, 303, res.body);
  assert.equal(res.headers.location, '/console');
  const page = await b.get('/console');
  assert.equal(page.status, 200, page.body);
  const csrf = inputValue(page.body, 'csrf_token');
  assert.ok(csrf);
  return { b, page, csrf };
}

/**
 * An hour eastward along 40°N from Illinois into Indiana (the line is near 87.53°W) on 2024-02-10 at
 * 90 km/h, a fix every 30 s, written as stored records (the device API refuses dates that old).
 */
export async function storeIftaTrack(t: OAuthTestApp, fleet: Fleet, vehicleId: number) {
  const device = await provisionDevice(
    t.db,
    { companyId: fleet.companyId },
    { identifier: `IFTA-${uniq()}`, vehicleId },
  );
  const t0 = Date.parse('2024-02-10T14:00:00Z');
  const kmPerDeg = 111.32 * Math.cos((40 * Math.PI) / 180);
  const rows = Array.from({ length: 110 }, (_, i) => ({
    company_id: fleet.companyId,
    device_id: device.id,
    channel: 0,
    seq: i + 1,
    vehicle_id: vehicleId,
    type: 'location',
    fix_time: new Date(t0 + i * 30_000).toISOString(),
    received_at: nowIso(),
    lat: 40,
    lon: -88 + (i * 0.75) / kmPerDeg,
    speed_kph: 90,
    odometer_km: null,
  }));
  await t.db.kysely.insertInto('telemetry_records').values(rows).execute();
}
