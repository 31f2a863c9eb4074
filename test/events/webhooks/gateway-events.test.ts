/**
 * vehicle_gateway_disconnected / vehicle_gateway_disconnect_ended (docs/webhooks.md): a gateway's
 * `power` records, posted through the device API, are announced once per change of state, with the
 * body the catalogue describes; a bad `power` record is refused with its reason and announces nothing.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect } from '../../helper.js';
import { at, engine, login, post, rig, send, track, type Rig } from '../../telemetry/fixtures.js';
import { registerHook, useHookSuite } from './receiver.js';

const w = (s: number) => `${at(s).slice(0, 19)}Z`;
const GATEWAY = ['vehicle_gateway_disconnected', 'vehicle_gateway_disconnect_ended'];
const power = (s: number, state: string, extra: Record<string, unknown> = {}) => ({
  type: 'power',
  time: at(s),
  state,
  ...extra,
});

eachDialect('gateway disconnect webhooks', (dialect) => {
  const suite = useHookSuite(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });

  const recorded = async (vehicleId: number) =>
    (
      await suite.t.db.kysely
        .selectFrom('domain_events')
        .select(['action', 'subject_type', 'subject_id'])
        .where('company_id', '=', suite.t.company.id)
        .where('action', 'in', GATEWAY)
        .where('subject_id', '=', String(vehicleId))
        .orderBy('id')
        .execute()
    ).map((e) => [e.action, e.subject_type, Number(e.subject_id)]);
  const drain = async () => {
    for (let i = 0; i < 5; i++) await suite.t.run();
  };

  it('an unplugged gateway is announced once, and again when plugged back in, with the vehicle, gateway and driver', async () => {
    const { t, r } = suite;
    const v: Rig = await rig(t as never);
    const hook = await registerHook(t, r, GATEWAY);
    const endedOnly = await registerHook(t, r, ['vehicle_gateway_disconnect_ended']);

    await send(t as never, v, [login(-1, v.driver.id), engine(0, 'on'), ...track({ fromS: 10, toS: 90, kph: 80 })]);
    // Unplugged while driving near Springfield, IL; the gateway says it again; it is plugged back in 10 min later.
    const unplugged = { seq: 500, ...power(95, 'disconnected', { lat: 39.8, lon: -89.6 }) };
    await send(t as never, v, [unplugged, power(100, 'disconnected')]);
    await send(t as never, v, [
      ...track({ fromS: 110, toS: 600, kph: 80, lon: -89.59 }),
      power(695, 'connected', { lat: 39.8, lon: -89.45 }),
    ]);
    // Re-sending the batch, and a second "connected", change nothing.
    const again = await send(t as never, v, [unplugged]);
    assert.deepEqual([again.accepted, again.duplicates], [0, 1]);
    await send(t as never, v, [power(700, 'connected')]);

    assert.deepEqual(await recorded(v.vehicle.id), [
      ['vehicle_gateway_disconnected', 'vehicle', v.vehicle.id],
      ['vehicle_gateway_disconnect_ended', 'vehicle', v.vehicle.id],
    ]);
    await drain();
    const periods = (
      await t.call({
        method: 'GET',
        url: `/v1/driving_periods?vehicle_ids=${v.vehicle.id}&start_date=${at(0).slice(0, 10)}&end_date=${at(0).slice(0, 10)}`,
      })
    ).body;
    const driver = periods.driving_periods[0].driving_period.driver;
    assert.equal(driver.id, v.driver.id);
    const vehicle = {
      id: v.vehicle.id,
      number: v.vehicle.number,
      year: '2022',
      make: 'Freightliner',
      model: 'Cascadia',
      vin: v.vehicle.vin,
      metric_units: false,
    };
    const eld = { id: v.device.id, identifier: v.device.identifier, model: 'eld-1' };
    const common = {
      vehicle_id: v.vehicle.id,
      eld_device_id: v.device.id,
      driver_id: v.driver.id,
      vehicle,
      eld_device: eld,
      driver,
    };
    const bodies = r.deliveries(hook.path).map((d) => d.body);
    assert.deepEqual(bodies, [
      {
        action: 'vehicle_gateway_disconnected',
        ...common,
        disconnected_at: w(95),
        reconnected_at: null,
        duration: null,
        lat: 39.8,
        lon: -89.6,
        location: '2.3 mi E of Springfield, IL',
      },
      {
        action: 'vehicle_gateway_disconnect_ended',
        ...common,
        disconnected_at: w(95),
        reconnected_at: w(695),
        duration: 600,
        lat: 39.8,
        lon: -89.45,
        location: '10.3 mi E of Springfield, IL',
      },
    ]);
    assert.deepEqual(
      r.deliveries(endedOnly.path).map((d) => d.body),
      [bodies[1]],
    );
  });

  it('a report without a position has no place; a bad power record is refused with its reason and announces nothing', async () => {
    const { t, r } = suite;
    const v: Rig = await rig(t as never);
    const hook = await registerHook(t, r, GATEWAY);
    const res = await post(t as never, v.device.device_token, {
      records: [
        { seq: 1, ...power(10, 'unplugged') },
        { seq: 2, type: 'power', time: at(11) },
        { seq: 3, ...power(12, 'disconnected', { lat: 39.8 }) },
        { seq: 4, ...power(20, 'disconnected') },
      ],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.results.map((x: any) => [x.seq, x.status, x.error_message ?? null]),
      [
        [1, 'rejected', 'state must be one of: disconnected, connected'],
        [2, 'rejected', 'state is required'],
        [3, 'rejected', 'lon is required with lat'],
        [4, 'accepted', null],
      ],
    );
    await drain();
    const [body] = r.deliveries(hook.path).map((d) => d.body);
    assert.deepEqual(
      [body.action, body.disconnected_at, body.lat, body.lon, body.location, body.driver_id, body.driver],
      ['vehicle_gateway_disconnected', w(20), null, null, null, null, null],
    );
    assert.equal(r.deliveries(hook.path).length, 1);
  });
});
