import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect, useApp } from '../helper.js';
import { rig, send, settle, track, engine, login } from './fixtures.js';

eachDialect('telemetry smoke', (dialect) => {
  const getApp = useApp(dialect, { TELEMETRY_REORDER_WINDOW_S: '0' });
  test('a batch is stored and processed', async () => {
    const t = await getApp();
    const r = await rig(t);
    const body = await send(t, r, [engine(0, 'on'), login(1, r.driver.id), ...track({ fromS: 10, toS: 600, kph: 0 }), ...track({ fromS: 610, toS: 1800, kph: 90 }), ...track({ fromS: 1810, toS: 2400, kph: 0 }), engine(2500, 'off')]);
    assert.equal(body.rejected, 0, JSON.stringify(body.results.filter((x: any) => x.status !== 'accepted')));
    await settle(t);
    console.log(await t.db.kysely.selectFrom('driving_periods').selectAll().execute());
    console.log(await t.db.kysely.selectFrom('idle_events').selectAll().execute());
    console.log(await t.db.kysely.selectFrom('utilization_buckets').selectAll().execute());
    console.log(await t.db.kysely.selectFrom('domain_events').select(['action', 'trigger']).execute());
  });
});
