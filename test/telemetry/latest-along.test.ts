/**
 * The current location of a vehicle (vehicle_locations_latest) written by a device batch. On
 * PostgreSQL a batch that neither changes the driver nor restamps earlier records sends the upsert, and
 * the utilization increments its processing makes, in the same statement as the state row's update
 * (src/storage/along.ts): round trips fewer for every small batch. The current location must come out as when the two ran apart: a newer fix moves it, an
 * older one never does. On SQLite the two still run apart (it has no data-modifying WITH).
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, type TestApp } from '../helper.js';
import { at, send, useRigApp, type Rig } from './fixtures.js';

eachDialect('current location and utilization written along with the state row', (dialect) => {
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

  /** The tables each statement writes, in order: one entry per statement (ids and other tables left out). */
  const writes = (sql: string) =>
    [...sql.matchAll(/\b(?:insert into|update) "?([a-z_]+)"?/g)]
      .map((m) => m[1])
      .filter((t) => t === 'vehicle_locations_latest' || t === 'utilization_buckets' || t === 'telemetry_state')
      .join(' + ');

  /** What the statements `fn` runs wrote of the current location, utilization and state, one entry each. */
  const writesOf = async (fn: () => Promise<unknown>) => {
    const seen: string[] = [];
    const stop = t.db.observeQueries((e) => {
      const w = writes(e.query.sql);
      if (w) seen.push(w);
    });
    try {
      await fn();
    } finally {
      stop();
    }
    return seen;
  };

  const fix = (s: number, lon: number) =>
    writesOf(() => send(t, v, [{ type: 'location', time: at(s), lat: 39.8, lon, speed_kph: 80.5, bearing_deg: 90 }]));

  test('one-record batches: a newer fix moves the current location, an older one does not; utilization adds up', async () => {
    const first = await fix(0, -89.6);
    // The vehicle's first batch creates its state row; then, on PostgreSQL, one statement writes the
    // current location and the state row.
    assert.deepEqual(
      first,
      dialect === 'postgres'
        ? ['telemetry_state', 'vehicle_locations_latest + telemetry_state']
        : ['telemetry_state', 'vehicle_locations_latest', 'telemetry_state'],
    );
    assert.deepEqual(await latest(), { located_at: at(0), lat: 39.8, lon: -89.6, speed: 50 });

    // The minute between the two fixes is driving time: the utilization increment goes along as well.
    assert.deepEqual(
      await fix(60, -89.5),
      dialect === 'postgres'
        ? ['vehicle_locations_latest + utilization_buckets + telemetry_state']
        : ['vehicle_locations_latest', 'utilization_buckets', 'telemetry_state'],
    );
    assert.deepEqual(await latest(), { located_at: at(60), lat: 39.8, lon: -89.5, speed: 50 });
    const buckets = await t.db.kysely
      .selectFrom('utilization_buckets')
      .select(['driving_s', 'idle_s'])
      .where('vehicle_id', '=', v.vehicle.id)
      .execute();
    assert.deepEqual(buckets, [{ driving_s: 60, idle_s: 0 }]);

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
  test('a batch whose driving spans more than two utilization buckets writes its increments apart', async () => {
    // Fixes 4 minutes apart from 16:00 to 16:44: the spans fall in the buckets of 16:00, 16:15 and 16:30.
    const fixes = Array.from({ length: 12 }, (_, i) => ({
      type: 'location',
      time: at(7200 + i * 240),
      lat: 39.8,
      lon: -89.4 + i * 0.05,
      speed_kph: 80.5,
      bearing_deg: 90,
    }));
    assert.deepEqual(
      await writesOf(() => send(t, v, fixes)),
      dialect === 'postgres'
        ? [...Array(3).fill('utilization_buckets'), 'vehicle_locations_latest + telemetry_state']
        : ['vehicle_locations_latest', ...Array(3).fill('utilization_buckets'), 'telemetry_state'],
    );
  });
});
