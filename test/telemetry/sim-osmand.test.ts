/**
 * The simulator (deterministic per seed, driving real HTTP ingestion end to end) and the OsmAnd protocol
 * with real HTTP requests (GET query, POST form, Traccar Client JSON).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { SimVehicle } from '../../src/sim/vehicle.js';
import { Simulation } from '../../src/sim/runner.js';
import { releaseSimDevices, SIM_IN_USE_S, simDevices } from '../../src/sim/devices.js';
import { parseRecord } from '../../src/telemetry/records.js';
import { startOsmand, type OsmandServer } from '../../src/telemetry/osmand.js';
import { telemetryFor } from '../../src/telemetry/store/runner.js';
import { rig, settle, type Rig } from './fixtures.js';
import { createVehicle } from '../http/fixtures.js';
import { revokeDevice } from '../../src/domain/devices/service.js';

test('the simulator is deterministic per seed and emits only valid records', () => {
  const start = Date.parse('2026-06-01T06:00:00Z');
  const a = new SimVehicle(0, 7, start, 11).advance(start + 8 * 3_600_000);
  const b = new SimVehicle(0, 7, start, 11).advance(start + 8 * 3_600_000);
  const c = new SimVehicle(0, 8, start, 11).advance(start + 8 * 3_600_000);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  const types = new Set(a.map((r) => r.type));
  for (const want of ['engine', 'driver', 'location']) assert.ok(types.has(want), want);
  const limits = { nowMs: start + 9 * 3_600_000, futureSlackS: 0, maxAgeDays: 400 };
  a.forEach((r, i) => parseRecord({ ...r, seq: i + 1 }, limits));
  assert.ok(
    a.some((r) => r.type === 'location' && (r.speed_kph as number) > 80),
    'drives at highway speed',
  );
  for (let i = 1; i < a.length; i++) assert.ok(a[i].time >= a[i - 1].time, 'in time order');
});

eachDialect('simulator and OsmAnd over HTTP', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let url: string;
  let osmand: OsmandServer;
  let phone: Rig;

  before(async () => {
    t = await getApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const addr = t.app.server.address() as { port: number };
    url = `http://127.0.0.1:${addr.port}`;
    osmand = await startOsmand(telemetryFor(t.db, t.app.config.telemetry), { host: '127.0.0.1', port: 0 });
    phone = await rig(t);
  });
  after(async () => {
    await osmand?.close();
  });

  test('three simulated hours of two trucks goes through the device API and shows up in the API', async () => {
    await createVehicle(t);
    await createVehicle(t);
    const { devices } = await simDevices(t.db, { companyId: t.company.id }, 2);
    assert.equal(devices.length, 2);
    const sim = new Simulation({
      baseUrl: url,
      devices: devices.slice(0, 2),
      seed: 3,
      speedup: 3600,
      durationS: 3 * 3600,
      tickMs: 100,
    });
    const deadline = setTimeout(() => void sim.stop(), 60_000);
    const stats = await sim.run();
    clearTimeout(deadline);
    assert.equal(stats.rejected, 0);
    assert.ok(stats.records > 500, String(stats.records));
    await settle(t);
    const stored = await t.db.kysely
      .selectFrom('telemetry_records')
      .select('id')
      .where(
        'vehicle_id',
        'in',
        devices.map((d) => d.vehicleId),
      )
      .execute();
    assert.equal(stored.length, stats.records);
    const list = await t.call({
      method: 'GET',
      url: `/v1/vehicle_locations?vehicle_ids=${devices.map((d) => d.vehicleId).join(',')}`,
    });
    for (const w of list.body.vehicles) assert.ok(w.vehicle.current_location, `vehicle ${w.vehicle.id} has a location`);
    const periods = await t.db.kysely
      .selectFrom('driving_periods')
      .selectAll()
      .where(
        'vehicle_id',
        'in',
        devices.map((d) => d.vehicleId),
      )
      .execute();
    assert.ok(periods.length >= 2, `driving periods: ${periods.length}`);
    // While the first run's ELDs report (they did just now), a second run leaves them alone: revoking
    // them would stop the other simulator for good.
    const tenant = { companyId: t.company.id };
    const ids = devices.map((d) => d.vehicleId);
    const meanwhile = await simDevices(t.db, tenant, 2);
    assert.deepEqual(
      meanwhile.devices.filter((d) => ids.includes(d.vehicleId)),
      [],
    );
    assert.deepEqual(
      meanwhile.busy.filter((v) => ids.includes(v)),
      ids,
    );
    await releaseSimDevices(t.db, tenant, meanwhile.devices);
    const live = () =>
      t.db.kysely
        .selectFrom('devices')
        .select('id')
        .where(
          'id',
          'in',
          devices.map((d) => d.deviceId),
        )
        .where('revoked_at', 'is', null)
        .execute();
    assert.equal((await live()).length, 2, 'the busy devices were not revoked');
    // Silent for longer than SIM_IN_USE_S (a run that was killed): the next run takes the vehicles over.
    const later = await simDevices(t.db, tenant, 2, Date.now() + (SIM_IN_USE_S + 1) * 1000);
    assert.deepEqual(
      later.devices.map((d) => d.vehicleId),
      ids,
    );
    assert.notEqual(later.devices[0].token, devices[0].token);
    assert.equal((await live()).length, 0, 'the stale devices were revoked');
    // A run that stops cleanly gives its vehicles back at once.
    await releaseSimDevices(t.db, tenant, later.devices);
    assert.deepEqual(
      (await simDevices(t.db, tenant, 2)).devices.map((d) => d.vehicleId),
      ids,
    );
  });

  test('OsmAnd: GET and POST form positions, knots to kph, the device identifier, re-sends, errors', async () => {
    const id = phone.device.identifier;
    const ts = Math.floor(Date.now() / 1000) - 3600;
    const get = await fetch(
      `${osmand.url}/?id=${id}&lat=41.25&lon=-95.99&timestamp=${ts}&speed=20&bearing=90&altitude=300&accuracy=8&batt=77`,
    );
    assert.equal(get.status, 200);
    const again = await fetch(`${osmand.url}/?id=${id}&lat=41.25&lon=-95.99&timestamp=${ts}&speed=20`);
    assert.equal(again.status, 200, 'a re-sent position is accepted as a duplicate');
    const form = await fetch(`${osmand.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `id=${id}&lat=41.26&lon=-95.98&timestamp=${ts + 10}&speed=21`,
    });
    assert.equal(form.status, 200);
    const json = await fetch(`${osmand.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: id,
        location: {
          timestamp: new Date((ts + 20) * 1000).toISOString(),
          coords: { latitude: 41.27, longitude: -95.97, speed: 10, heading: 45, accuracy: 5, altitude: 290 },
          battery: { level: 0.5 },
        },
      }),
    });
    assert.equal(json.status, 200, await json.text());
    const unknown = await fetch(`${osmand.url}/?id=NOPE-1&lat=41.25&lon=-95.99`);
    assert.equal(unknown.status, 404);
    assert.equal(
      await unknown.text(),
      'device NOPE-1 not found (no active device has this identifier; a revoked one needs a new device)',
    );
    const bad = await fetch(`${osmand.url}/?id=${id}&lat=95&lon=-95.99&timestamp=${ts + 30}`);
    assert.equal(bad.status, 400);
    assert.equal(await bad.text(), 'lat must be between -90 and 90, got 95');
    const missing = await fetch(`${osmand.url}/?lat=41&lon=-95`);
    assert.equal(missing.status, 400);
    const rows = await t.db.kysely
      .selectFrom('telemetry_records')
      .selectAll()
      .where('device_id', '=', phone.device.id)
      .orderBy('fix_time')
      .execute();
    assert.equal(rows.length, 3);
    assert.deepEqual(
      rows.map((r) => [r.channel, Number(r.seq)]),
      [
        [1, ts * 1000],
        [1, (ts + 10) * 1000],
        [1, (ts + 20) * 1000],
      ],
    );
    assert.ok(Math.abs(rows[0].speed_kph! - 37.04) < 1e-9);
    assert.equal(rows[2].speed_kph, 36);
    assert.deepEqual(JSON.parse(rows[0].data!), { accuracy_m: 8, altitude_m: 300, battery_pct: 77 });
    await settle(t);
    const [p] = await t.db.kysely
      .selectFrom('driving_periods')
      .selectAll()
      .where('vehicle_id', '=', phone.vehicle.id)
      .execute();
    assert.equal(p.source, 'mobile');
  });

  const storedRows = async (deviceId: number) =>
    (await t.db.kysely.selectFrom('telemetry_records').select('id').where('device_id', '=', deviceId).execute()).length;

  test("OsmAnd: bad positions are text 400s in the protocol's names; nothing is stored", async () => {
    const v = await rig(t);
    const id = v.device.identifier;
    const ts = Math.floor(Date.now() / 1000) - 600;
    const cases: Array<[string, string]> = [
      [
        `timestamp=9000000000000000`,
        'timestamp must be Unix seconds or milliseconds, or an ISO-8601 date-time from 1970 on, got "9000000000000000"',
      ],
      [
        `timestamp=1969-01-01T00:00:00Z`,
        'timestamp must be Unix seconds or milliseconds, or an ISO-8601 date-time from 1970 on, got "1969-01-01T00:00:00Z"',
      ],
      [
        `timestamp=-5`,
        'timestamp must be Unix seconds or milliseconds, or an ISO-8601 date-time from 1970 on, got "-5"',
      ],
      [
        `timestamp=${ts + 86_400}`,
        `timestamp ${new Date((ts + 86_400) * 1000).toISOString()} is in the future (more than 300 s ahead of the server clock)`,
      ],
      [`timestamp=${ts}&speed=300`, 'speed must be at most 216.0 knots, got 300'],
      [`timestamp=${ts}&altitude=30000`, 'altitude must be between -1000 and 20000, got 30000'],
      // Dates that do not exist, and free text, are refused rather than rolled over or guessed.
      [
        `timestamp=2026-02-30T00:00:00Z`,
        'timestamp must be Unix seconds or milliseconds, or an ISO-8601 date-time from 1970 on, got "2026-02-30T00:00:00Z"',
      ],
      [
        `timestamp=2026-03-01T24:00:00Z`,
        'timestamp must be Unix seconds or milliseconds, or an ISO-8601 date-time from 1970 on, got "2026-03-01T24:00:00Z"',
      ],
      [
        `timestamp=November%2027,%202026`,
        'timestamp must be Unix seconds or milliseconds, or an ISO-8601 date-time from 1970 on, got "November 27, 2026"',
      ],
    ];
    for (const [q, message] of cases) {
      const res = await fetch(`${osmand.url}/?id=${id}&lat=41.25&lon=-95.99&${q}`);
      assert.equal(res.status, 400, q);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      assert.equal(await res.text(), message, q);
    }
    const hex = await fetch(`${osmand.url}/?id=${id}&lat=0x10&lon=-95.99&timestamp=${ts}`);
    assert.deepEqual([hex.status, await hex.text()], [400, 'lat must be a decimal number, got "0x10"']);
    for (const location of ['0x29,-95.8', ',', '41.2', '41.2,-95.9,3']) {
      const res = await fetch(`${osmand.url}/?id=${id}&location=${encodeURIComponent(location)}&timestamp=${ts}`);
      assert.deepEqual(
        [res.status, await res.text()],
        [400, `location must be "lat,lon" in decimal degrees, got "${location}"`],
      );
    }
    const fast = await fetch(`${osmand.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: id,
        location: {
          timestamp: new Date(ts * 1000).toISOString(),
          coords: { latitude: 41.27, longitude: -95.97, speed: 150 },
        },
      }),
    });
    assert.deepEqual(
      [fast.status, await fast.text()],
      [400, 'speed must be at most 111.1 m/s, got 150'],
      "the JSON body's speed is m/s, and named so",
    );
    const broken = await fetch(`${osmand.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"device_id":',
    });
    assert.equal(broken.status, 400);
    assert.match(broken.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await storedRows(v.device.id), 0);
    // Traccar Client's "battery unknown" (level -1) is left out, not stored as 0 %.
    const unknownBattery = await fetch(`${osmand.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: id,
        location: {
          timestamp: new Date(ts * 1000).toISOString(),
          coords: { latitude: 41.27, longitude: -95.97 },
          battery: { level: -1 },
        },
      }),
    });
    assert.equal(unknownBattery.status, 200, await unknownBattery.text());
    const [row] = await t.db.kysely
      .selectFrom('telemetry_records')
      .select('data')
      .where('device_id', '=', v.device.id)
      .execute();
    assert.equal(row.data, null);
    // An unknown speed (iOS sends -1 m/s, -1.94 knots) is left out, not stored as standing still.
    const unknownSpeed = await fetch(
      `${osmand.url}/?id=${id}&lat=41.28&lon=-95.96&timestamp=${ts + 10}&speed=-1.94384`,
    );
    assert.equal(unknownSpeed.status, 200, await unknownSpeed.text());
    const speeds = await t.db.kysely
      .selectFrom('telemetry_records')
      .select(['fix_time', 'speed_kph'])
      .where('device_id', '=', v.device.id)
      .orderBy('fix_time')
      .execute();
    assert.deepEqual(
      speeds.map((x) => x.speed_kph),
      [null, null],
    );
    // Without a speed a fix is a breadcrumb in the history: where, not whether it moved.
    const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
    const history = await t.call({
      method: 'GET',
      url: `/v3/vehicle_locations/${v.vehicle.id}?start_date=${day(ts)}&end_date=${day(ts + 10)}`,
      headers: { 'x-time-zone': 'UTC' },
    });
    assert.deepEqual(
      history.body.vehicle_locations.map((p: any) => [p.vehicle_location.type, p.vehicle_location.speed]),
      [
        ['breadcrumb', null],
        ['breadcrumb', null],
      ],
    );
    // A POST whose body is of another type (binary, text) takes its position from the query.
    for (const [k, headers] of [
      [30, { 'content-type': 'application/octet-stream' }],
      [40, {}],
    ] as const) {
      const res = await fetch(`${osmand.url}/?id=${id}&lat=41.3&lon=-95.9&timestamp=${ts + k}`, {
        method: 'POST',
        headers,
        body: 'ignored',
      });
      assert.equal(res.status, 200, `${JSON.stringify(headers)}: ${await res.text()}`);
    }
    // A time without a zone is UTC; a space may stand for the T.
    const spaced = await fetch(
      `${osmand.url}/?id=${id}&lat=41.29&lon=-95.95&timestamp=${encodeURIComponent(new Date((ts + 20) * 1000).toISOString().slice(0, 19).replace('T', ' '))}`,
    );
    assert.equal(spaced.status, 200, await spaced.text());
    const times = await t.db.kysely
      .selectFrom('telemetry_records')
      .select('fix_time')
      .where('device_id', '=', v.device.id)
      .orderBy('fix_time')
      .execute();
    assert.deepEqual(
      times.map((x) => Date.parse(x.fix_time) / 1000 - ts),
      [0, 10, 20, 30, 40],
    );
  });

  test('OsmAnd: a revoked device and an unknown one get the same 404 (no credential to tell them apart to); nothing is stored', async () => {
    const v = await rig(t);
    await revokeDevice(t.db, { companyId: t.company.id }, v.device.id);
    const ts = Math.floor(Date.now() / 1000) - 60;
    const revoked = await fetch(`${osmand.url}/?id=${v.device.identifier}&lat=41.25&lon=-95.99&timestamp=${ts}`);
    assert.deepEqual(
      [revoked.status, await revoked.text()],
      [
        404,
        `device ${v.device.identifier} not found (no active device has this identifier; a revoked one needs a new device)`,
      ],
    );
    const unknown = await fetch(
      `${osmand.url}/?id=NO-SUCH-${v.device.identifier}&lat=41.25&lon=-95.99&timestamp=${ts}`,
    );
    assert.deepEqual(
      [unknown.status, await unknown.text()],
      [
        404,
        `device NO-SUCH-${v.device.identifier} not found (no active device has this identifier; a revoked one needs a new device)`,
      ],
    );
    assert.equal(await storedRows(v.device.id), 0);
  });
});
