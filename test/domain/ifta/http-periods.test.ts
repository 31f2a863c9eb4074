/**
 * No miles lost to the clock, on both databases: a crossing over water at 19:00 Eastern in winter
 * (00:00 UTC) has all its miles in the jurisdiction on both sides, whatever zone cuts the days; the
 * rows of every day sum to the odometer advance of that day; and three days computed one day at a time
 * give exactly the fragments of the same days computed together for the quarter.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { jurisdictionAt } from '../../../src/domain/ifta/boundaries.js';
import { recomputeDays } from '../../../src/domain/ifta/recompute.js';
import { markNewRecords } from '../../../src/domain/ifta/staleness.js';
import { along, concat, parked, withSpeed, type LatLon } from './tracks.js';
import { get, items, mi, near, store, unit, type Unit } from './http-fixtures.js';
import type { Track } from '../../../src/domain/ifta/rules.js';

/** The Chesapeake Bay Bridge-Tunnel, Virginia Beach to Cape Charles (both ends in Virginia). */
const CBBT: LatLon[] = [
  [36.89, -76.135],
  [36.922, -76.118],
  [36.975, -76.105],
  [37.035, -76.08],
  [37.08, -76.0],
  [37.11, -75.97],
  [37.17, -75.95],
];
/** Hyannis to Nantucket over Nantucket Sound: about 17 km of it lie beyond 2 km of Massachusetts in the data. */
const SOUND: LatLon[] = [
  [41.66, -70.28],
  [41.27, -70.1],
];
const EVENING = Date.parse('2024-01-16T23:30:00Z'); // 18:30 EST

/** The trip from `at`, then parked, chained (odometer continuing, parked fixes every 10 s with speed 0). */
function trip(legs: Array<{ route: LatLon[]; at: number; kph?: number; parkUntil?: number }>, odo0: number): Track {
  const parts: Track[] = [];
  let odo = odo0;
  for (const leg of legs) {
    const d = along(leg.route, { t0: leg.at, kph: leg.kph ?? 90, odo0: odo });
    parts.push(withSpeed(d.track, leg.kph ?? 90));
    odo = d.track.odo[d.track.n - 1];
    const end = d.track.t[d.track.n - 1];
    if (leg.parkUntil)
      parts.push(
        parked(leg.route[leg.route.length - 1], {
          t0: end + 10_000,
          seconds: (leg.parkUntil - end) / 1000 - 20,
          everyS: 10,
          sigmaM: 8,
          speed: 0,
          odo,
        }),
      );
  }
  return concat(...parts);
}

