/**
 * The simulator end to end on each database: four trucks with drivers, the demo terminal geofences,
 * ten simulated hours posted over HTTP to the device API (the wall clock moved by the test, a
 * simulated hour per round), processed, then read back through the public API and compared with what
 * the trucks sent: driving periods with their drivers, idle events of at least IDLE_THRESHOLD_S, faults
 * opened and closed (cleared or expired), every hard brake sent, speeding, a terminal entered and left,
 * gateways unplugged and plugged back in, and each truck's last fix as its location.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { assertList, createUser, createVehicle } from '../http/fixtures.js';
import { Simulation, type SimDevice, type SimStats } from '../../src/sim/runner.js';
import { seedTelemetryDemo, simDevices } from '../../src/sim/devices.js';
import { DEFAULT_THRESHOLDS as TH } from '../../src/telemetry/thresholds.js';
import { haversineM } from '../../src/telemetry/units.js';
import { settle } from './fixtures.js';

const TRUCKS = 4;
const HOURS = 10;
/** Seed 34: in ten hours its four trucks raise faults, clear some and leave others to expire, and drive into terminals and out again. */
const SEED = 34;
const SPEEDUP = 3600;

/** The API's second-precision time of a stored fix time. */
const wire = (iso: string) => `${iso.slice(0, 19)}Z`;
const secs = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 1000;

