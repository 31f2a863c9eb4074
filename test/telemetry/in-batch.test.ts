/**
 * Processing in the transaction that stores a batch (docs/telemetry.md, Pipeline): when processing
 * fails, what it wrote is rolled back to its savepoint, the records themselves still commit (the batch
 * is answered 200, every record accepted) and stay pending, and the next batch processes them in order
 * with its own. The failure is real: a trigger refuses driving periods.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { at, engine, rig, send, track, type Rig } from './fixtures.js';

eachDialect('processing in the batch transaction', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '0' });
  let t: TestApp;
  let v: Rig;
  before(async () => {
    t = await getApp();
    v = await rig(t);
  });

  const refusePeriods = async (on: boolean) => {
    if (dialect === 'sqlite') {
      await sql
        .raw(
          on
            ? `create trigger refuse_periods before insert on driving_periods begin select raise(abort, 'periods are refused'); end`
            : 'drop trigger refuse_periods',
        )
        .execute(t.db.kysely);
    } else if (on) {
      await sql
        .raw(
          `create function refuse_periods() returns trigger language plpgsql as $$ begin raise exception 'periods are refused'; end $$`,
        )
        .execute(t.db.kysely);
      await sql
        .raw(
          'create trigger refuse_periods before insert on driving_periods for each row execute function refuse_periods()',
        )
        .execute(t.db.kysely);
    } else {
      await sql.raw('drop trigger refuse_periods on driving_periods').execute(t.db.kysely);
    }
  };
  const count = async (table: 'telemetry_records' | 'driving_periods' | 'utilization_buckets') =>
    (await t.db.kysely.selectFrom(table).select('vehicle_id').where('vehicle_id', '=', v.vehicle.id).execute()).length;
  const actions = async () =>
    (
      await t.db.kysely
        .selectFrom('domain_events')
        .select('action')
        .where('subject_type', '=', 'vehicle')
        .where('subject_id', '=', String(v.vehicle.id))
        .where('action', '!=', 'vehicle_upserted')
        .orderBy('id')
        .execute()
    ).map((e) => e.action);
  const located = async () =>
    (
      await t.db.kysely
        .selectFrom('vehicle_locations_latest')
        .select('located_at')
        .where('vehicle_id', '=', v.vehicle.id)
        .executeTakeFirstOrThrow()
    ).located_at;
  const state = () =>
    t.db.kysely
      .selectFrom('telemetry_state')
      .selectAll()
      .where('subject', '=', `v:${v.vehicle.id}`)
      .executeTakeFirstOrThrow();

  test('a processing failure keeps the stored records, pending; the next batch processes them in order', async () => {
    await refusePeriods(true);
    const first = [engine(0, 'on'), ...track({ fromS: 10, toS: 300, kph: 80 })];
    const res = await send(t, v, first);
    assert.deepEqual([res.accepted, res.duplicates, res.rejected], [first.length, 0, 0]);
    assert.equal(await count('telemetry_records'), first.length);
    assert.equal(await count('driving_periods'), 0);
    assert.equal(await count('utilization_buckets'), 0, 'everything processing wrote was rolled back');
    assert.equal(await located(), new Date(at(300)).toISOString(), 'the current location commits with the records');
    assert.deepEqual(await actions(), [], 'no event of processing stays (no webhook listens to the location events)');
    const pending = await state();
    assert.equal(pending.horizon, null);
    assert.equal(pending.max_fix_time, new Date(at(300)).toISOString());

    await refusePeriods(false);
    await send(t, v, track({ fromS: 310, toS: 400, kph: 80, lon: -89.4 }));
    const [period] = await t.db.kysely
      .selectFrom('driving_periods')
      .selectAll()
      .where('vehicle_id', '=', v.vehicle.id)
      .execute();
    assert.equal(period.start_time, new Date(at(10)).toISOString(), "the period starts at the first batch's first fix");
    assert.equal(period.status, 'in_progress');
    assert.equal((await state()).horizon, new Date(at(400)).toISOString());
    assert.equal(await located(), new Date(at(400)).toISOString());
    assert.deepEqual(await actions(), ['engine_toggle_event']);
  });
});
