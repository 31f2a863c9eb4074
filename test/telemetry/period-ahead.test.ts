/**
 * A driving period ended by an engine stop is stored with its end at stop + DRIVING_STOP_TIMEOUT_S
 * (D-10 (a)); until that end has come, /v1/driving_periods shows it in progress, never an end in the
 * future. Once the end has passed it is complete, with the stored end.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { eachDialect } from '../helper.js';
import { send, useRigApp } from './fixtures.js';
import { drivingPeriod } from '../../src/wire/telemetry-events.js';
import { loadEmbeds } from '../../src/wire/embeds.js';

eachDialect('a driving period whose end lies ahead', (dialect) => {
  const getApp = useRigApp(dialect);

  it('is in progress on the wire until stop + timeout, then complete with that end', async () => {
    const { t, v } = await getApp();
    const now = Math.floor(Date.now() / 1000) * 1000;
    const time = (s: number) => new Date(now + s * 1000).toISOString();
    const fixes = [];
    for (let s = -300; s <= -120; s += 10)
      fixes.push({ type: 'location', time: time(s), lat: 39.8, lon: -89.65 + (s + 300) * 0.0002, speed_kph: 80 });
    await send(t, v, [
      { type: 'engine', time: time(-310), state: 'on' },
      ...fixes,
      { type: 'location', time: time(-110), lat: 39.8, lon: -89.6, speed_kph: 0 },
      { type: 'engine', time: time(-100), state: 'off' },
    ]);
    const [row] = await t.db.kysely
      .selectFrom('driving_periods')
      .selectAll()
      .where('vehicle_id', '=', v.vehicle.id)
      .execute();
    assert.equal(row.status, 'complete');
    assert.equal(row.end_time, time(-110 + 360), 'stored: the stop plus the 6-minute timeout');

    const day = time(0).slice(0, 10);
    const res = await t.call({
      method: 'GET',
      url: `/v1/driving_periods?start_date=${day}&end_date=${day}&vehicle_ids=${v.vehicle.id}`,
    });
    assert.equal(res.status, 200);
    const p = res.body.driving_periods[0].driving_period;
    assert.deepEqual(
      [p.start_time, p.end_time, p.status, p.end_kilometers, p.destination, p.distance],
      [time(-300).slice(0, 19) + 'Z', null, 'in_progress', null, '', null],
    );
    assert.ok(p.duration >= 300 && p.duration < 600, `duration so far ${p.duration}`);

    const e = await loadEmbeds(t.db, t.company.id, { users: [row.driver_id], vehicles: [row.vehicle_id] });
    const ended = drivingPeriod(row, e, Date.parse(row.end_time!));
    assert.deepEqual([ended.end_time, ended.status, ended.duration], [time(250).slice(0, 19) + 'Z', 'complete', 550]);
    assert.equal(drivingPeriod(row, e, Date.parse(row.end_time!) - 1).status, 'in_progress');
  });
});