eachDialect('ifta periods', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let bay: Unit, sound: Unit, byDay: Unit, byQuarter: Unit;
  let bayTrack: Track, soundTrack: Track, days: Track;
  const trips = async (u: Unit, from: string, to: string, zone?: string) =>
    items(
      await get(
        t,
        `/v1/ifta/trips?start_date=${from}&end_date=${to}&vehicle_ids=${u.vehicle.id}`,
        zone ? { 'X-Time-Zone': zone } : {},
      ),
    );
  const span = (tr: Track) => mi(tr.odo[tr.n - 1] - tr.odo[0]);

  before(async () => {
    t = await getApp();
    bay = await unit(t, { fuel_type: 'propane' });
    sound = await unit(t, { fuel_type: 'propane' });
    byDay = await unit(t, { fuel_type: 'methanol' });
    byQuarter = await unit(t, { fuel_type: 'methanol' });
    bayTrack = withSpeed(along(CBBT, { t0: Date.parse('2024-01-16T23:45:00Z'), kph: 60, odo0: 50_000 }).track, 60);
    soundTrack = withSpeed(along(SOUND, { t0: EVENING, kph: 60, odo0: 80_000 }).track, 60);
    await store(t, bay, bayTrack);
    await store(t, sound, soundTrack);
    // Three days: over the Sound at 00:00 UTC, parked on Nantucket, back at noon and on through Rhode
    // Island into Connecticut, parked in Hartford, into New York across midnight Eastern (05:00 UTC).
    // byDay and byQuarter get the same three days, stored by the test that compares them (the reads of
    // the tests before would compute them).
    days = trip(
      [
        { route: SOUND, at: EVENING, kph: 60, parkUntil: Date.parse('2024-01-17T12:00:00Z') },
        { route: [...SOUND].reverse(), at: Date.parse('2024-01-17T12:00:00Z'), kph: 60 },
        {
          route: [SOUND[0], [41.75, -70.6], [41.82, -71.41], [41.76, -72.68]],
          at: Date.parse('2024-01-17T13:00:00Z'),
          parkUntil: Date.parse('2024-01-18T04:30:00Z'),
        },
        {
          route: [
            [41.76, -72.68],
            [41.05, -73.75],
          ],
          at: Date.parse('2024-01-18T04:30:00Z'),
        },
      ],
      120_000,
    );
  });

  test('the Chesapeake Bay Bridge-Tunnel at 19:00 Eastern in January (00:00 UTC): every mile in Virginia', async () => {
    const eastern = await trips(bay, '2024-01-16', '2024-01-17');
    assert.deepEqual(
      eastern.map((r) => [r.date, r.jurisdiction]),
      [['2024-01-16', 'VA']],
    );
    near(eastern[0].distance, span(bayTrack), 0.0005);
    const utc = await trips(bay, '2024-01-16', '2024-01-17', 'UTC');
    assert.deepEqual(
      utc.map((r) => [r.date, r.jurisdiction]),
      [
        ['2024-01-16', 'VA'],
        ['2024-01-17', 'VA'],
      ],
    );
    for (const r of utc) near(r.distance, r.end_odometer - r.start_odometer, 0.0005);
    near(utc[0].distance + utc[1].distance, span(bayTrack), 0.0005);
  });

  test('over Nantucket Sound at 19:00 Eastern, the water the data leaves out goes to Massachusetts on both sides of midnight UTC', async () => {
    assert.equal(jurisdictionAt(41.45, -70.18), null, 'the middle of the Sound is in no jurisdiction');
    const utc = await trips(sound, '2024-01-16', '2024-01-17', 'UTC');
    assert.deepEqual(
      utc.map((r) => [r.date, r.jurisdiction]),
      [
        ['2024-01-16', 'MA'],
        ['2024-01-17', 'MA'],
      ],
    );
    for (const r of utc) near(r.distance, r.end_odometer - r.start_odometer, 0.0005);
    near(utc[0].distance + utc[1].distance, span(soundTrack), 0.0005);
    const eastern = await trips(sound, '2024-01-16', '2024-01-17');
    assert.deepEqual(
      eastern.map((r) => [r.date, r.jurisdiction]),
      [['2024-01-16', 'MA']],
    );
    near(eastern[0].distance, span(soundTrack), 0.0005);
    const q = (await get(t, '/v1/ifta/quarterly_report?year=2024&quarter=1&fuel_type=propane')).ifta_quarterly_report;
    const [propane] = q.fuel_types;
    assert.equal(propane.unplaced_miles, 0);
    assert.deepEqual(
      propane.jurisdictions.map((j: any) => j.jurisdiction),
      ['MA', 'VA'],
    );
    near(propane.total_miles, span(soundTrack) + span(bayTrack), 0.0005);
  });

  test('days computed one at a time give exactly the fragments of the quarter computed at once', async () => {
    await store(t, byDay, days);
    await store(t, byQuarter, days);
    await markNewRecords(t.db, t.company.id);
    const marks = await t.db.kysely
      .selectFrom('ifta_stale_days')
      .select(['day', 'token'])
      .where('vehicle_id', '=', byDay.vehicle.id)
      .orderBy('day', 'desc')
      .execute();
    assert.ok(marks.length >= 3);
    for (const m of marks) await recomputeDays(t.db, t.company.id, byDay.vehicle.id, [m.day], [m.token]);
    await get(t, '/v1/ifta/quarterly_report?year=2024&quarter=1');
    const fragments = async (u: Unit) =>
      (
        await t.db.kysely
          .selectFrom('ifta_fragments')
          .select([
            'owner_day',
            'bucket_start',
            'jurisdiction',
            'distance_km',
            'start_time',
            'end_time',
            'start_odometer_km',
            'end_odometer_km',
          ])
          .where('vehicle_id', '=', u.vehicle.id)
          .orderBy('owner_day')
          .orderBy('bucket_start')
          .orderBy('jurisdiction')
          .execute()
      ).map((f) => ({
        ...f,
        distance_km: Math.round(f.distance_km * 1e9) / 1e9,
        start_odometer_km: Math.round(f.start_odometer_km! * 1e6) / 1e6,
        end_odometer_km: Math.round(f.end_odometer_km! * 1e6) / 1e6,
      }));
    const one = await fragments(byDay);
    assert.ok(one.length > 20);
    assert.deepEqual(new Set(one.map((f) => f.jurisdiction)), new Set(['MA', 'RI', 'CT', 'NY']));
    assert.deepEqual(one, await fragments(byQuarter));
    const summary = async (u: Unit) =>
      items(await get(t, `/v1/ifta/summary?start_date=2024-01-01&end_date=2024-03-31&vehicle_ids=${u.vehicle.id}`)).map(
        (r) => [r.jurisdiction, r.distance],
      );
    assert.deepEqual(await summary(byDay), await summary(byQuarter));
  });

  test('the rows of every day sum to the odometer advance of that day, in any zone', async () => {
    for (const zone of ['Eastern Time (US & Canada)', 'UTC', 'Pacific Time (US & Canada)']) {
      const rows = await trips(byQuarter, '2024-01-15', '2024-01-19', zone);
      const dates = [...new Set(rows.map((r) => r.date))];
      assert.ok(dates.length >= 2, `${zone}: ${dates}`);
      let total = 0;
      for (const date of dates) {
        const day = rows.filter((r) => r.date === date);
        const sum = day.reduce((s, r) => s + r.distance, 0);
        const advance = Math.max(...day.map((r) => r.end_odometer)) - Math.min(...day.map((r) => r.start_odometer));
        // Each row's distance and both odometers are rounded to 0.01 mi.
        assert.ok(
          Math.abs(sum - advance) <= 0.005 * (day.length + 2) + 1e-9,
          `${zone} ${date}: rows ${sum} vs odometer ${advance}`,
        );
        total += sum;
      }
      near(total, span(days), 0.0005);
    }
  });
});
