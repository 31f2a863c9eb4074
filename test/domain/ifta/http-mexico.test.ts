/**
 * Mexico through the device API, on both databases (docs/ifta.md, "Boundary data"): Mexico is a
 * jurisdiction of its own (`MX`, not an IFTA member), so a round trip from El Paso into Ciudad Juárez
 * and back within a few hours has its Mexican miles in an `MX` row, as a non-member's miles are
 * reported (docs/reference/wire.md §4.10: one row per jurisdiction), and only its Texan miles in the
 * `TX` row — without an outline for Mexico they were bridged to Texas, the jurisdiction on both sides.
 * A drive along the Rio Grande 150 m inside Texas stays wholly in Texas. The quarterly report counts
 * the Mexican miles in the total and taxes none of them.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { rig, send, settle, DAY, type Rig } from '../../telemetry/fixtures.js';
import { along, concat, parked, withSpeed, odoSpan, type LatLon } from './tracks.js';
import { BORDER_TRACKS } from './border-tracks.js';
import { get, items, mi, near } from './http-fixtures.js';
import type { Track } from '../../../src/domain/ifta/rules.js';

const trackOf = (name: string) => BORDER_TRACKS.find((b) => b.name === name)!;
const ROUND_TRIP = trackOf('El Paso to Ciudad Juárez and back');
const RIO_GRANDE = trackOf('Rio Grande, 150 m inside Texas');
/** Where the round trip stops for an hour: the south of Ciudad Juárez. */
const STOP = 5;
const T0 = Date.parse(`${DAY}T15:00:00Z`); // 09:00 in El Paso

/** Into Juárez, an hour parked there (a fix every 30 s, speed 0), and back: 90 km/h, a fix every 10 s. */
function roundTrip(): Track {
  const out = withSpeed(along(ROUND_TRIP.waypoints.slice(0, STOP + 1), { t0: T0, odo0: 200_000 }).track, 90);
  const end = out.t[out.n - 1];
  const odo = out.odo[out.n - 1];
  const stay = parked(ROUND_TRIP.waypoints[STOP], {
    t0: end + 30_000,
    seconds: 3600,
    everyS: 30,
    sigmaM: 5,
    speed: 0,
    odo,
  });
  const back = along(ROUND_TRIP.waypoints.slice(STOP) as LatLon[], { t0: end + 3_660_000, odo0: odo });
  return concat(out, stay, withSpeed(back.track, 90));
}

async function drive(t: TestApp, r: Rig, track: Track): Promise<void> {
  const records = [];
  for (let i = 0; i < track.n; i++)
    records.push({
      type: 'location',
      time: new Date(track.t[i]).toISOString(),
      lat: track.lat[i],
      lon: track.lon[i],
      speed_kph: track.speed ? track.speed[i] : 90,
      odometer_km: track.odo[i],
    });
  for (let i = 0; i < records.length; i += 100) await send(t, r, records.slice(i, i + 100));
}

eachDialect('ifta Mexico', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let juarez: Rig, river: Rig;
  let trip: Track, riverTrack: Track;
  const trips = async (r: Rig, q = '') =>
    items(
      await get(t, `/v1/ifta/trips?start_date=${DAY}&end_date=${DAY}&vehicle_ids=${r.vehicle.id}${q}`, {
        'X-Time-Zone': 'UTC',
      }),
    );

  before(async () => {
    t = await getApp();
    juarez = await rig(t);
    river = await rig(t);
    trip = roundTrip();
    riverTrack = withSpeed(along(RIO_GRANDE.waypoints, { t0: T0, odo0: 300_000 }).track, 90);
    await drive(t, juarez, trip);
    await drive(t, river, riverTrack);
    await settle(t);
  });

  test('El Paso → Ciudad Juárez → El Paso in under 2 h: the Mexican miles in an MX row, only the Texan ones in TX', async () => {
    const rows = await trips(juarez);
    assert.deepEqual(
      rows.map((r) => [r.date, r.jurisdiction]),
      [
        [DAY, 'MX'],
        [DAY, 'TX'],
      ],
    );
    const [mx, tx] = rows;
    near(mx.distance, mi(ROUND_TRIP.expectedKm.MX));
    near(tx.distance, mi(ROUND_TRIP.expectedKm.TX));
    near(mx.distance + tx.distance, mi(odoSpan(trip)), 0.0005);
    // The MX row spans the visit: from the crossing at the Paso del Norte bridge to the one at the
    // Bridge of the Americas, with the hour parked in between.
    assert.ok(
      mx.start_lat > 31.74 && mx.start_lat < 31.76 && mx.end_lat > 31.755 && mx.end_lat < 31.77,
      JSON.stringify(mx),
    );
    assert.equal(mx.vehicle.id, juarez.vehicle.id);
    assert.deepEqual(
      (await trips(juarez, '&jurisdictions=mx')).map((r) => [r.jurisdiction, r.distance]),
      [['MX', mx.distance]],
    );
  });

  test('along the Rio Grande 150 m inside Texas: every mile in Texas', async () => {
    const rows = await trips(river);
    assert.deepEqual(
      rows.map((r) => r.jurisdiction),
      ['TX'],
    );
    near(rows[0].distance, mi(RIO_GRANDE.expectedKm.TX), 0.0005);
  });

  test('the summary has the MX row; the quarterly report counts Mexico in the total miles and taxes none of it', async () => {
    const summary = items(
      await get(
        t,
        `/v1/ifta/summary?start_date=${DAY}&end_date=${DAY}&vehicle_ids=${juarez.vehicle.id},${river.vehicle.id}`,
      ),
    );
    assert.deepEqual(
      summary.map((r) => [r.vehicle.id, r.jurisdiction]),
      [
        [juarez.vehicle.id, 'MX'],
        [juarez.vehicle.id, 'TX'],
        [river.vehicle.id, 'TX'],
      ],
    );
    const [year, month] = DAY.split('-').map(Number);
    const rep = (await get(t, `/v1/ifta/quarterly_report?year=${year}&quarter=${Math.ceil(month / 3)}`))
      .ifta_quarterly_report;
    const f = rep.fuel_types[0];
    const line = (j: string) => f.jurisdictions.find((l: any) => l.jurisdiction === j);
    assert.deepEqual(
      f.jurisdictions.map((l: any) => [l.jurisdiction, l.ifta_member]),
      [
        ['MX', false],
        ['TX', true],
      ],
    );
    near(line('MX').total_miles, summary[0].distance, 0.001);
    assert.equal(line('MX').taxable_miles, 0);
    near(line('TX').taxable_miles, summary[1].distance + summary[2].distance, 0.001);
    near(f.taxable_miles, line('TX').taxable_miles, 0.001);
    near(f.total_miles, line('MX').total_miles + line('TX').total_miles, 0.001);
    assert.equal(f.unplaced_miles, 0);
  });
});
