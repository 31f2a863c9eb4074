/**
 * Telemetry announced through webhooks, end to end: batches posted to the device API, processed in the
 * transaction that stores them, reach the receiver as the flat wire bodies of the event catalogue
 * (docs/webhooks.md): vehicle_location_received (recorded only while a webhook listens),
 * driver_performance_event_created/updated (a speeding event announced while it lasts, then when it
 * ends) and asset_geofence_event (an asset's gateway crossing a circle).
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect } from '../../helper.js';
import { provisionDevice } from '../../../src/domain/devices/service.js';
import { pointId } from '../../../src/telemetry/point-id.js';
import { at, login, post, rig, send, track, type Rig } from '../../telemetry/fixtures.js';
import { registerHook, useHookApp, useReceiver, type HookApp, type Receiver } from './receiver.js';
import { lowestSpeed, performanceMembers } from './performance-fixtures.js';

const w = (s: number) => `${at(s).slice(0, 19)}Z`;
const round2 = (x: number) => Math.round(x * 100) / 100;
const round1 = (x: number) => Math.round(x * 10) / 10;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
/** Degrees of longitude for `m` meters along a parallel, with the radius the geometry uses. */
const lonDeg = (m: number, lat: number) => m / ((6_371_008.8 * Math.cos((lat * Math.PI) / 180) * Math.PI) / 180);

