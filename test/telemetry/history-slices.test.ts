/**
 * `/v3/vehicle_locations/:id` reads and renders its window an hour at a time (vehicleHistorySlices), the
 * event loop free in between, and writes the answer as it goes (no Content-Length): the answer is still
 * every point of the window once, in fix-time order, across the slices' edges and whatever order the
 * records arrived in, and X-Time-Zone still writes its times in the zone asked for.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { rig, send, DAY, type Rig } from './fixtures.js';
import { vehicleHistory } from '../../src/telemetry/queries/locations.js';
import { historyPointV3 } from '../../src/wire/vehicle-location.js';
import { loadEmbeds } from '../../src/wire/embeds.js';
import { zonedTimes } from '../../src/http/plumbing/zoned-times.js';
import { dateRange } from '../../src/wire/telemetry-dates.js';

const UTC = { 'x-time-zone': 'UTC' };
const DAY_MS = 86_400_000;
const day0 = Date.parse(`${DAY}T00:00:00Z`) - 2 * DAY_MS;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

eachDialect('v3 history in hour slices', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let r: Rig;
  before(async () => {
    t = await getApp();
    r = await rig(t);
  });

  test('three days: every point once, in order, at the edges of the days; the same as one read of the window', async () => {
    // Fixes at each midnight and a millisecond before it, and through each day; sent newest first.
    const times: number[] = [];
    for (let d = 0; d < 3; d++) {
      for (const s of [0, 1, 3600, 43_200, 86_399]) times.push(day0 + d * DAY_MS + s * 1000);
      times.push(day0 + (d + 1) * DAY_MS - 1);
    }
    times.push(day0 + 3 * DAY_MS); // the first instant after the window: not in it
    const records = times.map((ms, i) => ({
      type: 'location',
      time: new Date(ms).toISOString(),
      lat: 39.8,
      lon: -89.65 + i * 0.001,
      speed_kph: 50,
      bearing_deg: 90,
    }));
    await send(t, r, records.reverse());

    const res = await t.call({
      method: 'GET',
      url: `/v3/vehicle_locations/${r.vehicle.id}?start_date=${dayOf(day0)}&end_date=${dayOf(day0 + 2 * DAY_MS)}`,
      headers: UTC,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    const rows = await vehicleHistory(
      t.db,
      { companyId: t.company.id },
      r.vehicle.id,
      new Date(day0),
      new Date(day0 + 3 * DAY_MS),
    );
    assert.equal(rows.length, times.length - 1);
    const e = await loadEmbeds(t.db, t.company.id, {
      users: rows.map((x) => x.driver_id),
      devices: rows.map((x) => x.device_id),
    });
    assert.deepEqual(res.body, { vehicle_locations: rows.map((x) => ({ vehicle_location: historyPointV3(x, e) })) });
    // located_at is written to the second.
    const at = res.body.vehicle_locations.map((p: any) => Date.parse(p.vehicle_location.located_at));
    const expected = times.slice(0, -1).sort((a, b) => a - b);
    assert.deepEqual(
      at,
      expected.map((ms) => ms - (ms % 1000)),
    );
    // The same answer in Chicago's time: every datetime with its offset (-05:00 or -06:00), nothing else changed.
    const chicago = await t.call({
      method: 'GET',
      url: `/v3/vehicle_locations/${r.vehicle.id}?start_date=${dayOf(day0)}&end_date=${dayOf(day0 + 2 * DAY_MS)}`,
      headers: { 'x-time-zone': 'America/Chicago' },
    });
    assert.equal(chicago.status, 200);
    // X-Time-Zone also makes the days Chicago's: the window is theirs, each time written with its offset.
    const w = dateRange({ start_date: dayOf(day0), end_date: dayOf(day0 + 2 * DAY_MS) }, 'America/Chicago', {
      defaultDays: 1,
      maxMonths: 3,
      required: true,
    });
    const local = await vehicleHistory(t.db, { companyId: t.company.id }, r.vehicle.id, w.start, w.end);
    assert.ok(local.length > 0 && local.length < rows.length + 1);
    const utcText = JSON.stringify({
      vehicle_locations: local.map((x) => ({ vehicle_location: historyPointV3(x, e) })),
    });
    assert.deepEqual(chicago.body, JSON.parse(zonedTimes(utcText, 'America/Chicago')));
    assert.match(chicago.body.vehicle_locations[0].vehicle_location.located_at, /T\d\d:\d\d:\d\d-0[56]:00$/);
    // A window with no points, and another company's vehicle.
    const empty = await t.call({
      method: 'GET',
      url: `/v3/vehicle_locations/${r.vehicle.id}?start_date=2020-01-01&end_date=2020-01-31`,
      headers: UTC,
    });
    assert.deepEqual([empty.status, empty.body], [200, { vehicle_locations: [] }]);
    const other = await t.newCompany('Other');
    const hidden = await t.call({
      method: 'GET',
      url: `/v3/vehicle_locations/${r.vehicle.id}?start_date=${dayOf(day0)}&end_date=${dayOf(day0)}`,
      as: other,
    });
    assert.deepEqual([hidden.status, hidden.body], [404, { error_message: `vehicle ${r.vehicle.id} not found` }]);
  });
});
