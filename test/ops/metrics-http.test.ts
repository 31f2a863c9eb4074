/** GET /metrics: the operator token, the exposition format, request counts by route pattern, the database gauges. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { eachDialect, makeApp, POSTGRES_URL, type TestApp } from '../helper.js';
import { createVehicle } from '../http/fixtures.js';
import { loadConfig, ConfigError } from '../../src/config/index.js';
import { METRICS_ENV, scrape, TOKEN } from './scrape.js';

async function withApp(dialect: 'sqlite' | 'postgres', env: Record<string, string>, fn: (t: TestApp) => Promise<void>) {
  const t = await makeApp(dialect, env);
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

test('METRICS_TOKEN must be 16+ characters without spaces; SLOW_REQUEST_MS a whole number or off; SLOW_REQUEST_QUERIES a flag', () => {
  assert.throws(
    () => loadConfig({ METRICS_TOKEN: 'short' }),
    (e: unknown) => e instanceof ConfigError && /METRICS_TOKEN must be at least 16 characters/.test(e.message),
  );
  assert.throws(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' }), ConfigError);
  assert.throws(() => loadConfig({ SLOW_REQUEST_MS: '1.5' }), /SLOW_REQUEST_MS must be a whole number/);
  assert.throws(() => loadConfig({ SLOW_REQUEST_QUERIES: 'maybe' }), /SLOW_REQUEST_QUERIES must be 1 or 0/);
  assert.deepEqual(loadConfig({}).ops, { metricsToken: null, slowRequestMs: 1000, slowRequestQueries: false });
  assert.deepEqual(loadConfig({ METRICS_TOKEN: TOKEN, SLOW_REQUEST_MS: 'off', SLOW_REQUEST_QUERIES: '1' }).ops, {
    metricsToken: TOKEN,
    slowRequestMs: null,
    slowRequestQueries: true,
  });
  assert.equal(loadConfig({ SLOW_REQUEST_MS: '0' }).ops.slowRequestMs, 0);
});

eachDialect('GET /metrics', (dialect) => {
  test('is a 404 like any unknown path while METRICS_TOKEN is unset', () =>
    withApp(dialect, {}, async (t) => {
      const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.statusCode, 404);
      assert.equal(res.body, '{"error_message":"no such endpoint: GET /metrics"}');
    }));

  test('401 without the token or with another one, an API key does not open it; 200 in the text format with it', () =>
    withApp(dialect, METRICS_ENV, async (t) => {
      const none = await t.app.inject({ url: '/metrics' });
      assert.equal(none.statusCode, 401);
      assert.equal(
        none.body,
        '{"error_message":"metrics need the operator token: send Authorization: Bearer <METRICS_TOKEN>"}',
      );
      assert.equal(none.headers['www-authenticate'], 'Bearer realm="metrics"');
      for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, 'Bearer x', `Basic ${TOKEN}`]) {
        const res = await t.app.inject({ url: '/metrics', headers: { authorization } });
        assert.equal(res.statusCode, 401, authorization);
        assert.equal(
          res.body,
          authorization.startsWith('Basic')
            ? '{"error_message":"metrics need the operator token: send Authorization: Bearer <METRICS_TOKEN>"}'
            : '{"error_message":"invalid metrics token"}',
        );
      }
      const key = await t.app.inject({ url: '/metrics', headers: t.company.headers });
      assert.equal(key.statusCode, 401);
      const ok = await scrape(t.app);
      assert.equal(ok.status, 200);
      assert.match(ok.contentType, /^text\/plain; version=0\.0\.4/);
      assert.match(ok.text, /^# HELP process_cpu_user_seconds_total /m, 'process metrics are on the app registry');
      assert.equal(ok.samples.get('fleet_db_up'), 1);
      const doc = (await t.app.inject({ url: '/openapi.json' })).json();
      assert.equal(doc.paths['/metrics'], undefined, 'hidden from the OpenAPI document');
    }));

  test('requests are counted by route pattern, method and status; unknown paths under one label', () =>
    withApp(dialect, METRICS_ENV, async (t) => {
      const v = await createVehicle(t);
      for (let i = 0; i < 3; i++) assert.equal((await t.call({ url: `/v1/vehicles/${v.id}` })).status, 200);
      assert.equal((await t.call({ url: `/v1/vehicles/${v.id + 1000}` })).status, 404);
      assert.equal((await t.app.inject({ url: `/v1/vehicles/${v.id}` })).statusCode, 401);
      for (const path of ['/v1/nope', '/v1/nope/12345', '/zzz'])
        assert.equal((await t.app.inject({ url: path })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'DELETE', url: '/healthz' })).statusCode, 405);
      const s = await scrape(t.app);
      assert.deepEqual(
        s
          .lines('fleet_http_requests_total')
          .filter((l) => l.includes('/v1/') || l.includes('unmatched'))
          .sort(),
        [
          'fleet_http_requests_total{method="DELETE",route="(unmatched)",status_code="405"} 1',
          'fleet_http_requests_total{method="GET",route="(unmatched)",status_code="404"} 3',
          'fleet_http_requests_total{method="GET",route="/v1/vehicles/:id",status_code="200"} 3',
          'fleet_http_requests_total{method="GET",route="/v1/vehicles/:id",status_code="401"} 1',
          'fleet_http_requests_total{method="GET",route="/v1/vehicles/:id",status_code="404"} 1',
          'fleet_http_requests_total{method="POST",route="/v1/vehicles",status_code="201"} 1',
        ],
      );
      assert.equal(
        s.samples.get(
          'fleet_http_request_duration_seconds_count{method="GET",route="/v1/vehicles/:id",status_class="2xx"}',
        ),
        3,
      );
      assert.equal(
        s.samples.get(
          'fleet_http_request_duration_seconds_count{method="GET",route="/v1/vehicles/:id",status_class="4xx"}',
        ),
        2,
      );
      assert.equal(
        s.samples.get(
          'fleet_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v1/vehicles/:id",status_class="2xx"}',
        ),
        3,
      );
      assert.ok(!s.text.includes(`/v1/vehicles/${v.id}"`) && !s.text.includes('nope'), 'no raw URL in a label');
      // The scrape itself is counted on the next one.
      const again = await scrape(t.app);
      assert.equal(again.samples.get('fleet_http_requests_total{method="GET",route="/metrics",status_code="200"}'), 1);
      assert.ok((again.samples.get('fleet_db_query_duration_seconds_count{operation="select"}') ?? 0) > 0);
    }));

  test('pool gauges: the pg pool clients on PostgreSQL, one connection on SQLite', () =>
    withApp(dialect, METRICS_ENV, async (t) => {
      const s = await scrape(t.app);
      const total = s.samples.get('fleet_db_pool_clients{state="total"}');
      if (dialect === 'sqlite') {
        assert.deepEqual(s.lines('fleet_db_pool_clients'), ['fleet_db_pool_clients{state="total"} 1']);
        return;
      }
      const idle = s.samples.get('fleet_db_pool_clients{state="idle"}');
      assert.ok(total !== undefined && total >= 1 && total <= 4, `total ${total} within the pool size of 4`);
      assert.ok(idle !== undefined && idle >= 0 && idle <= total);
      assert.equal(s.samples.get('fleet_db_pool_clients{state="waiting"}'), 0);
      // A client busy at scrape time is not idle.
      await t.db.kysely.connection().execute(async (conn) => {
        await conn.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
        const busy = await scrape(t.app);
        const n = busy.samples.get('fleet_db_pool_clients{state="total"}')!;
        assert.ok(n >= 1 && busy.samples.get('fleet_db_pool_clients{state="idle"}')! <= n - 1);
      });
    }));

  test('read cache gauges: a repeated GET shows as hits; the change listener is up', () =>
    withApp(dialect, METRICS_ENV, async (t) => {
      const v = (await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'RC-1' } })).body.vehicle;
      // On PostgreSQL the node also hears of its own writes by notification; let them arrive, and the
      // API key settle in the cache, first.
      await new Promise((r) => setTimeout(r, 300));
      await t.call({ method: 'GET', url: '/v1/companies' });
      const before = await scrape(t.app);
      for (let i = 0; i < 3; i++)
        assert.equal((await t.call({ method: 'GET', url: `/v1/vehicles/${v.id}` })).status, 200);
      const after = await scrape(t.app);
      const stat = (x: typeof after, k: string) => x.samples.get(`fleet_read_cache{stat="${k}"}`)!;
      // The first GET computes the body and stores it, the next two are hits (the API key is a hit each time).
      assert.equal(stat(after, 'stored') - stat(before, 'stored'), 1);
      assert.equal(stat(after, 'hits') - stat(before, 'hits'), 2 + 3);
      assert.ok(stat(after, 'entries') >= 2 && stat(after, 'bytes') > 0);
      assert.equal(after.samples.get('fleet_change_listener_up'), 1);
    }));

  test('with the database gone the scrape still answers: fleet_db_up 0 and no database gauges', () =>
    withApp(dialect, METRICS_ENV, async (t) => {
      assert.equal((await scrape(t.app)).samples.get('fleet_outbox_events_pending'), 0);
      await t.db.close();
      const s = await scrape(t.app);
      assert.equal(s.status, 200);
      assert.equal(s.samples.get('fleet_db_up'), 0);
      assert.equal(s.samples.get('fleet_outbox_events_pending'), undefined);
      assert.equal(s.samples.get('fleet_telemetry_pending_vehicles'), undefined);
      assert.equal(s.samples.get('fleet_http_requests_total{method="GET",route="/metrics",status_code="200"}'), 1);
    }));
});

if (POSTGRES_URL) {
  test('PostgreSQL: a scrape does not wait behind a lock on a table it reads [postgres]', () =>
    withApp('postgres', METRICS_ENV, async (t) => {
      const schema = (
        await t.db.kysely.selectNoFrom((eb) => eb.fn<string>('current_schema').as('s')).executeTakeFirstOrThrow()
      ).s;
      const locker = new pg.Client({ connectionString: POSTGRES_URL });
      await locker.connect();
      try {
        await locker.query('begin');
        await locker.query(`lock table ${schema}.domain_events in access exclusive mode`);
        const started = Date.now();
        const s = await scrape(t.app);
        assert.equal(s.status, 200);
        assert.equal(s.samples.get('fleet_db_up'), 0);
        assert.ok(Date.now() - started < 1500, `answered in ${Date.now() - started} ms`);
        await locker.query('rollback');
        assert.equal((await scrape(t.app)).samples.get('fleet_db_up'), 1);
      } finally {
        await locker.end();
      }
    }));
}
