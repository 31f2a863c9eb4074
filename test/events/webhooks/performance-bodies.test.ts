/**
 * driver_performance_event_created (docs/reference/wire.md §7.6): the REST object, the ids, and the members of a
 * real receiver's fixture — camera and coaching members null or empty, the behaviors, the speeds, the
 * intensity, the vehicle and driver, the review metadata (docs/webhooks.md). The exact body.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect } from '../../helper.js';
import { at, login, rig, send, track, type Rig } from '../../telemetry/fixtures.js';
import { registerHook, useHookSuite } from './receiver.js';
import { lowestSpeed, performanceMembers } from './performance-fixtures.js';

eachDialect('driver performance event webhook bodies', (dialect) => {
  const suite = useHookSuite(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });

  it('a hard brake: the list item, the ids, and camera_media … edited_by_fm as the real body has them', async () => {
    const { t, r } = suite;
    const v: Rig = await rig(t as never);
    const hook = await registerHook(t, r, ['driver_performance_event_created']);
    await send(t as never, v, [
      login(-1, v.driver.id),
      ...track({ fromS: 0, toS: 20, kph: 90 }),
      {
        type: 'acceleration',
        time: at(25),
        longitudinal_g: -0.45,
        duration_ms: 2000,
        speed_kph: 90,
        end_speed_kph: 60,
        lat: 39.8,
        lon: -89.6,
        bearing_deg: 90,
      },
    ]);
    for (let i = 0; i < 3; i++) await t.run();
    const [brake] = (
      await t.call({ method: 'GET', url: `/v1/driver_performance_events?vehicle_ids=${v.vehicle.id}` })
    ).body.driver_performance_events.map((x: any) => x.driver_performance_event);
    assert.equal(brake.type, 'hard_brake');
    assert.equal(brake.intensity, '-15.9 kph/s');
    const [body] = r.deliveries(hook.path).map((d) => d.body);
    assert.deepEqual(
      Object.entries(body),
      Object.entries({
        action: 'driver_performance_event_created',
        ...brake,
        ...performanceMembers(v, {
          type: 'hard_brake',
          max: brake.start_speed,
          min: lowestSpeed(brake),
          intensity: { name: 'Braking Intensity', value: 15.9, unit_type: 'acceleration' },
        }),
      }),
    );
  });
});
