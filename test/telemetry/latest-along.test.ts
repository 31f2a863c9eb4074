/**
 * The current location of a vehicle (vehicle_locations_latest) written by a device batch. On
 * PostgreSQL a batch that neither changes the driver nor restamps earlier records sends the upsert in
 * the same statement as the state row's update (src/storage/along.ts): one round trip fewer for every
 * small batch. The current location must come out as when the two ran apart: a newer fix moves it, an
 * older one never does. On SQLite the two still run apart (it has no data-modifying WITH).
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, type TestApp } from '../helper.js';
import { at, send, useRigApp, type Rig } from './fixtures.js';

eachDialect('current location written along with the state row', (dialect) => {
  const getRig = useRigApp(dialect);
  let t: TestApp;
  let v: Rig;
  before(async () => ({ t, v } = await getRig()));

  const latest = () =>
    t.db.kysely
      .selectFrom('vehicle_locations_latest')
      .select(['located_at', 'lat', 'lon', 'speed'])
      .where('vehicle_id', '=', v.vehicle.id)
      .executeTakeFirst();

  /** Sends one fix and returns the statements it ran that name the current-location table. */
  const fix = async (s: number, lon: number) => {
    const seen: string[] = [];
    const stop = t.db.observeQueries((e) => {
      const end = e.query.sql.indexOf('vehicle_locations_latest');
      if (end >= 0) seen.push(e.query.sql.slice(0, end + 'vehicle_locations_latest'.length));
    });
    try {
      await send(t, v, [{ type: 'location', time: at(s), lat: 39.8, lon, speed_kph: 80.5, bearing_deg: 90 }]);
    } finally {
      stop();
    }
    return seen;
  };

  test('one-record batches: a newer fix moves the current location, an older one does not', async () => {
    const first = await fix(0, -89.6);
    // One statement touches the current location: on PostgreSQL it is the state row's update as well.
    assert.deepEqual(
      first,
      dialect === 'postgres'
        ? ['with along as (insert into "vehicle_locations_latest']
        : ['insert into "vehicle_locations_latest'],
    );
    assert.deepEqual(await latest(), { located_at: at(0), lat: 39.8, lon: -89.6, speed: 50 });

    await fix(60, -89.5);
    assert.deepEqual(await latest(), { located_at: at(60), lat: 39.8, lon: -89.5, speed: 50 });

    // Older than the current location: stored (history shows it) but the current location stays.
    await fix(30, -89.55);
    assert.deepEqual(await latest(), { located_at: at(60), lat: 39.8, lon: -89.5, speed: 50 });
    const stored = await t.db.kysely
      .selectFrom('telemetry_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('vehicle_id', '=', v.vehicle.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), 3);
  });
});
