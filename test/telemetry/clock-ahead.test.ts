/**
 * A device whose clock runs a little fast (records accepted up to TELEMETRY_FUTURE_SLACK_S ahead of the
 * server): the reorder window runs back from the newest record but from no later than now, so records
 * of the present that arrive out of order are still processed in order, not flagged late.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { rig, send } from './fixtures.js';

eachDialect('a device clock ahead of the server', (dialect) => {
  // The default window (60 s), shorter than the slack (300 s).
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '60', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  before(async () => {
    t = await getApp();
  });
  const iso = (ms: number) => new Date(ms).toISOString();
  const fix = (ms: number) => ({ type: 'location', time: iso(ms), lat: 39.8, lon: -89.65, speed_kph: 0 });

  test('a record 290 s ahead leaves a fix 5 s older than the last one in the window', async () => {
    const v = await rig(t);
    const now = Date.now();
    const ahead = await send(t, v, [{ type: 'fault', time: iso(now + 290_000), protocol: 'obd2', code: 'P0420' }]);
    assert.deepEqual(ahead.results[0], { index: 0, seq: v.seq, status: 'accepted' });
    await send(t, v, [fix(now)]);
    const back = await send(t, v, [fix(now - 5_000)]);
    assert.deepEqual(back.results[0], { index: 0, seq: v.seq, status: 'accepted' }, 'not late');
    const state = await t.db.kysely
      .selectFrom('telemetry_state')
      .selectAll()
      .where('vehicle_id', '=', v.vehicle.id)
      .executeTakeFirstOrThrow();
    assert.equal(state.max_fix_time, iso(now + 290_000));
    assert.equal(state.horizon, null, 'nothing is older than now minus the window yet');
    // A fix older than the window is processed, and one older than it is late, as for any device.
    await send(t, v, [fix(now - 120_000)]);
    const late = await send(t, v, [fix(now - 180_000)]);
    assert.deepEqual(late.results[0], { index: 0, seq: v.seq, status: 'accepted', late: true });
  });
});