eachDialect('telemetry webhooks', (dialect) => {
  const getApp = useHookApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  const getReceiver = useReceiver();
  let t: HookApp;
  let r: Receiver;
  before(async () => {
    t = await getApp();
    r = await getReceiver();
  });

  const eventsOf = async (action: string) =>
    (
      await t.db.kysely
        .selectFrom('domain_events')
        .select(['id', 'subject_id'])
        .where('company_id', '=', t.company.id)
        .where('action', '=', action)
        .execute()
    ).length;
  const storedRow = (v: Rig, seq: number) =>
    t.db.kysely
      .selectFrom('telemetry_records')
      .selectAll()
      .where('device_id', '=', v.device.id)
      .where('seq', '=', seq)
      .executeTakeFirstOrThrow();

  it('the location events: nothing is recorded while no enabled webhook of the company listens', async () => {
    const v = await rig(t as never);
    const other = await t.newCompany('Listening Elsewhere');
    const theirs = await t.call({
      as: other,
      method: 'POST',
      url: '/v1/company_webhooks',
      payload: { url: `${r.url}/elsewhere`, actions: ['vehicle_location_received'] },
    });
    assert.equal(theirs.status, 201, theirs.raw);
    const off = await registerHook(t, r, ['vehicle_location_received', 'vehicle_location_updated']);
    assert.equal(
      (await t.call({ method: 'PUT', url: `/v1/company_webhooks/${off.id}`, payload: { enabled: false } })).status,
      200,
    );
    await send(t as never, v, track({ fromS: 0, toS: 50, kph: 80 }));
    assert.equal(await eventsOf('vehicle_location_received'), 0);
    assert.equal(await eventsOf('vehicle_location_updated'), 0);
    const latest = await t.db.kysely
      .selectFrom('vehicle_locations_latest')
      .select('located_at')
      .where('vehicle_id', '=', v.vehicle.id)
      .executeTakeFirstOrThrow();
    assert.equal(latest.located_at, new Date(at(50)).toISOString(), 'the current location still moves');
    await t.run();
    assert.deepEqual(r.deliveries(off.path), []);
  });

  it('vehicle_location_received: one delivery per stored location record, in fix-time order, as vehicle_location_updated shows a point', async () => {
    const v = await rig(t as never);
    const hook = await registerHook(t, r, ['vehicle_location_received', 'vehicle_location_updated']);
    const fix = (seq: number, s: number, kph: number) => ({
      seq,
      type: 'location',
      time: at(s),
      lat: 39.8,
      lon: -89.65 + s * 0.0002,
      speed_kph: kph,
      bearing_deg: 90,
      odometer_km: 1000 + s / 10,
      fuel_used_l: 500 + s / 100,
    });
    await send(t as never, v, [{ ...login(0, v.driver.id), seq: 1 }]);
    // Out of order within the batch, with an engine record (not a location) and a repeated seq.
    const batch = [
      fix(4, 30, 80),
      fix(2, 10, 0),
      { seq: 5, type: 'engine', time: at(35), state: 'on', lat: 39.8, lon: -89.6 },
      fix(3, 20, 40),
      fix(2, 10, 0),
    ];
    const res = await send(t as never, v, batch);
    assert.deepEqual([res.accepted, res.duplicates], [4, 1]);
    await t.run();
    const got = r.deliveries(hook.path).map((d) => d.body);
    assert.deepEqual(
      got.map((b) => [b.action, b.located_at]),
      [
        ['vehicle_location_received', w(10)],
        ['vehicle_location_received', w(20)],
        ['vehicle_location_received', w(30)],
        ['vehicle_location_updated', w(30)],
      ],
    );
    const expected = async (seq: number, s: number, kph: number) => {
      const row = await storedRow(v, seq);
      return {
        // Wire units rounded as the history shows a point: mph and miles to 0.1, gallons to 0.01, degrees to 1e-6.
        id: pointId(row.id),
        vehicle_id: v.vehicle.id,
        located_at: w(s),
        lat: 39.8,
        lon: round6(-89.65 + s * 0.0002),
        bearing: 90,
        engine_hours: null,
        speed: round1(kph / 1.609344),
        odometer: round1((1000 + s / 10) / 1.609344),
        fuel: round2((500 + s / 100) / 3.785411784),
        type: kph > 8.05 ? 'vehicle_moving' : 'vehicle_stopped',
        description: row.description,
        driver_id: v.driver.id,
        eld_device_id: v.device.id,
      };
    };
    assert.deepEqual(got[0], { action: 'vehicle_location_received', ...(await expected(2, 10, 0)) });
    assert.deepEqual(got[1], { action: 'vehicle_location_received', ...(await expected(3, 20, 40)) });
    assert.deepEqual(got[2], { action: 'vehicle_location_received', ...(await expected(4, 30, 80)) });
    assert.deepEqual(got[3], { ...got[2], action: 'vehicle_location_updated' });
    assert.match(String(got[0].description), /^(\d+\.\d mi [NESW]{1,2} of )?[A-Za-z .]+, IL$/);

    // A re-sent batch announces nothing; a late record is still a received point (not a newer location).
    assert.equal((await send(t as never, v, batch)).accepted, 0);
    const late = await send(t as never, v, [fix(6, 15, 20)]);
    assert.equal(late.results[0].late, true);
    await t.run();
    const after = r
      .deliveries(hook.path)
      .slice(4)
      .map((d) => d.body);
    assert.deepEqual(after, [{ action: 'vehicle_location_received', ...(await expected(6, 15, 20)) }]);
  });

  it('driver_performance_event_created when a speeding event has lasted a minute, driver_performance_event_updated when it ends', async () => {
    const v = await rig(t as never);
    const hook = await registerHook(t, r, ['driver_performance_event_created', 'driver_performance_event_updated']);
    await send(t as never, v, [login(-1, v.driver.id)]);
    await send(t as never, v, track({ fromS: 0, toS: 90, kph: 125 }));
    await t.run();
    const [created] = r.deliveries(hook.path).map((d) => d.body);
    const list = async () =>
      (await t.call({ method: 'GET', url: `/v1/driver_performance_events?vehicle_ids=${v.vehicle.id}` })).body
        .driver_performance_events;
    // The REST object (driver, vehicle and ELD device as objects), plus the ids and the real body's members (docs/reference/wire.md §7.6).
    const [item] = await list();
    const p = item.driver_performance_event;
    assert.deepEqual(created, {
      action: 'driver_performance_event_created',
      ...p,
      ...performanceMembers(v, { type: 'speeding', max: 125, min: lowestSpeed(p), severity: 'low' }),
    });
    assert.deepEqual(
      [created.type, created.start_time, created.end_time, created.duration, created.coaching_status],
      ['speeding', w(0), w(60), 60, 'pending_review'],
    );
    assert.deepEqual(
      [created.driver.id, created.vehicle.id, created.vehicle.vin, created.eld_device.id],
      [v.driver.id, v.vehicle.id, v.vehicle.vin, v.device.id],
    );

    // Faster for a while, then back under the limit at 130 s: the same event, now complete.
    await send(t as never, v, [
      ...track({ fromS: 100, toS: 120, kph: 130, lon: -89.6 }),
      ...track({ fromS: 130, toS: 130, kph: 100, lon: -89.58 }),
    ]);
    await t.run();
    const bodies = r.deliveries(hook.path).map((d) => d.body);
    assert.equal(bodies.length, 2);
    const rows = await list();
    assert.equal(rows.length, 1);
    assert.equal(rows[0].driver_performance_event.id, created.id);
    assert.equal(rows[0].driver_performance_event.end_time, w(130));
    const q = rows[0].driver_performance_event;
    assert.deepEqual(bodies[1], {
      action: 'driver_performance_event_updated',
      ...q,
      ...performanceMembers(v, { type: 'speeding', max: 130, min: lowestSpeed(q), severity: 'medium' }),
    });
    // Later fixes under the limit change nothing, so nothing more is announced.
    await send(t as never, v, [...track({ fromS: 200, toS: 210, kph: 90, lon: -89.5 })]);
    await t.run();
    assert.equal(r.deliveries(hook.path).length, 2);
  });

  it('asset_geofence_event: an asset gateway entering and leaving a circle, crossings interpolated', async () => {
    const lat = 41.25;
    const lon0 = -95.99;
    const g = await t.call({
      method: 'POST',
      url: '/v1/geofences/circular',
      payload: { name: `Yard ${dialect}`, center: { lat, lon: lon0 }, radius_m: 1000 },
    });
    assert.equal(g.status, 201, g.raw);
    const geofenceId = g.body.geofence.id;
    const asset = (await t.call({ method: 'POST', url: '/v1/assets', payload: { name: `Trailer ${dialect} 9` } })).body
      .asset;
    const gw = await provisionDevice(
      t.db,
      { companyId: t.company.id },
      { identifier: `GW-${dialect}-geo`, assetId: asset.id },
    );
    const hook = await registerHook(t, r, ['asset_geofence_event', 'vehicle_geofence_event']);
    const ping = (seq: number, s: number, westM: number) => ({
      seq,
      type: 'location',
      time: at(s),
      lat,
      lon: lon0 - lonDeg(westM, lat),
      speed_kph: 20,
    });
    // Outside twice, inside twice (entry confirmed at the second), outside twice (exit confirmed).
    const first = await post(t as never, gw.device_token, {
      records: [ping(1, 0, 2000), ping(2, 10, 1500), ping(3, 20, 500), ping(4, 30, 500)],
    });
    assert.equal(first.body.accepted, 4);
    await t.run();
    const entered = r.deliveries(hook.path).map((d) => d.body);
    assert.equal(entered.length, 1);
    const summary = {
      id: asset.id,
      name: `Trailer ${dialect} 9`,
      status: asset.status,
      type: asset.type,
      vin: asset.vin ?? null,
    };
    const visit = { id: entered[0].id, geofence_id: geofenceId, start_time: w(15) };
    // The vehicle's visit object with `asset` in the place of `vehicle` (docs/reference/wire.md §4.23).
    assert.deepEqual(entered[0], {
      action: 'asset_geofence_event',
      trigger: 'entered',
      ...visit,
      end_time: null,
      duration: 0,
      asset: summary,
      start_driver: null,
      end_driver: null,
    });
    await post(t as never, gw.device_token, { records: [ping(5, 40, 1500), ping(6, 50, 2000)] });
    await t.run();
    const exited = r.deliveries(hook.path).map((d) => d.body)[1];
    assert.deepEqual(exited, {
      action: 'asset_geofence_event',
      trigger: 'exited',
      ...visit,
      end_time: w(35),
      duration: 20,
      asset: summary,
      start_driver: null,
      end_driver: null,
    });
    const rows = await t.db.kysely
      .selectFrom('asset_geofence_events')
      .selectAll()
      .where('asset_id', '=', asset.id)
      .execute();
    assert.deepEqual(
      rows.map((x) => [x.id, x.geofence_id, x.start_time, x.end_time]),
      [[visit.id, geofenceId, new Date(at(15)).toISOString(), new Date(at(35)).toISOString()]],
    );
    assert.equal(r.deliveries(hook.path).length, 2, 'no vehicle_geofence_event for an asset');
  });

  it('fault_code_opened/closed and vehicle_geofence_event carry the REST objects; a fault opened and cleared in one batch is announced open, then closed', async () => {
    const v = await rig(t as never);
    const hook = await registerHook(t, r, ['fault_code_opened', 'fault_code_closed', 'vehicle_geofence_event']);
    const fault = (s: number, status: string) => ({
      type: 'fault',
      time: at(s),
      protocol: 'j1939',
      spn: 100,
      fmi: 1,
      source_address: 0,
      status,
      lat: 39.8,
      lon: -89.65,
    });
    await send(t as never, v, [{ type: 'engine', time: at(0), state: 'on' }, fault(5, 'active'), fault(6, 'cleared')]);
    await t.run();
    const [opened, closed] = r.deliveries(hook.path).map((d) => d.body);
    const [item] = (
      await t.call({ method: 'GET', url: `/v1/fault_codes?vehicle_ids=${v.vehicle.id}` })
    ).body.fault_codes.map((x: any) => x.fault_code);
    assert.equal(item.status, 'closed');
    assert.deepEqual(opened, { action: 'fault_code_opened', ...item, status: 'open', closed_at: null, cleared: false });
    assert.deepEqual(closed, { action: 'fault_code_closed', ...item, closed_at: w(6), cleared: true });
    assert.deepEqual(
      [opened.vehicle.id, opened.vehicle.vin, opened.eld_device.id],
      [v.vehicle.id, v.vehicle.vin, v.device.id],
    );

    const g = await t.call({
      method: 'POST',
      url: '/v1/geofences/circular',
      payload: { name: `Dock ${dialect}`, center: { lat: 39.8, lon: -89.6 }, radius_m: 300 },
    });
    await send(t as never, v, [login(10, v.driver.id), ...track({ fromS: 20, toS: 400, kph: 40, lon: -89.63 })]);
    await t.run();
    const visits = r
      .deliveries(hook.path)
      .slice(2)
      .map((d) => d.body);
    const [rest] = (
      await t.call({ method: 'GET', url: `/v1/geofences/events?vehicle_ids=${v.vehicle.id}` })
    ).body.geofence_events.map((x: any) => x.geofence_event);
    assert.equal(rest.geofence_id, g.body.geofence.id);
    assert.deepEqual(
      visits.map((b) => b.trigger),
      ['entered', 'exited'],
    );
    assert.deepEqual(visits[1], { action: 'vehicle_geofence_event', trigger: 'exited', ...rest });
    assert.deepEqual(visits[0], {
      action: 'vehicle_geofence_event',
      trigger: 'entered',
      ...rest,
      end_time: null,
      duration: 0,
      end_driver: null,
    });
    assert.deepEqual([rest.vehicle.id, rest.start_driver.id], [v.vehicle.id, v.driver.id]);
  });
});
