/**
 * Inputs the two databases treat differently, dates at the calendar's ends and spans that would cost
 * unbounded work: each a 400 naming the field, identical on SQLite and PostgreSQL, changing nothing
 * (docs/errors.md, "Bounded requests" and "Values both databases store").
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, createUser } from '../fixtures.js';

const RANGE = 'must be a date from 1970-01-01 to 2199-12-31';

eachDialect('hardening', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let driver: any;

  before(async () => {
    t = await getApp();
    driver = await createUser(t, { first_name: 'Edge', last_name: 'Case' });
  });

  const count = async (table: string) =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(t.db.kysely)).rows[0].n);

  describe('dates', () => {
    test('a day outside 1970-01-01..2199-12-31 is a 400 naming the parameter, on every list that takes one', async () => {
      const lists = [
        '/v1/ifta/trips',
        '/v1/ifta/summary',
        '/v1/messages',
        '/v1/fuel_purchases',
        '/v1/documents',
        '/v1/form_entries',
        '/v1/inspection_reports',
        '/v1/idle_events',
        '/v1/vehicle_utilization',
        '/v1/driving_periods',
        '/v1/logs',
        '/v1/hours_of_service',
        '/v1/driver_performance_events',
      ];
      for (const list of lists) {
        for (const day of ['0000-01-01', '9999-12-31', '1969-12-31', '2200-01-01']) {
          const res = await t.call({ method: 'GET', url: `${list}?end_date=${day}` });
          if (res.status === 404 && /no such endpoint/.test(res.body.error_message))
            assert.fail(`${list} is not an endpoint`);
          assertError(res, 400, `end_date ${RANGE} (got ${day})`);
        }
      }
    });

    test('the first and last accepted days are accepted', async () => {
      for (const q of [
        'start_date=1970-01-01&end_date=1970-01-07',
        'start_date=2199-12-25&end_date=2199-12-31',
        'end_date=1970-01-01',
        'start_date=2199-12-31',
      ]) {
        assert.equal((await t.call({ method: 'GET', url: `/v1/ifta/trips?${q}` })).status, 200, q);
        assert.equal((await t.call({ method: 'GET', url: `/v1/messages?${q}` })).status, 200, q);
      }
    });

    test('a datetime past the calendar, or with an hour that does not exist, is a 400', async () => {
      assertError(
        await t.call({ method: 'GET', url: '/v1/hos_violations?min_start_time=2199-12-31T23:00:00-05:00' }),
        400,
        `min_start_time ${RANGE} (got 2199-12-31T23:00:00-05:00)`,
      );
      assertError(
        await t.call({ method: 'GET', url: '/v1/hos_violations?max_start_time=2024-01-01T25:00:00Z' }),
        400,
        'max_start_time is not a valid datetime (2024-01-01T25:00:00Z)',
      );
      assert.equal(
        (
          await t.call({
            method: 'GET',
            url: '/v1/hos_violations?min_start_time=2199-12-31T23:00:00Z&max_start_time=2199-12-31T23:59:59Z',
          })
        ).status,
        200,
      );
    });

    test('a telemetry window is at most 366 days: work bounded before it starts', async () => {
      assert.equal(
        (await t.call({ method: 'GET', url: '/v1/ifta/trips?start_date=2024-01-01&end_date=2024-12-31' })).status,
        200,
      );
      const t0 = Date.now();
      assertError(
        await t.call({ method: 'GET', url: '/v1/ifta/trips?start_date=1970-01-01&end_date=2199-12-31' }),
        400,
        'Date range cannot be greater than 366 days',
      );
      assertError(
        await t.call({ method: 'GET', url: '/v1/idle_events?start_date=2023-01-01&end_date=2024-01-03' }),
        400,
        'Date range cannot be greater than 366 days',
      );
      assert.ok(Date.now() - t0 < 1000);
    });

    test('a body date past the calendar is refused before anything is written', async () => {
      const before = await count('fuel_purchases');
      const res = await t.call({
        method: 'POST',
        url: '/v1/fuel_purchases',
        payload: { purchased_at: '9999-12-31', fuel: 10, jurisdiction: 'TX', driver_id: driver.id },
      });
      assertError(res, 400, `purchased_at ${RANGE} (got 9999-12-31)`);
      assert.equal(await count('fuel_purchases'), before);
    });
  });

  describe('values both databases store', () => {
    test('NUL and lone surrogates in a JSON body are a 400 naming the field, and nothing is written', async () => {
      const before = await count('users');
      for (const [first_name, problem] of [
        ['a\u0000b', 'must not contain a NUL character (\\u0000)'],
        ['a\uD800b', 'must not contain a lone UTF-16 surrogate (half of a surrogate pair)'],
        ['\uDC00', 'must not contain a lone UTF-16 surrogate (half of a surrogate pair)'],
      ]) {
        const res = await t.call({
          method: 'POST',
          url: '/v1/users',
          payload: { first_name, last_name: 'X', role: 'driver', username: `nul${before}` },
        });
        assertError(res, 400, `first_name ${problem}`);
      }
      const nested = await t.call({
        method: 'POST',
        url: '/v1/dispatch_locations',
        payload: {
          name: 'Yard',
          address_line1: 'x',
          external_ids_attributes: [{ external_id: 'e\u0000', integration_name: 'i' }],
        },
      });
      assertError(nested, 400, 'external_ids_attributes[0].external_id must not contain a NUL character (\\u0000)');
      assert.equal(await count('users'), before);
    });

    test('a whole surrogate pair (an emoji) is text like any other', async () => {
      const res = await t.call({ method: 'PUT', url: `/v1/users/${driver.id}`, payload: { first_name: 'Truck 🚚' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.user.first_name, 'Truck 🚚');
    });

    test('NUL in a query filter or a path is a 400, not a database error', async () => {
      assertError(
        await t.call({ method: 'GET', url: '/v1/vehicles?number=T%00' }),
        400,
        'number must not contain a NUL character (\\u0000)',
      );
      assertError(
        await t.call({ method: 'GET', url: '/v1/users/lookup?username=a%00' }),
        400,
        'username must not contain a NUL character (\\u0000)',
      );
      assertError(await t.call({ method: 'GET', url: '/v1/dispatch_forms/a%00b' }), 400);
    });

    test('an integer past PostgreSQL integer is a 400 naming the field', async () => {
      assertError(await t.call({ method: 'GET', url: '/v1/users/2147483648' }), 400, 'id must be at most 2147483647');
      assert.equal((await t.call({ method: 'GET', url: '/v1/users/2147483647' })).status, 404);
      assertError(
        await t.call({ method: 'GET', url: '/v1/hos_violations?driver_ids=2147483648' }),
        400,
        'driver_ids[0] must be at most 2147483647',
      );
      for (const [id, message] of [
        [2147483648, 'recipient_id must be at most 2147483647'],
        [1e308, 'recipient_id must be at most 2147483647'],
        [-2147483649, 'recipient_id must be at least 1'],
      ] as const) {
        assertError(
          await t.call({ method: 'POST', url: '/v1/messages', payload: { recipient_id: id, body: 'hi' } }),
          400,
          message,
        );
      }
      const put = await t.call({
        method: 'PUT',
        url: '/v1/dispatch_locations',
        payload: { id: 2147483648, name: 'x' },
      });
      assertError(put, 400, 'id must be at most 2147483647');
    });

    test('X-User-Id past PostgreSQL integer names nobody: 403, not a database error', async () => {
      for (const id of ['2147483648', '99999999999999999999']) {
        assertError(
          await t.call({ method: 'GET', url: '/v1/users', headers: { 'x-user-id': id } }),
          403,
          `X-User-Id ${id} is not an active admin of this company`,
        );
      }
    });

    test('a number that is not finite in a query string is a 400, not null', async () => {
      assertError(
        await t.call({ method: 'GET', url: '/v1/vehicles?driver_ids=Infinity' }),
        400,
        'driver_ids[0] must be an integer',
      );
      assertError(
        await t.call({ method: 'GET', url: '/v1/vehicles?driver_ids=5,NaN' }),
        400,
        'driver_ids[1] must be an integer',
      );
      assertError(
        await t.call({ method: 'GET', url: '/v1/vehicles?per_page=1e400' }),
        400,
        'per_page must be an integer',
      );
    });

    test('more than 1000 query parameters or array items is a 400, not a silently shortened filter', async () => {
      const many = (n: number, form: (i: number) => string) => Array.from({ length: n }, (_, i) => form(i)).join('&');
      for (const q of [
        many(1001, (i) => `driver_ids[${i}]=1`),
        many(1001, () => 'driver_ids[]=1'),
        many(1001, (i) => `p${i}=1`),
      ]) {
        assertError(
          await t.call({ method: 'GET', url: `/v1/vehicles?${q}` }),
          400,
          'the query string has more than 1000 parameters or array items',
        );
      }
      assert.equal(
        (await t.call({ method: 'GET', url: `/v1/vehicles?${many(1000, (i) => `driver_ids[${i}]=${i + 1}`)}` })).status,
        200,
      );
      assert.equal((await t.call({ method: 'GET', url: '/healthz' })).status, 200);
    });

    test('a query parameter the endpoint does not name is ignored, never passed on as a filter', async () => {
      const all = await t.call({ method: 'GET', url: '/v1/users' });
      const res = await t.call({ method: 'GET', url: '/v1/vehicles?ids=5' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(
        (await t.call({ method: 'GET', url: '/v1/users?ids=abc&company_id=999' })).body.pagination.total,
        all.body.pagination.total,
      );
    });
  });
});
