/**
 * The simulator over real HTTP on both databases: a second run goes on from each vehicle's last stored
 * fix (no second track over stored time, counters never go back), and a vehicle whose batches the
 * server refuses for good (401) is stopped with the reason instead of being retried forever.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { eachDialect } from '../helper.js';
import { createVehicle } from '../http/fixtures.js';
import { useRigApp } from './fixtures.js';
import { releaseSimDevices, simDevices } from '../../src/sim/devices.js';
import { Simulation } from '../../src/sim/runner.js';
import { haversineM } from '../../src/telemetry/units.js';

const HOUR = 3_600_000;

eachDialect('simulator runs', (dialect) => {
  const getApp = useRigApp(dialect);
  let baseUrl = '';
  before(async () => {
    const { t } = await getApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });

  it('a second run resumes each vehicle after its last stored fix, where it was, with its counters', async () => {
    const { t } = await getApp();
    const vehicle = await createVehicle(t, { number: `SIM-R-${dialect}` });
    const tenant = { companyId: t.company.id };
    // The first run: the two hours that ended three hours ago (its wall clock is three hours behind).
    const { devices: first } = await simDevices(t.db, tenant, 1);
    assert.deepEqual(
      first.map((d) => [d.vehicleId, d.resume]),
      [[vehicle.id, null]],
    );
    const behind = () => Date.now() - 3 * HOUR;
    const one = await new Simulation({
      baseUrl,
      devices: first,
      seed: 5,
      speedup: 3600,
      durationS: 7200,
      tickMs: 20,
      now: behind,
    }).run();
    assert.equal(one.rejected, 0);
    assert.ok(one.records > 100, `first run sent ${one.records} records`);

    const fixes = () =>
      t.db.kysely
        .selectFrom('telemetry_records')
        .select(['device_id', 'fix_time', 'lat', 'lon', 'odometer_km', 'engine_hours', 'fuel_used_l'])
        .where('vehicle_id', '=', vehicle.id)
        .where('type', '=', 'location')
        .orderBy('fix_time')
        .execute();
    const last = (await fixes()).at(-1)!;

    // The first run ended cleanly and gave its vehicle back (as `fleet simulate` does).
    await releaseSimDevices(t.db, tenant, first);
    const { devices: second } = await simDevices(t.db, tenant, 1);
    assert.equal(second[0].vehicleId, vehicle.id);
    assert.equal(second[0].resume?.t, Date.parse(last.fix_time));
    assert.deepEqual(
      [second[0].resume?.lat, second[0].resume?.lon, second[0].resume?.odometerKm],
      [last.lat, last.lon, last.odometer_km],
    );
    // Six hours ending now: the vehicle starts after its last fix, not six hours back.
    const two = await new Simulation({
      baseUrl,
      devices: second,
      seed: 5,
      speedup: 3600,
      durationS: 6 * 3600,
      tickMs: 20,
    }).run();
    assert.equal(two.rejected, 0);

    const all = await fixes();
    const firstDevice = all[0].device_id;
    const resumed = all.filter((f) => f.device_id !== firstDevice);
    assert.ok(resumed.length > 100, `second run stored ${resumed.length} fixes`);
    assert.ok(resumed[0].fix_time > last.fix_time, `${resumed[0].fix_time} after ${last.fix_time}`);
    assert.ok(
      all.findIndex((f) => f.device_id !== firstDevice) === all.length - resumed.length,
      'the runs do not interleave',
    );
    assert.ok(haversineM(last.lat!, last.lon!, resumed[0].lat!, resumed[0].lon!) < 1, 'it starts where it was');
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      for (const k of ['odometer_km', 'engine_hours', 'fuel_used_l'] as const)
        assert.ok(b[k]! >= a[k]!, `${k} ${a[k]} → ${b[k]} at ${b.fix_time}`);
      const km = haversineM(a.lat!, a.lon!, b.lat!, b.lon!) / 1000;
      assert.ok(km < 1, `${km.toFixed(1)} km from ${a.fix_time} to ${b.fix_time}`);
    }
  });

  it('a vehicle the server refuses (unknown credential) is stopped with the reason, not retried', async () => {
    const { t } = await getApp();
    const vehicle = await createVehicle(t, { number: `SIM-X-${dialect}` });
    const started = Date.now();
    const stats = await new Simulation({
      baseUrl,
      devices: [{ deviceId: 0, vehicleId: vehicle.id, driverId: null, token: 'not-a-device-token' }],
      seed: 1,
      speedup: 3600,
      durationS: 3600,
      tickMs: 20,
    }).run();
    assert.ok(Date.now() - started < 5000);
    assert.equal(stats.retries, 0);
    assert.equal(stats.records, 0);
    assert.deepEqual(stats.refused, [
      `vehicle ${vehicle.id}: HTTP 401 {"error_message":"invalid device credential"} (the server does not know this device: does this command use the server's DATABASE_URL?)`,
    ]);
  });
});
