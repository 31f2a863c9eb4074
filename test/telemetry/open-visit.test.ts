/**
 * A geofence visit still open: `/v1/geofences/events` shows `end_time` null and an integer `duration`
 * of the seconds inside so far (docs/reference/wire.md §4.23 types it an int, never null).
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, type TestApp } from '../helper.js';
import { assertList } from '../http/fixtures.js';
import { T0, send, settle, track, useRigApp, type Rig } from './fixtures.js';

eachDialect('an open geofence visit', (dialect) => {
  const setup = useRigApp(dialect);
  let t: TestApp;
  let v: Rig;
  before(async () => ({ t, v } = await setup()));

  test('end_time null, duration the whole seconds since the entry', async () => {
    const fence = await t.call({
      method: 'POST',
      url: '/v1/geofences/circular',
      payload: { name: `Yard ${dialect}`, center: { lat: 39.8, lon: -89.6 }, radius_m: 2000 },
    });
    assert.equal(fence.status, 201, JSON.stringify(fence.body));
    // Driving east from 8.5 km west of the centre into the circle, then standing inside.
    await send(t, v, [
      ...track({ fromS: 0, toS: 600, kph: 60, lon: -89.7 }),
      ...track({ fromS: 610, toS: 700, kph: 0, lon: -89.6 }),
    ]);
    await settle(t);
    const before = Date.now();
    const [g] = assertList(
      await t.call({ method: 'GET', url: `/v1/geofences/events?geofence_ids=${fence.body.geofence.id}` }),
      'geofence_events',
      'geofence_event',
    );
    const after = Date.now();
    assert.equal(g.end_time, null);
    assert.ok(Number.isInteger(g.duration), String(g.duration));
    const start = Date.parse(g.start_time);
    assert.ok(start > T0 && start < T0 + 600_000, g.start_time);
    // The start is shown to the second; the duration counts from the stored instant.
    assert.ok(
      g.duration >= Math.floor((before - start) / 1000) - 1 && g.duration <= Math.ceil((after - start) / 1000) + 1,
      `${g.duration} s since ${g.start_time}`,
    );
  });
});
