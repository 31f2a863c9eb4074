/**
 * The bulk insert of a batch's records (src/telemetry/store/insert.ts), through the device API: batches
 * longer than one multi-row statement, re-sends that overlap stored records, seqs far apart in small
 * and large batches, and the ids each stored record gets (the current location names its record by
 * the same id as the history).
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { at, rig, send, settle, DAY, type Rig } from './fixtures.js';

const UTC = { 'x-time-zone': 'UTC' };

/** Location records with seqs `from`..`to`, one every 10 s from second `from`, `tag` in the longitude. */
function fixes(from: number, to: number, tag: number) {
  const out: Array<Record<string, unknown>> = [];
  for (let seq = from; seq <= to; seq++) {
    out.push({
      seq,
      type: 'location',
      time: at(seq * 10),
      lat: 39.8 + seq * 1e-5,
      lon: -89.6 - tag * 1e-3,
      speed_kph: 40 + (seq % 7),
      bearing_deg: seq % 360,
    });
  }
  return out;
}

eachDialect('bulk insert of device records', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let r: Rig;
  const stored = (deviceId: number) =>
    t.db.kysely
      .selectFrom('telemetry_records')
      .select([
        'id',
        'seq',
        'lat',
        'lon',
        'speed_kph',
        'bearing_deg',
        'fix_time',
        'company_id',
        'vehicle_id',
        'channel',
      ])
      .where('device_id', '=', deviceId)
      .orderBy('seq')
      .execute();

  /** After processing: the vehicle's current location is the day's last point, by id and time. */
  async function currentAndLast() {
    await settle(t);
    const list = await t.call({ method: 'GET', url: `/v1/vehicle_locations?vehicle_ids[]=${r.vehicle.id}` });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const current = list.body.vehicles[0].vehicle.current_location;
    const day = await t.call({ method: 'GET', url: `/v1/vehicle_locations/${r.vehicle.id}?date=${DAY}`, headers: UTC });
    assert.equal(day.status, 200);
    const points = day.body.vehicle_locations.map((x: any) => x.vehicle_location);
    assert.equal(new Set(points.map((p: any) => p.id)).size, points.length);
    const last = points.at(-1);
    assert.equal(current.id, last.id);
    assert.equal(current.located_at, last.located_at);
    return { points: points.length, located_at: last.located_at };
  }

  before(async () => {
    t = await getApp();
    r = await rig(t);
  });

  test('a batch of 150 records: every record stored once with its own values, ids in batch order', async () => {
    const sent = fixes(1, 150, 1);
    const res = await send(t, r, sent);
    assert.deepEqual([res.accepted, res.duplicates, res.rejected], [150, 0, 0]);
    assert.ok(res.results.every((x: any, i: number) => x.index === i && x.seq === i + 1 && x.status === 'accepted'));
    const rows = await stored(r.device.id);
    assert.equal(rows.length, 150);
    rows.forEach((row, i) => {
      const s = sent[i];
      assert.deepEqual(
        [
          Number(row.seq),
          row.lat,
          row.lon,
          row.speed_kph,
          row.bearing_deg,
          row.fix_time,
          row.company_id,
          row.vehicle_id,
          row.channel,
        ],
        [s.seq, s.lat, s.lon, s.speed_kph, s.bearing_deg, s.time, t.company.id, r.vehicle.id, 0],
      );
      if (i > 0) assert.equal(Number(row.id), Number(rows[i - 1].id) + 1);
    });
    assert.deepEqual(await currentAndLast(), { points: 150, located_at: `${at(1500).slice(0, 19)}Z` });
  });

  test('a re-send overlapping stored records: the stored ones are duplicates and keep their values, the rest are stored', async () => {
    const res = await send(t, r, fixes(120, 269, 2));
    assert.deepEqual([res.accepted, res.duplicates, res.rejected], [119, 31, 0]);
    assert.deepEqual(
      res.results.slice(29, 33).map((x: any) => [x.seq, x.status]),
      [
        [149, 'duplicate'],
        [150, 'duplicate'],
        [151, 'accepted'],
        [152, 'accepted'],
      ],
    );
    const rows = await stored(r.device.id);
    assert.equal(rows.length, 269);
    assert.equal(new Set(rows.map((x) => Number(x.seq))).size, 269);
    assert.equal(rows[119].lon, -89.6 - 1e-3, 'seq 120 keeps the longitude it was first sent with');
    assert.equal(rows[150].lon, -89.6 - 2e-3, 'seq 151 was stored from the re-send');
  });

  test('seqs far apart in one batch, one of them stored before: stored one by one, the stored one a duplicate', async () => {
    const far = [
      ...fixes(5, 5, 3),
      { ...fixes(1, 1, 3)[0], seq: 1_000_000 },
      { ...fixes(2, 2, 3)[0], seq: 2_000_000 },
      ...fixes(270, 270, 3),
    ];
    const res = await send(t, r, far);
    assert.deepEqual(
      res.results.map((x: any) => [x.seq, x.status]),
      [
        [5, 'duplicate'],
        [1_000_000, 'accepted'],
        [2_000_000, 'accepted'],
        [270, 'accepted'],
      ],
    );
    assert.equal((await stored(r.device.id)).length, 272);
  });

  test('a batch of 60 whose seqs lie far apart, one of them stored before: the stored one a duplicate, the rest stored', async () => {
    const batch = [...fixes(271, 328, 4), { ...fixes(6, 6, 4)[0] }, { ...fixes(3, 3, 4)[0], seq: 3_000_000 }];
    const res = await send(t, r, batch);
    assert.deepEqual([res.accepted, res.duplicates, res.rejected], [59, 1, 0]);
    assert.deepEqual(
      res.results.slice(57).map((x: any) => [x.seq, x.status]),
      [
        [328, 'accepted'],
        [6, 'duplicate'],
        [3_000_000, 'accepted'],
      ],
    );
    const rows = await stored(r.device.id);
    assert.equal(rows.length, 331);
    assert.equal(
      rows.find((x) => Number(x.seq) === 6)!.lon,
      -89.6 - 1e-3,
      'seq 6 keeps the longitude it was first sent with',
    );
  });

  test('the current location and the last history point name the same record, after each kind of insert', async () => {
    assert.deepEqual(await currentAndLast(), { points: 331, located_at: `${at(3280).slice(0, 19)}Z` });
  });
});
