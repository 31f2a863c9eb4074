/**
 * The fuzz app: the real app on a fresh database of the dialect, listening on 127.0.0.1 (for the
 * /healthz probe), with a few objects of each kind so that fuzzed ids (1, 2, 3) reach real rows and the
 * requests get past "not found" into the code that reads their fields.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { openDb, type Db } from '../../src/storage/db.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { createApiKey } from '../../src/auth/api-keys.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { closeOnce, freshDatabase, type Dialect } from '../helper.js';
import { TEST_ENV } from '../test-env.js';

/**
 * The company's time zone, its drivers' home terminal (they name none of their own): a certification
 * names a log day of this zone (./device-records.ts).
 */
export const COMPANY_TIME_ZONE = 'Eastern Time (US & Canada)';

export interface FuzzApp {
  app: FastifyInstance;
  db: Db;
  port: number;
  auth: Record<string, string>;
  device: { identifier: string; token: string; vehicleId: number };
  driverId: number;
  close(): Promise<void>;
}

export async function startFuzzApp(dialect: Dialect): Promise<FuzzApp> {
  const database = await freshDatabase(dialect);
  const config = loadConfig({
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    ...TEST_ENV,
    WEBHOOK_WORKER: '0',
    TELEMETRY_SWEEP_MS: '0',
    TELEMETRY_REORDER_WINDOW_S: '0',
    RATE_LIMIT_REQUESTS_PER_CREDENTIAL: '0',
    RATE_LIMIT_REQUESTS_PER_DEVICE: '0',
    RATE_LIMIT_REQUESTS_PER_IP: '0',
    SLOW_REQUEST_MS: 'off',
    // Load shedding off: a 503 `overloaded` on a busy test machine is the server working as designed,
    // not a fault of the request; event-loop blocking is what the /healthz probe measures instead.
    LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    LOAD_SHED_MAX_IN_FLIGHT_REQUESTS: '0',
  });
  const db = openDb(config.databaseUrl, { poolSize: 4 });
  const app = await buildApp(config, { db });
  const close = closeOnce(app, db, database);
  try {
    return await populate(app, db, close);
  } catch (err) {
    await close();
    throw err;
  }
}

async function populate(app: FastifyInstance, db: Db, close: () => Promise<void>): Promise<FuzzApp> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  const company = await createCompany(db, { name: 'Fuzz Freight', time_zone: COMPANY_TIME_ZONE });
  const key = await createApiKey(db, company.id, 'fuzz');
  const auth = { 'x-api-key': key.api_key };
  const other = await createCompany(db, { name: 'Other Freight' });
  await createApiKey(db, other.id, 'other');

  const post = async (url: string, payload: unknown) => {
    const res = await app.inject({ method: 'POST', url, headers: auth, payload: payload as object });
    assert.ok(res.statusCode < 300, `fixture POST ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, any>;
  };
  // Driver 1 keeps the company's US property cycle, driver 2 drives in Canada with the adverse-driving
  // exception: each exception claim (adverse_driving, sixteen_hour) is then allowed one and refused the other.
  const drivers = [];
  for (const [n, rules] of [
    [1, {}],
    [2, { cycle: 'canada_7day', exception_adverse_driving: true }],
  ] as const) {
    drivers.push(
      (
        await post('/v1/users', {
          first_name: 'Fuzz',
          last_name: `Driver ${n}`,
          role: 'driver',
          username: `fuzz${n}`,
          email: `fuzz${n}@example.com`,
          ...rules,
        })
      ).user,
    );
  }
  await post('/v1/users', {
    first_name: 'Fuzz',
    last_name: 'Manager',
    role: 'fleet_user',
    email: 'manager@example.com',
  });
  const vehicles = [];
  for (const n of [1, 2])
    vehicles.push((await post('/v1/vehicles', { number: `F-${n}`, make: 'Volvo', year: 2020 })).vehicle);
  await post('/v1/groups', { name: 'Fuzz group' });
  await post('/v1/assets', { name: 'Fuzz trailer' });
  await post('/v1/geofences/circular', { name: 'Fuzz yard', center: { lat: 39.8, lon: -89.65 }, radius_m: 500 });
  await post('/v1/dispatch_locations', {
    vendor_id: 'loc-1',
    name: 'Fuzz depot',
    address1: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    country: 'US',
    lat: 39.8,
    lon: -89.65,
  });
  await post('/v1/fuel_purchases', {
    purchased_at: new Date(Date.now() - 86_400_000).toISOString(),
    jurisdiction: 'IL',
    fuel: 100,
    vehicle_id: vehicles[0].id,
  });
  await post('/v1/messages', { recipient_id: drivers[0].id, body: 'hello' });
  await post('/v1/company_webhooks', { url: 'https://example.com/hook', actions: ['vehicle_location_updated'] });

  const device = await provisionDevice(
    db,
    { companyId: company.id },
    { identifier: 'FUZZ-1', vehicleId: vehicles[0].id },
  );
  const t0 = Date.now() - 3 * 3_600_000;
  const records = [
    { seq: 1, type: 'engine', time: new Date(t0).toISOString(), state: 'on', lat: 39.8, lon: -89.65 },
    { seq: 2, type: 'driver', time: new Date(t0 + 1000).toISOString(), action: 'login', driver_id: drivers[0].id },
    ...Array.from({ length: 30 }, (_, i) => ({
      seq: 3 + i,
      type: 'location',
      time: new Date(t0 + 10_000 * (i + 1)).toISOString(),
      lat: 39.8,
      lon: -89.65 + i * 0.002,
      speed_kph: 70,
      odometer_km: 1000 + i * 0.2,
    })),
  ];
  const batch = await app.inject({
    method: 'POST',
    url: '/device/v1/batches',
    headers: { authorization: `Bearer ${device.device_token}` },
    payload: { records },
  });
  assert.equal(batch.statusCode, 200, batch.body);

  return {
    app,
    db,
    port,
    auth,
    device: { identifier: device.identifier, token: device.device_token, vehicleId: vehicles[0].id },
    driverId: drivers[0].id,
    close,
  };
}
