/** Pagination edges on /v1/users and /v1/vehicles (docs/reference/wire.md §3.1, §3.6, §3.7; issue 2 "Bad input"). */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, assertList, idsOf } from '../fixtures.js';

const N = 105; // more than the largest page, so that 100 and 101 are distinguishable

eachDialect('pagination', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  const ids: Record<'users' | 'vehicles', number[]> = { users: [], vehicles: [] };

  before(async () => {
    t = await getApp();
    // Created through the API, sequentially, so ids ascend in creation order.
    for (let i = 0; i < N; i++) {
      const u = await t.call({
        method: 'POST',
        url: '/v1/users',
        payload: { first_name: 'P', last_name: `N${i}`, role: 'driver', username: `page_${dialect}_${i}` },
      });
      assert.equal(u.status, 201);
      ids.users.push(u.body.user.id);
      const v = await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: `P${i}` } });
      assert.equal(v.status, 201);
      ids.vehicles.push(v.body.vehicle.id);
    }
  });

  for (const [plural, singular] of [
    ['users', 'user'],
    ['vehicles', 'vehicle'],
  ] as const) {
    describe(`/v1/${plural}`, () => {
      const get = (q: string) => t.call({ method: 'GET', url: `/v1/${plural}${q}` });

      test('defaults: per_page 25, page_no 1, exact total', async () => {
        const res = await get('');
        assert.equal(assertList(res, plural, singular).length, 25);
        assert.deepEqual(res.body.pagination, { per_page: 25, page_no: 1, total: N });
        assert.deepEqual(idsOf(res.body, plural, singular), ids[plural].slice(0, 25));
      });

      test('per_page=1', async () => {
        const res = await get('?per_page=1&page_no=3');
        assert.equal(assertList(res, plural, singular).length, 1);
        assert.deepEqual(res.body.pagination, { per_page: 1, page_no: 3, total: N });
        assert.deepEqual(idsOf(res.body, plural, singular), [ids[plural][2]]);
      });

      test('per_page=100', async () => {
        const res = await get('?per_page=100');
        assert.equal(assertList(res, plural, singular).length, 100);
        assert.deepEqual(res.body.pagination, { per_page: 100, page_no: 1, total: N });
      });

      test('per_page=101 is clamped to 100 and the clamped value echoed', async () => {
        for (const q of ['?per_page=101', '?per_page=100000']) {
          const res = await get(q);
          assert.equal(assertList(res, plural, singular).length, 100, q);
          assert.deepEqual(res.body.pagination, { per_page: 100, page_no: 1, total: N }, q);
        }
        const page2 = await get('?per_page=101&page_no=2');
        assert.deepEqual(idsOf(page2.body, plural, singular), ids[plural].slice(100));
        assert.deepEqual(page2.body.pagination, { per_page: 100, page_no: 2, total: N });
      });

      test('per_page 0, negative or non-numeric → 400 naming per_page', async () => {
        for (const v of ['0', '-1', '-25', 'abc', '2.5', '']) {
          assertError(await get(`?per_page=${v}`), 400, /per_page/);
        }
      });

      test('page_no 0, negative or non-numeric → 400 naming page_no', async () => {
        for (const v of ['0', '-1', 'two', '1.5']) {
          assertError(await get(`?page_no=${v}`), 400, /page_no/);
        }
      });

      test('page_no past the end → 200, [] and the real total', async () => {
        for (const q of ['?page_no=6', '?per_page=5&page_no=2100', '?per_page=100&page_no=3']) {
          const res = await get(q);
          assert.deepEqual(assertList(res, plural, singular), [], q);
          assert.equal(res.body.pagination.total, N, q);
        }
        const res = await get('?per_page=5&page_no=2100');
        assert.deepEqual(res.body.pagination, { per_page: 5, page_no: 2100, total: N });
        assert.deepEqual(Object.keys(res.body), [plural, 'pagination']);
      });

      test('the last partial page', async () => {
        const res = await get('?per_page=25&page_no=5');
        assert.deepEqual(idsOf(res.body, plural, singular), ids[plural].slice(100));
        assert.deepEqual(res.body.pagination, { per_page: 25, page_no: 5, total: N });
      });

      test('an unknown `page` parameter is ignored (page 1 again)', async () => {
        const res = await get('?page=2&per_page=10');
        assert.deepEqual(res.body.pagination, { per_page: 10, page_no: 1, total: N });
        assert.deepEqual(idsOf(res.body, plural, singular), ids[plural].slice(0, 10));
      });

      test('walking every page as clients do: each id once, ascending, count == total', async () => {
        for (const perPage of [1, 7, 25, 100]) {
          const seen: number[] = [];
          let pageNo = 1;
          let total = -1;
          for (;;) {
            const res = await get(`?per_page=${perPage}&page_no=${pageNo}`);
            assertList(res, plural, singular);
            total = res.body.pagination.total;
            seen.push(...idsOf(res.body, plural, singular));
            if (res.body.pagination.page_no * res.body.pagination.per_page >= total) break; // fleetpull's rule
            pageNo = res.body.pagination.page_no + 1; // reedwi's rule
          }
          assert.equal(total, N);
          assert.equal(seen.length, total, `per_page=${perPage}: collected == total`);
          assert.deepEqual(seen, ids[plural], `per_page=${perPage}: ascending id order, no duplicates or gaps`);
        }
      });

      test('total follows the filters, not the page', async () => {
        const q = plural === 'users' ? '?role=admin&per_page=1' : '?status=inactive&per_page=1';
        const res = await get(q);
        assert.deepEqual(res.body.pagination, { per_page: 1, page_no: 1, total: 0 });
        assert.deepEqual(res.body[plural], []);
      });
    });
  }
});
