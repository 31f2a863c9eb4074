/**
 * The driver of each history point when logins, logouts and fixes arrive out of order, and the current
 * driver of the vehicle and driver location lists that follows from them.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { at, login, rig, send, track, DAY, type Rig } from './fixtures.js';

eachDialect('driver of each point, out of order', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '600', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  before(async () => {
    t = await getApp();
  });

  const logout = (s: number) => ({ type: 'driver', time: at(s), action: 'logout' });
  /** [second of the day's test hour, driver id] of every history point, from the wire. */
  const history = async (v: Rig) => {
    const res = await t.call({
      method: 'GET',
      url: `/v1/vehicle_locations/${v.vehicle.id}?date=${DAY}`,
      headers: { 'x-time-zone': 'UTC' },
    });
    assert.equal(res.status, 200);
    return res.body.vehicle_locations.map((p: any) => [
      (Date.parse(p.vehicle_location.located_at) - Date.parse(at(0))) / 1000,
      p.vehicle_location.driver?.id ?? null,
    ]);
  };
  const currentDriver = async (v: Rig) =>
    (await t.call({ method: 'GET', url: `/v1/vehicle_locations?vehicle_ids=${v.vehicle.id}` })).body.vehicles[0].vehicle
      .current_driver?.id ?? null;

  test('a login that arrives after later fixes stamps those fixes and the current location', async () => {
    const v = await rig(t);
    await send(t, v, track({ fromS: 0, toS: 30, kph: 50 }));
    await send(t, v, [login(15, v.driver.id)]);
    assert.deepEqual(await history(v), [
      [0, null],
      [10, null],
      [20, v.driver.id],
      [30, v.driver.id],
    ]);
    assert.equal(await currentDriver(v), v.driver.id);
  });

  test('a fix that arrives after a later logout is stamped with the driver of its time', async () => {
    const v = await rig(t);
    await send(t, v, [
      login(0, v.driver.id),
      ...track({ fromS: 10, toS: 20, kph: 50 }),
      logout(40),
      ...track({ fromS: 50, toS: 50, kph: 50 }),
    ]);
    await send(t, v, track({ fromS: 30, toS: 30, kph: 50 }));
    assert.deepEqual(await history(v), [
      [10, v.driver.id],
      [20, v.driver.id],
      [30, v.driver.id],
      [50, null],
    ]);
    assert.equal(await currentDriver(v), null);
  });

  test('a late logout between stored fixes takes the driver off the fixes after it, up to the next login', async () => {
    const v = await rig(t);
    const other = (await rig(t)).driver;
    await send(t, v, [
      login(0, v.driver.id),
      ...track({ fromS: 10, toS: 50, kph: 50 }),
      login(45, other.id),
      ...track({ fromS: 60, toS: 60, kph: 50 }),
    ]);
    await send(t, v, [logout(25)]);
    assert.deepEqual(await history(v), [
      [10, v.driver.id],
      [20, v.driver.id],
      [30, null],
      [40, null],
      [50, other.id],
      [60, other.id],
    ]);
    assert.equal(await currentDriver(v), other.id);
  });

  test('a fix older than everything, after a logout newer than the last fix: the truck stays without a driver', async () => {
    const v = await rig(t);
    await send(t, v, [login(0, v.driver.id), ...track({ fromS: 10, toS: 30, kph: 50 }), logout(40)]);
    assert.equal(await currentDriver(v), null);
    await send(t, v, track({ fromS: -300, toS: -300, kph: 50 }));
    assert.deepEqual(await history(v), [
      [-300, null],
      [10, v.driver.id],
      [20, v.driver.id],
      [30, v.driver.id],
    ]);
    assert.equal(await currentDriver(v), null, 'the logout at 40 s still holds');
    const located = await t.call({ method: 'GET', url: `/v1/driver_locations?driver_ids=${v.driver.id}` });
    assert.deepEqual(
      [located.body.users[0].user.current_location, located.body.users[0].user.current_vehicle],
      [null, null],
    );
    // The vehicle names the driver its current driver: the driver is shown with it, and where it is.
    await t.db.kysely
      .updateTable('vehicles')
      .set({ current_driver_id: v.driver.id })
      .where('id', '=', v.vehicle.id)
      .execute();
    const assigned = (await t.call({ method: 'GET', url: `/v1/driver_locations?driver_ids=${v.driver.id}` })).body
      .users[0].user;
    const vehicleNow = (await t.call({ method: 'GET', url: `/v1/vehicle_locations?vehicle_ids=${v.vehicle.id}` })).body
      .vehicles[0].vehicle;
    assert.equal(vehicleNow.current_driver.id, v.driver.id);
    assert.deepEqual(assigned.current_vehicle.id, v.vehicle.id);
    const { lat, lon, description, located_at } = vehicleNow.current_location;
    assert.deepEqual(assigned.current_location, { lat, lon, description, located_at });
    assert.equal(located_at, `${at(30).slice(0, 19)}Z`);
    await t.db.kysely.updateTable('vehicles').set({ current_driver_id: null }).where('id', '=', v.vehicle.id).execute();
    // A late login before that logout changes nothing: the logout is still the newest driver record.
    await send(t, v, [login(35, v.driver.id)]);
    assert.equal(await currentDriver(v), null);
  });
});