eachDialect('the simulator through ingestion and processing', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let devices: SimDevice[];
  let stats: SimStats;
  let sent: Array<{
    vehicle_id: number | null;
    type: string;
    fix_time: string;
    lat: number | null;
    lon: number | null;
    speed_kph: number | null;
    data: string | null;
  }>;
  const driverOf = (vehicleId: number) => devices.find((d) => d.vehicleId === vehicleId)!.driverId;

  /** Every item of a list for the simulated trucks (one page holds them all). */
  async function list(path: string, plural: string, singular: string, query = ''): Promise<any[]> {
    const res = await t.call({
      method: 'GET',
      url: `${path}?vehicle_ids=${devices.map((d) => d.vehicleId).join(',')}&per_page=100${query}`,
      headers: { 'x-time-zone': 'UTC' },
    });
    const items = assertList(res, plural, singular);
    assert.equal(items.length, res.body.pagination.total, `${path}: one page holds every item`);
    return items;
  }

  before(async () => {
    t = await getApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    for (let i = 0; i < TRUCKS; i++) {
      await createVehicle(t);
      await createUser(t);
    }
    await seedTelemetryDemo(t.db, { companyId: t.company.id });
    devices = (await simDevices(t.db, { companyId: t.company.id }, TRUCKS)).devices;
    let wall = Date.now();
    const sim = new Simulation({
      baseUrl: `http://127.0.0.1:${port}`,
      devices,
      seed: SEED,
      speedup: SPEEDUP,
      durationS: HOURS * 3600,
      now: () => wall,
    });
    for (let round = 0; !(await sim.round()); round++) {
      assert.ok(round <= HOURS, `the run ends after ${HOURS} simulated hours`);
      wall += 3_600_000 / SPEEDUP;
    }
    stats = sim.stats;
    await settle(t);
    sent = await t.db.kysely
      .selectFrom('telemetry_records')
      .select(['vehicle_id', 'type', 'fix_time', 'lat', 'lon', 'speed_kph', 'data'])
      .where('company_id', '=', t.company.id)
      .orderBy('fix_time')
      .orderBy('id')
      .execute();
  });

  test("every record posted is stored, none rejected; each truck's location is its last fix", async () => {
    assert.equal(devices.length, TRUCKS);
    assert.equal(new Set(devices.map((d) => d.driverId)).size, TRUCKS, 'a driver of its own for each truck');
    assert.equal(stats.rejected, 0);
    assert.equal(stats.simulatedS, HOURS * 3600);
    assert.equal(sent.length, stats.records);
    assert.ok(stats.records > TRUCKS * HOURS * 250, `${stats.records} records`);
    const res = await t.call({
      method: 'GET',
      url: `/v1/vehicle_locations?vehicle_ids=${devices.map((d) => d.vehicleId).join(',')}`,
    });
    const items = assertList(res, 'vehicles', 'vehicle');
    assert.equal(items.length, TRUCKS);
    for (const v of items) {
      const last = sent.filter((r) => r.vehicle_id === v.id && r.lat !== null).at(-1)!;
      assert.deepEqual(
        [v.current_location.located_at, v.current_location.lat, v.current_location.lon],
        [wire(last.fix_time), last.lat, last.lon],
        `truck ${v.id}`,
      );
    }
  });

  test("/v1/driving_periods: several legs per truck, each with the truck's driver and distance on the odometer", async () => {
    const periods = await list('/v1/driving_periods', 'driving_periods', 'driving_period');
    for (const d of devices) {
      const own = periods.filter((p) => p.vehicle.id === d.vehicleId);
      assert.ok(own.filter((p) => p.status === 'complete').length >= 2, `truck ${d.vehicleId}: ${own.length} periods`);
      assert.ok(own.filter((p) => p.status === 'in_progress').length <= 1);
    }
    for (const p of periods) {
      assert.deepEqual([p.type, p.source, p.driver?.id], ['driving', 'eld', driverOf(p.vehicle.id)], `period ${p.id}`);
      if (p.status !== 'complete') continue;
      assert.ok(
        p.end_kilometers - p.start_kilometers > 1,
        `period ${p.id}: ${p.start_kilometers} → ${p.end_kilometers} km`,
      );
      assert.ok(secs(p.start_time, p.end_time) > 600, `period ${p.id} from ${p.start_time} to ${p.end_time}`);
    }
  });

  test('/v1/idle_events: warm-ups ended by moving off and stops ended by the engine, none shorter than IDLE_THRESHOLD_S', async () => {
    const idles = await list('/v1/idle_events', 'idle_events', 'idle_event');
    for (const i of idles) {
      assert.ok(secs(i.start_time, i.end_time) >= TH.idleThresholdS, `idle ${i.id}: ${i.start_time} → ${i.end_time}`);
      assert.equal(i.driver?.id, driverOf(i.vehicle.id), `idle ${i.id}`);
      assert.ok(i.veh_fuel_end > i.veh_fuel_start, `idle ${i.id} burns fuel`);
    }
    assert.deepEqual([...new Set(idles.map((i) => i.end_type))].sort(), ['engine_stop', 'vehicle_moving']);
    assert.ok(new Set(idles.map((i) => i.vehicle.id)).size === TRUCKS, 'every truck idles');
  });

  test('/v1/fault_codes: each fault cleared by a truck is closed and cleared; one left to expire is closed and inactive', async () => {
    const faults = await list('/v1/fault_codes', 'fault_codes', 'fault_code');
    const clears = sent.filter((r) => r.type === 'fault' && JSON.parse(r.data!).status === 'cleared');
    assert.ok(clears.length >= 2, `${clears.length} faults cleared`);
    const cleared = faults.filter((f) => f.dtc_status === 'cleared');
    assert.equal(cleared.length, clears.length);
    for (const f of cleared) {
      assert.equal(f.status, 'closed');
      assert.ok(
        secs(f.first_observed_at, f.last_observed_at) >= 60 && f.num_observations >= 2,
        `fault ${f.id} was reported more than once before it cleared`,
      );
    }
    const expired = faults.filter((f) => f.status === 'closed' && f.dtc_status === 'inactive');
    assert.ok(expired.length >= 1, 'a fault left to expire is closed after FAULT_CLOSE_GRACE_S');
    for (const f of faults) assert.ok(['110', '3226', '100', '168', 'P0420'].includes(f.code), `code ${f.code}`);
    assert.ok(
      new Set(faults.map((f) => f.dtc_severity).filter((s) => s !== null)).size >= 2,
      'faults of more than one severity (the lamps they light)',
    );
  });

  test('/v1/driver_performance_events: a hard brake for every brake sent, and speeding of at least SPEEDING_MIN_S above SPEEDING_KPH', async () => {
    const events = await list('/v1/driver_performance_events', 'driver_performance_events', 'driver_performance_event');
    const brakes = events.filter((e) => e.type === 'hard_brake');
    const key = (vehicleId: number | null, time: string) => `${vehicleId} ${time}`;
    const sentBrakes = sent.filter((r) => r.type === 'acceleration').map((r) => key(r.vehicle_id, wire(r.fix_time)));
    assert.ok(sentBrakes.length >= TRUCKS, `${sentBrakes.length} brakes sent`);
    assert.deepEqual(brakes.map((e) => key(e.vehicle.id, e.start_time)).sort(), sentBrakes.sort());
    for (const e of brakes)
      assert.ok(e.acceleration <= -TH.hardBrakeG && e.driver?.id === driverOf(e.vehicle.id), `brake ${e.id}`);
    const speeding = events.filter((e) => e.type === 'speeding');
    assert.ok(speeding.length >= 2, `${speeding.length} speeding events`);
    for (const e of speeding) {
      assert.ok(secs(e.start_time, e.end_time) >= TH.speedingMinS, `speeding ${e.id}: ${e.start_time} → ${e.end_time}`);
      const fixes = sent.filter(
        (r) =>
          r.vehicle_id === e.vehicle.id &&
          r.type === 'location' &&
          wire(r.fix_time) >= e.start_time &&
          wire(r.fix_time) < e.end_time,
      );
      assert.ok(
        fixes.length >= TH.speedingMinS / 10 && fixes.every((r) => r.speed_kph! > TH.speedingKph),
        `speeding ${e.id}: ${fixes.map((r) => r.speed_kph)}`,
      );
    }
  });

  test('/v1/geofences/events: a truck enters a demo terminal and leaves it, and was inside in between', async () => {
    const fences = assertList(
      await t.call({ method: 'GET', url: '/v1/geofences?per_page=100' }),
      'geofences',
      'geofence',
    );
    assert.equal(fences.filter((g) => / terminal$/.test(g.name)).length, 12);
    const visits = (await list('/v1/geofences/events', 'geofence_events', 'geofence_event')).filter(
      (g) => g.end_time !== null,
    );
    assert.ok(visits.length >= 1, 'a terminal entered and left');
    for (const v of visits) {
      const fence = fences.find((g) => g.id === v.geofence_id);
      assert.match(fence.name, / terminal$/);
      assert.ok(Math.abs(v.duration - secs(v.start_time, v.end_time)) <= 1, `visit ${v.id}: ${v.duration} s`);
      assert.equal(v.start_driver?.id, driverOf(v.vehicle.id));
      assert.equal(fence.radius_m, 3000);
      const inside = sent.filter(
        (r) =>
          r.vehicle_id === v.vehicle.id &&
          r.lat !== null &&
          wire(r.fix_time) > v.start_time &&
          wire(r.fix_time) < v.end_time,
      );
      const far = inside.filter(
        (r) => haversineM(r.lat!, r.lon!, fence.center.lat, fence.center.lon) > fence.radius_m + TH.geofenceExitBufferM,
      );
      assert.ok(
        inside.length > 0 && far.length === 0,
        `visit ${v.id} to ${fence.name}: ${inside.length} fixes, ${far.length} outside`,
      );
    }
  });

  test('gateway webhooks: each unplugging at a rest stop is announced, and its end when plugged back in, with the duration', async () => {
    const events = await t.db.kysely
      .selectFrom('domain_events')
      .select(['action', 'subject_id', 'data'])
      .where('company_id', '=', t.company.id)
      .where('action', 'in', ['vehicle_gateway_disconnected', 'vehicle_gateway_disconnect_ended'])
      .orderBy('id')
      .execute();
    const got = events.map((e) => {
      const d = JSON.parse(e.data);
      return [Number(e.subject_id), e.action, d.disconnected_at, d.reconnected_at, d.duration, d.driver_id];
    });
    // From what was sent: every "disconnected", and the "connected" after it (a truck's first one only says it is plugged in).
    const want: unknown[] = [];
    for (const d of devices) {
      let out: string | null = null;
      for (const r of sent.filter((x) => x.vehicle_id === d.vehicleId && x.type === 'power')) {
        const state = JSON.parse(r.data!).state;
        if (state === 'disconnected') {
          out = wire(r.fix_time);
          want.push([d.vehicleId, 'vehicle_gateway_disconnected', out, null, null, d.driverId]);
        } else if (out !== null) {
          want.push([
            d.vehicleId,
            'vehicle_gateway_disconnect_ended',
            out,
            wire(r.fix_time),
            secs(out, wire(r.fix_time)),
            d.driverId,
          ]);
          out = null;
        }
      }
    }
    const byVehicle = (xs: unknown[]) => [...xs].sort((a: any, b: any) => a[0] - b[0]);
    assert.ok(want.length >= 2, `${want.length} gateway changes sent`);
    assert.deepEqual(byVehicle(got), byVehicle(want));
  });
});
