/** The slow-request log line: request id, route pattern, status, duration, the request's queries and its caller; no secret. */
import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { eachDialect, makeApp, type TestApp } from '../helper.js';
import { createVehicle } from '../http/fixtures.js';
import { post, rig } from '../telemetry/fixtures.js';

interface Captured {
  t: TestApp;
  lines: Array<Record<string, any>>;
  raw: string[];
  /** Queries the database ran while `fn` ran, seen by an observer of the test's own. */
  countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: number }>;
}

async function capture(
  dialect: 'sqlite' | 'postgres',
  env: Record<string, string>,
  fn: (c: Captured) => Promise<void>,
) {
  const raw: string[] = [];
  const t = await makeApp(
    dialect,
    { LOG_LEVEL: 'info', TELEMETRY_SWEEP_MS: '0', ...env },
    { logStream: { write: (line) => void raw.push(line) } },
  );
  const c: Captured = {
    t,
    raw,
    get lines() {
      return raw.map((l) => JSON.parse(l) as Record<string, any>);
    },
    async countQueries(work) {
      let queries = 0;
      const stop = t.db.observeQueries(() => void queries++);
      try {
        return { result: await work(), queries };
      } finally {
        stop();
      }
    },
  };
  try {
    await fn(c);
  } finally {
    await t.close();
  }
}

/** A POST whose body is sent 50 ms after its headers, so that the server reads it from a later socket event. */
function postSlowly(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, requestId: String(res.headers['x-request-id']) }));
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    setTimeout(() => req.end(body), 50);
  });
}

/** Every request logged, with its database queries counted. */
const QUERIES = { SLOW_REQUEST_MS: '0', SLOW_REQUEST_QUERIES: '1' };

const slowLines = (c: Captured, reqId: unknown) => c.lines.filter((l) => l.msg === 'slow request' && l.reqId === reqId);

eachDialect('slow-request log', (dialect) => {
  test('with SLOW_REQUEST_MS=0 every request logs its route, status, duration, database queries and caller', () =>
    capture(dialect, QUERIES, async (c) => {
      const { t } = c;
      const v = await createVehicle(t);
      const { result: res, queries } = await c.countQueries(() => t.call({ url: `/v1/vehicles/${v.id}?secret=abc` }));
      assert.equal(res.status, 200);
      const [line, ...more] = slowLines(c, res.headers['x-request-id']);
      assert.equal(more.length, 0);
      assert.equal(line.level, 40, 'warn');
      assert.deepEqual(
        Object.keys(line)
          .filter((k) => !['level', 'time', 'pid', 'hostname'].includes(k))
          .sort(),
        [
          'company_id',
          'credential_id',
          'credential_type',
          'db_queries',
          'db_time_ms',
          'duration_ms',
          'method',
          'msg',
          'reqId',
          'route',
          'status_code',
        ],
      );
      assert.equal(line.method, 'GET');
      assert.equal(line.route, '/v1/vehicles/:id');
      assert.equal(line.status_code, 200);
      assert.equal(typeof line.duration_ms, 'number');
      assert.ok(line.db_queries > 0, 'the API key lookup and the vehicle read');
      assert.equal(line.db_queries, queries, 'every query of the request, and only those');
      assert.ok(line.db_time_ms >= 0);
      // One connection on SQLite: its queries follow each other. On PostgreSQL a request's queries may run
      // at once on several pool clients, and their times add up past the request's (docs/operations.md).
      if (dialect === 'sqlite') assert.ok(line.db_time_ms <= line.duration_ms, JSON.stringify(line));
      assert.equal(line.company_id, t.company.id);
      assert.equal(line.credential_type, 'api_key');
      assert.equal(typeof line.credential_id, 'number');
    }));

  test('queries made after a body that arrives later over the socket are counted on the request too', () =>
    capture(dialect, QUERIES, async (c) => {
      const base = await c.t.app.listen({ host: '127.0.0.1', port: 0 });
      const { result: res, queries } = await c.countQueries(() =>
        postSlowly(`${base}/v1/vehicles`, c.t.company.headers, JSON.stringify({ number: 'SLOW-1' })),
      );
      assert.equal(res.status, 201);
      const [line] = slowLines(c, res.requestId);
      assert.equal(line.route, '/v1/vehicles');
      assert.equal(line.status_code, 201);
      assert.equal(line.db_queries, queries);
      assert.ok(line.db_queries >= 3, `credential, insert and event: ${line.db_queries}`);
    }));

  test('a device request names the device; unknown paths and unauthenticated requests name no caller; no secret is logged', () =>
    capture(dialect, QUERIES, async (c) => {
      const { t } = c;
      const r = await rig(t);
      const batch = await t.app.inject({
        method: 'POST',
        url: '/device/v1/batches',
        headers: { authorization: `Bearer ${r.device.device_token}` },
        payload: {
          records: [
            { seq: 1, type: 'location', time: new Date(Date.now() - 60_000).toISOString(), lat: 39.8, lon: -89.6 },
          ],
        },
      });
      assert.equal(batch.statusCode, 200);
      const [device] = slowLines(c, batch.headers['x-request-id']);
      assert.equal(device.route, '/device/v1/batches');
      assert.equal(device.credential_type, 'device');
      assert.equal(device.credential_id, r.device.id);
      assert.equal(device.company_id, t.company.id);
      assert.ok(device.db_queries > 0);
      const refused = await post(t, 'fd_not-a-device', { records: [{}] });
      assert.equal(refused.status, 401);
      const unknown = await t.app.inject({ url: '/no/such/path' });
      const [lost] = slowLines(c, unknown.headers['x-request-id']);
      assert.equal(lost.route, '(unmatched)');
      assert.equal(lost.status_code, 404);
      assert.equal(lost.company_id, undefined);
      const all = c.raw.join('');
      for (const secret of [t.company.apiKey, r.device.device_token, 'fd_not-a-device'])
        assert.equal(all.includes(secret), false, 'no credential in the log');
    }));

  test('without SLOW_REQUEST_QUERIES (the default) the line has no database fields', () =>
    capture(dialect, { SLOW_REQUEST_MS: '0' }, async (c) => {
      const res = await c.t.call({ url: '/v1/vehicles' });
      assert.equal(res.status, 200);
      const [line] = slowLines(c, res.headers['x-request-id']);
      assert.equal(line.route, '/v1/vehicles');
      assert.equal(line.company_id, c.t.company.id);
      assert.equal('db_queries' in line || 'db_time_ms' in line, false);
    }));

  test('a fast request under the threshold logs no slow line; SLOW_REQUEST_MS=off none at all', async () => {
    await capture(dialect, { SLOW_REQUEST_MS: '60000' }, async (c) => {
      assert.equal((await c.t.app.inject({ url: '/healthz' })).statusCode, 200);
      assert.ok(c.lines.some((l) => l.msg === 'GET /healthz 200 ' + l.duration_ms + ' ms'));
      assert.equal(c.lines.filter((l) => l.msg === 'slow request').length, 0);
    });
    await capture(dialect, { SLOW_REQUEST_MS: 'off' }, async (c) => {
      const res = await c.t.app.inject({ url: '/healthz' });
      assert.equal(res.statusCode, 200);
      assert.equal(c.lines.filter((l) => l.msg === 'slow request').length, 0);
    });
  });
});
