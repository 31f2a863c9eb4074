/**
 * Concurrent writes: one active dispatch per driver holds under parallel requests (the database decides),
 * and parallel PUTs to one dispatch apply one after the other, never interleaving into an invalid state.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, createUser } from '../../http/fixtures.js';
import { createDispatch, current, dispatchBody, put, stopOrder, world, type World } from './fixtures.js';

const PARALLEL = 10;

eachDialect('dispatches: concurrency', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let w: World;

  before(async () => {
    t = await getApp();
    w = await world(t);
  });

  const activeOf = (driverId: number) =>
    t.db.kysely
      .selectFrom('dispatches')
      .select(['id', 'vendor_id'])
      .where('driver_id', '=', driverId)
      .where('status', '=', 'active')
      .execute();

  test(`${PARALLEL} parallel PUTs activating different dispatches of one driver: exactly one succeeds`, async () => {
    const driver = await createUser(t);
    const ds = [];
    for (let i = 0; i < PARALLEL; i++) ds.push(await createDispatch(t, w, { driver_id: driver.id }));
    const results = await Promise.all(ds.map((d) => put(t, { vendor_id: d.vendor_id, status: 'active' })));
    const winners = results.filter((r) => r.status === 200);
    assert.equal(winners.length, 1, `statuses: ${results.map((r) => r.status).join(',')}`);
    for (const r of results.filter((x) => x.status !== 200)) {
      assertError(r, 400, new RegExp(`^driver ${driver.id} already has an active dispatch`));
    }
    const active = await activeOf(driver.id);
    assert.equal(active.length, 1, 'the database holds exactly one active dispatch');
    assert.equal(active[0].vendor_id, winners[0].body.dispatch.vendor_id);
    const statuses = await Promise.all(ds.map((d) => current(t, d.vendor_id).then((x) => x.status)));
    assert.deepEqual(statuses.filter((s) => s === 'planned').length, PARALLEL - 1, 'the losers are still planned');
  });

  test(`${PARALLEL} parallel POSTs creating active dispatches for one driver: exactly one succeeds`, async () => {
    const driver = await createUser(t);
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        t.call({
          method: 'POST',
          url: '/v1/dispatches',
          payload: dispatchBody(w, { driver_id: driver.id, status: 'active' }),
        }),
      ),
    );
    assert.equal(
      results.filter((r) => r.status === 201).length,
      1,
      `statuses: ${results.map((r) => r.status).join(',')}`,
    );
    for (const r of results.filter((x) => x.status !== 201)) assertError(r, 400, /already has an active dispatch/);
    assert.equal((await activeOf(driver.id)).length, 1);
    const all = await t.db.kysely.selectFrom('dispatches').select('id').where('driver_id', '=', driver.id).execute();
    assert.equal(all.length, 1, 'the refused creations left nothing behind');
  });

  test('parallel PUTs moving planned dispatches of two drivers onto one active driver: one active each', async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    const ds = [];
    for (let i = 0; i < PARALLEL; i++) ds.push(await createDispatch(t, w, { driver_id: i % 2 ? a.id : b.id }));
    const results = await Promise.all(
      ds.map((d) => put(t, { vendor_id: d.vendor_id, driver_id: a.id, status: 'active' })),
    );
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.equal((await activeOf(a.id)).length, 1);
    assert.equal((await activeOf(b.id)).length, 0);
  });

  test('parallel PUTs removing stops of one dispatch never leave fewer than two or a broken order', async () => {
    const d = await createDispatch(t, w, {}, 6);
    const all = stopOrder(d);
    // Each request removes three stops; any two together would leave fewer than two.
    const requests = Array.from({ length: PARALLEL }, (_, i) => [
      all[i % all.length],
      all[(i + 2) % all.length],
      all[(i + 5) % all.length],
    ]);
    const results = await Promise.all(
      requests.map((ids) => put(t, { vendor_id: d.vendor_id, remove_stop_vendor_ids: ids })),
    );
    const ok = results.map((r, i) => [r, requests[i]] as const).filter(([r]) => r.status === 200);
    for (const r of results.filter((x) => x.status !== 200)) {
      assertError(r, 400, /^remove_stop_vendor_ids(\[\d\] names no stop of this dispatch| would leave \d stop)/);
    }
    assert.ok(ok.length >= 1, 'at least one removal applies');
    const after = await current(t, d.vendor_id);
    const removed = new Set(ok.flatMap(([, ids]) => ids));
    assert.deepEqual(
      stopOrder(after),
      all.filter((s) => !removed.has(s)),
      'exactly the successful removals, in order',
    );
    assert.ok(stopOrder(after).length >= 2);
    const positions = await t.db.kysely
      .selectFrom('dispatch_stops')
      .select('position')
      .where('dispatch_id', '=', d.id)
      .orderBy('position')
      .execute();
    assert.deepEqual(
      positions.map((p) => p.position),
      positions.map((_, i) => i + 1),
      'positions stay 1..n',
    );
  });

  test('parallel activation and reassignment of one dispatch: the result is one of the two serial orders', async () => {
    for (let round = 0; round < 3; round++) {
      const d = await createDispatch(t, w, { driver_id: (await createUser(t)).id });
      const fresh = await createUser(t);
      const [activate, reassign] = await Promise.all([
        put(t, { vendor_id: d.vendor_id, status: 'active' }),
        put(t, { vendor_id: d.vendor_id, driver_id: fresh.id }),
      ]);
      assert.equal(activate.status, 200);
      const now = await current(t, d.vendor_id);
      assert.equal(now.status, 'active');
      if (reassign.status === 200) {
        assert.equal(now.driver_id, fresh.id, 'reassigned first, then activated');
      } else {
        assertError(
          reassign,
          400,
          `dispatch "${d.vendor_id}": the driver and vehicle of an active dispatch cannot be changed`,
        );
        assert.equal(now.driver_id, d.driver_id, 'activated first; the driver stayed');
      }
      await put(t, { vendor_id: d.vendor_id, status: 'cancelled' });
    }
  });
});
