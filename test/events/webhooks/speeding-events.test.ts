/**
 * speeding_event_created / speeding_event_updated (docs/reference/wire.md §7.6, docs/webhooks.md): a speeding event
 * is recorded both as a driver performance event and as a speeding event, in the same transaction, each
 * with the body its list shows (/v1/driver_performance_events, /v1/speeding_events); a hard brake only
 * as a driver performance event. Webhooks receive exactly the actions they subscribe to.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect } from '../../helper.js';
import { haversineM } from '../../../src/telemetry/units.js';
import { at, login, rig, send, track, type Rig } from '../../telemetry/fixtures.js';
import { registerHook, useHookSuite } from './receiver.js';
import { lowestSpeed, performanceMembers } from './performance-fixtures.js';

const w = (s: number) => `${at(s).slice(0, 19)}Z`;
const PERF = [
  'driver_performance_event_created',
  'driver_performance_event_updated',
  'speeding_event_created',
  'speeding_event_updated',
];

eachDialect('speeding event webhooks', (dialect) => {
  const suite = useHookSuite(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });

  /** The company's recorded performance and speeding events, in id order: [action, subject id]. */
  const recorded = async (since: number) =>
    await suite.t.db.kysely
      .selectFrom('domain_events')
      .select(['id', 'action', 'subject_type', 'subject_id', 'data'])
      .where('company_id', '=', suite.t.company.id)
      .where('action', 'in', PERF)
      .where('id', '>', since)
      .orderBy('id')
      .execute();
  const lastEventId = async () =>
    Number(
      (
        await suite.t.db.kysely
          .selectFrom('domain_events')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirst()
      )?.m ?? 0,
    );
  /** Fan out and deliver until nothing is left (one lane delivers one at a time). */
  const drain = async () => {
    for (let i = 0; i < 5; i++) await suite.t.run();
  };
  const hardBrake = (s: number) => ({
    type: 'acceleration',
    time: at(s),
    longitudinal_g: -0.45,
    duration_ms: 2000,
    speed_kph: 125,
    end_speed_kph: 95,
    lat: 39.8,
    lon: -89.6,
    bearing_deg: 90,
  });

  it('a speeding event is also speeding_event_created, then speeding_event_updated when it ends; a hard brake is not', async () => {
    const { t, r } = suite;
    const v: Rig = await rig(t as never);
    const onlyCreated = await registerHook(t, r, ['speeding_event_created']);
    const onlyUpdated = await registerHook(t, r, ['speeding_event_updated']);
    const perfOnly = await registerHook(t, r, ['driver_performance_event_created', 'driver_performance_event_updated']);
    const all = await registerHook(t, r, PERF);
    const since = await lastEventId();

    await send(t as never, v, [login(-1, v.driver.id)]);
    // Over 75 mph from 0 s: a speeding event once it has lasted 60 s.
    await send(t as never, v, track({ fromS: 0, toS: 90, kph: 125 }));
    await send(t as never, v, [hardBrake(95)]);
    // Still over the limit, then under it at 130 s: the speeding event ends.
    await send(t as never, v, [
      ...track({ fromS: 100, toS: 120, kph: 130, lon: -89.6 }),
      ...track({ fromS: 130, toS: 130, kph: 100, lon: -89.58 }),
    ]);

    const list = (
      await t.call({ method: 'GET', url: `/v1/driver_performance_events?vehicle_ids=${v.vehicle.id}` })
    ).body.driver_performance_events.map((x: any) => x.driver_performance_event);
    const speeding = list.find((e: any) => e.type === 'speeding');
    const brake = list.find((e: any) => e.type === 'hard_brake');
    assert.equal(list.length, 2);
    assert.deepEqual([speeding.start_time, speeding.end_time], [w(0), w(130)]);
    assert.deepEqual([brake.start_time], [w(95)]);

    // The outbox: each speeding change twice, driver performance first; the hard brake once.
    const events = await recorded(since);
    assert.deepEqual(
      events.map((e) => [e.action, e.subject_type, Number(e.subject_id)]),
      [
        ['driver_performance_event_created', 'driver_performance_event', speeding.id],
        ['speeding_event_created', 'driver_performance_event', speeding.id],
        ['driver_performance_event_created', 'driver_performance_event', brake.id],
        ['driver_performance_event_updated', 'driver_performance_event', speeding.id],
        ['speeding_event_updated', 'driver_performance_event', speeding.id],
      ],
    );
    const sp = (await t.call({ method: 'GET', url: `/v1/speeding_events?vehicle_ids=${v.vehicle.id}` })).body
      .speeding_events[0].speeding_event;
    assert.equal(sp.id, speeding.id, 'one event, one id');

    await drain();
    const bodies = (hook: { path: string }) => r.deliveries(hook.path).map((d) => d.body);
    const extra = { driver_id: v.driver.id, vehicle_id: v.vehicle.id, eld_device_id: v.device.id };
    const [created] = bodies(onlyCreated);
    const [updated] = bodies(onlyUpdated);
    assert.deepEqual(
      bodies(onlyCreated).map((b) => b.action),
      ['speeding_event_created'],
    );
    assert.deepEqual(
      bodies(onlyUpdated).map((b) => b.action),
      ['speeding_event_updated'],
    );
    // The speeding event's wire body, as it was when recorded, with the ids.
    // At 60 s: ending at the fix that made it an event (125 kph, 60 s east of the start; GPS path, no odometer).
    const lonAt = (sec: number) => -89.65 + (125 * sec) / 3600 / (111.32 * Math.cos((39.8 * Math.PI) / 180));
    const km60 =
      [10, 20, 30, 40, 50, 60].reduce((m, sec) => m + haversineM(39.8, lonAt(sec - 10), 39.8, lonAt(sec)), 0) / 1000;
    assert.deepEqual(created, {
      action: 'speeding_event_created',
      ...sp,
      speeding_distance_in_km: Math.round(km60 * 100) / 100,
      max_over_speed_in_kph: 4.3,
      avg_over_speed_in_kph: 4.3,
      avg_vehicle_speed: 125,
      min_vehicle_speed: 125,
      max_vehicle_speed: 125,
      duration: 60,
      end_lon: lonAt(60),
      end_time: w(60),
      metadata: { severity: 'low', trigger: 'speeding' },
      ...extra,
    });
    // When it ends at 130 s: 125 kph until 100 s, 130 kph from 100 s to 130 s (the move at 100 s is a GPS jump: no distance).
    assert.deepEqual(updated, { action: 'speeding_event_updated', ...sp, ...extra });
    assert.deepEqual(
      [
        sp.start_time,
        sp.end_time,
        sp.duration,
        sp.avg_vehicle_speed,
        sp.min_vehicle_speed,
        sp.max_vehicle_speed,
        sp.max_over_speed_in_kph,
        sp.end_lon,
      ],
      [w(0), w(130), 130, 126.2, 125, 130, 9.3, -89.58],
    );
    const dKm = (lonA: number, lonB: number) => haversineM(39.8, lonA, 39.8, lonB) / 1000;
    const lon130 = (sec: number) => -89.6 + (130 * (sec - 100)) / 3600 / (111.32 * Math.cos((39.8 * Math.PI) / 180));
    const kmEnd = km60 + dKm(lonAt(60), lonAt(90)) + dKm(lon130(100), lon130(120)) + dKm(lon130(120), -89.58);
    assert.equal(sp.speeding_distance_in_km, Math.round(kmEnd * 100) / 100);

    const perfBodies = bodies(perfOnly);
    assert.deepEqual(perfBodies.map((b) => [b.action, b.type]).sort(), [
      ['driver_performance_event_created', 'hard_brake'],
      ['driver_performance_event_created', 'speeding'],
      ['driver_performance_event_updated', 'speeding'],
    ]);
    const perfCreated = perfBodies.find(
      (b) => b.action === 'driver_performance_event_created' && b.type === 'speeding',
    );
    const perfUpdated = perfBodies.find((b) => b.action === 'driver_performance_event_updated');
    // The driver performance event's wire body under its own actions. At 60 s, as above.
    const at60 = {
      m_gps_lat: [39.8, 39.8],
      m_gps_lon: [-89.65, lonAt(60)],
      m_gps_heading: [90, 90],
      m_gps_spd: [125, 125],
      m_veh_spd: [125, 125],
    };
    assert.deepEqual(perfCreated, {
      action: 'driver_performance_event_created',
      ...speeding,
      end_time: w(60),
      duration: 60,
      end_speed: 125,
      ...at60,
      ...performanceMembers(v, { type: 'speeding', max: 125, min: 125, severity: 'low' }),
    });
    assert.deepEqual(perfUpdated, {
      action: 'driver_performance_event_updated',
      ...speeding,
      ...performanceMembers(v, { type: 'speeding', max: 130, min: lowestSpeed(speeding), severity: 'medium' }),
    });

    // Subscribed to all four: the speeding event's lane in recording order; the hard brake only once.
    const got = bodies(all);
    assert.deepEqual(
      got.filter((b) => b.id === speeding.id).map((b) => b.action),
      [
        'driver_performance_event_created',
        'speeding_event_created',
        'driver_performance_event_updated',
        'speeding_event_updated',
      ],
    );
    assert.deepEqual(
      got.filter((b) => b.id === brake.id).map((b) => b.action),
      ['driver_performance_event_created'],
    );
    assert.equal(got.length, 5);
  });

  it('a hard brake alone records no speeding_event_* action and reaches no speeding subscriber', async () => {
    const { t, r } = suite;
    const v: Rig = await rig(t as never);
    const hook = await registerHook(t, r, ['speeding_event_created', 'speeding_event_updated']);
    const since = await lastEventId();
    await send(t as never, v, [
      login(-1, v.driver.id),
      ...track({ fromS: 0, toS: 20, kph: 90 }),
      { ...hardBrake(25), speed_kph: 90, end_speed_kph: 60 },
    ]);
    await send(t as never, v, track({ fromS: 30, toS: 40, kph: 60, lon: -89.64 }));
    assert.deepEqual(
      (await recorded(since)).map((e) => e.action),
      ['driver_performance_event_created'],
    );
    await drain();
    assert.deepEqual(r.deliveries(hook.path), []);
  });
});
