/**
 * A speeding event across a stretch without fixes, through the device API and the REST list: fixes at
 * 130 kph for 80 s, then the next fix, at 0 kph, 75 s later. Longer than TELEMETRY_GAP_S, the stretch is
 * a data gap and the event ends at the last fix before it; up to it, the stretch is continuous and the
 * event ends at the stop (docs/telemetry.md, driver performance).
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect, type TestApp } from '../helper.js';
import { at, login, send, track, useRigApp, type Rig } from './fixtures.js';

const w = (s: number) => `${at(s).slice(0, 19)}Z`;

eachDialect('speeding across a stretch without fixes', (dialect) => {
  const gapped = useRigApp(dialect, { TELEMETRY_GAP_S: '74' });
  const continuous = useRigApp(dialect, { TELEMETRY_GAP_S: '75' });

  async function speedingOf(t: TestApp, v: Rig) {
    await send(t, v, [login(-1, v.driver.id), ...track({ fromS: 0, toS: 80, kph: 130 })]);
    await send(t, v, track({ fromS: 155, toS: 155, kph: 0, lon: -89.6 }));
    const res = await t.call({
      method: 'GET',
      url: `/v1/driver_performance_events?vehicle_ids=${v.vehicle.id}&event_types=speeding`,
    });
    assert.equal(res.status, 200, res.raw);
    return res.body.driver_performance_events
      .map((x: any) => x.driver_performance_event)
      .map((e: any) => ({
        type: e.type,
        start_time: e.start_time,
        end_time: e.end_time,
        duration: e.duration,
        start_speed: e.start_speed,
        end_speed: e.end_speed,
      }));
  }

  let a: { t: TestApp; v: Rig };
  let b: { t: TestApp; v: Rig };
  before(async () => {
    a = await gapped();
    b = await continuous();
  });

  it('75 s without fixes with TELEMETRY_GAP_S 74: the event ends at the last fix, at its speed', async () => {
    const [e] = await speedingOf(a.t, a.v);
    assert.deepEqual(e, {
      type: 'speeding',
      start_time: w(0),
      end_time: w(80),
      duration: 80,
      start_speed: 130,
      end_speed: 130,
    });
  });

  it('75 s without fixes with TELEMETRY_GAP_S 75: continuous, the event ends at the stop', async () => {
    const [e] = await speedingOf(b.t, b.v);
    assert.deepEqual(e, {
      type: 'speeding',
      start_time: w(0),
      end_time: w(155),
      duration: 155,
      start_speed: 130,
      end_speed: 0,
    });
  });
});
