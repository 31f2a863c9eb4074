/**
 * The access log: one line per request at the level of its kind (info; debug for device batches,
 * OsmAnd positions and the console's live stream), the device-traffic summary, the live stream neither
 * slow nor timed, and the pretty format on a terminal.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect, makeApp, type Dialect, type TestApp } from '../helper.js';
import { at, post, rig } from '../telemetry/fixtures.js';
import { METRICS_ENV, scrape } from './scrape.js';
import { consoleBrowser } from '../http/console/kit.js';
import { PASSWORD, type OAuthTestApp } from '../auth/oauth/flows.js';
import { uniq } from '../http/fixtures.js';
import { createUser } from '../../src/domain/users/service.js';
import { startOsmand } from '../../src/telemetry/osmand.js';
import { telemetryFor } from '../../src/telemetry/store/runner.js';
import { ConfigError, loadConfig } from '../../src/config/index.js';

type Line = Record<string, any>;

async function logged(
  dialect: Dialect,
  env: Record<string, string>,
  fn: (t: TestApp, lines: () => Line[]) => Promise<void>,
  tty = false,
) {
  const raw: string[] = [];
  const t = await makeApp(
    dialect,
    { TELEMETRY_SWEEP_MS: '0', TELEMETRY_REORDER_WINDOW_S: '0', ...env },
    {
      logStream: { write: (l) => void raw.push(l), isTTY: tty },
    },
  );
  try {
    await fn(t, () => raw.map((l) => JSON.parse(l) as Line));
  } finally {
    await t.close();
  }
}

const of = (lines: Line[], reqId: unknown) => lines.filter((l) => l.reqId === reqId);
const waitFor = async (what: string, cond: () => boolean, ms = 5000) => {
  for (const until = Date.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 25))) {
    assert.ok(Date.now() < until, `timed out waiting for ${what}`);
  }
};
const summaries = (lines: Line[]) => lines.filter((l) => l.component === 'device-traffic');
const COUNTS = ['batches', 'refused', 'records', 'accepted', 'duplicates', 'rejected'] as const;
const total = (lines: Line[]) =>
  Object.fromEntries(COUNTS.map((k) => [k, summaries(lines).reduce((n, l) => n + l[k], 0)]));

eachDialect('request log', (dialect) => {
  test('info: one line per request, with method, URL (secrets redacted), status, duration and request id; device batches none', () =>
    logged(dialect, { LOG_LEVEL: 'info', SLOW_REQUEST_MS: 'off' }, async (t, lines) => {
      const ok = await t.call({ url: '/v1/vehicles?per_page=5&client_secret=s3cr3t' });
      assert.equal(ok.status, 200);
      const missing = await t.call({ url: '/v1/no-such-thing' });
      assert.equal(missing.status, 404);
      const v = await rig(t);
      const batch = await t.app.inject({
        method: 'POST',
        url: '/device/v1/batches',
        headers: { authorization: `Bearer ${v.device.device_token}` },
        payload: { records: [{ seq: 1, type: 'location', time: at(0), lat: 39.8, lon: -89.6 }] },
      });
      assert.equal(batch.statusCode, 200);

      const [line, ...more] = of(lines(), ok.headers['x-request-id']);
      assert.deepEqual(more, [], 'a single line');
      assert.equal(line.level, 30);
      assert.equal(line.method, 'GET');
      assert.equal(line.url, '/v1/vehicles?per_page=5&client_secret=[redacted]');
      assert.equal(line.status_code, 200);
      assert.equal(typeof line.duration_ms, 'number');
      assert.equal(line.msg, `GET /v1/vehicles?per_page=5&client_secret=[redacted] 200 ${line.duration_ms} ms`);
      // A 404 too: no separate "Route … not found" line.
      assert.deepEqual(
        of(lines(), missing.headers['x-request-id']).map((l) => [l.level, l.status_code]),
        [[30, 404]],
      );
      assert.deepEqual(of(lines(), batch.headers['x-request-id']), [], 'a device batch is not logged at info');
      assert.equal(
        lines().some((l) => /incoming request|request completed/.test(l.msg)),
        false,
      );
      assert.equal(
        lines()
          .map((l) => JSON.stringify(l))
          .join('')
          .includes('s3cr3t'),
        false,
      );
    }));

  test('debug: a device batch is one line at debug; trace adds "incoming request" as the request is routed', async () => {
    await logged(dialect, { LOG_LEVEL: 'debug', SLOW_REQUEST_MS: 'off' }, async (t, lines) => {
      const v = await rig(t);
      const res = await t.app.inject({
        method: 'POST',
        url: '/device/v1/batches',
        headers: { authorization: `Bearer ${v.device.device_token}` },
        payload: { records: [{ seq: 1, type: 'location', time: at(0), lat: 39.8, lon: -89.6 }] },
      });
      assert.equal(res.statusCode, 200);
      const mine = of(lines(), res.headers['x-request-id']);
      assert.deepEqual(
        mine.map((l) => [l.level, l.msg]),
        [[20, `POST /device/v1/batches 200 ${mine[0].duration_ms} ms`]],
      );
    });
    await logged(dialect, { LOG_LEVEL: 'trace', SLOW_REQUEST_MS: 'off' }, async (t, lines) => {
      const res = await t.call({ url: '/v1/vehicles' });
      assert.deepEqual(
        of(lines(), res.headers['x-request-id']).map((l) => [l.level, l.msg.replace(/[\d.]+ ms$/, '… ms')]),
        [
          [10, 'incoming request'],
          [30, 'GET /v1/vehicles 200 … ms'],
        ],
      );
    });
  });

  test('the device-traffic summary counts batches, refusals and records (HTTP and OsmAnd), only when there were some', () =>
    logged(dialect, { LOG_LEVEL: 'info', SLOW_REQUEST_MS: 'off', LOG_SUMMARY_INTERVAL_S: '1' }, async (t, lines) => {
      const v = await rig(t);
      const records = [
        { seq: 1, type: 'location', time: at(0), lat: 39.8, lon: -89.6 },
        { seq: 2, type: 'location', time: at(10), lat: 39.8, lon: -89.5 },
        { seq: 3, type: 'location', time: at(20), lat: 95, lon: -89.4 },
      ];
      const first = await post(t, v.device.device_token, { records });
      assert.deepEqual([first.status, first.body.accepted, first.body.duplicates, first.body.rejected], [200, 2, 0, 1]);
      const again = await post(t, v.device.device_token, { records });
      assert.deepEqual([again.status, again.body.accepted, again.body.duplicates, again.body.rejected], [200, 0, 2, 1]);
      assert.equal((await post(t, 'fd_not-a-device', { records })).status, 401);

      const osmand = await startOsmand(telemetryFor(t.db, t.app.config.telemetry), {
        host: '127.0.0.1',
        port: 0,
        log: t.app.log,
        requests: t.app.deviceLog.osmand,
      });
      try {
        const ts = Math.floor(Date.now() / 1000) - 60;
        assert.equal(
          (await fetch(`${osmand.url}/?id=${v.device.identifier}&lat=39.8&lon=-89.3&timestamp=${ts}`)).status,
          200,
        );
        assert.equal(
          (await fetch(`${osmand.url}/?id=NO-SUCH-${uniq()}&lat=39.8&lon=-89.3&timestamp=${ts}`)).status,
          404,
        );
      } finally {
        await osmand.close();
      }
      // Written by the timer, once a second.
      await waitFor('the summary line', () => total(lines()).batches === 5);
      const line = summaries(lines())[0];
      assert.equal(line.level, 30);
      assert.match(
        line.msg,
        /^device traffic in the last \d+ s: \d+ batch(es)? \(\d+ refused\), \d+ records? \(\d+ accepted, \d+ duplicates, \d+ rejected\)$/,
      );
      assert.deepEqual(total(lines()), { batches: 5, refused: 2, records: 7, accepted: 3, duplicates: 2, rejected: 2 });
      // No traffic, no line.
      const written = summaries(lines()).length;
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(summaries(lines()).length, written);
      assert.equal(
        lines().some((l) => l.listener === 'osmand'),
        false,
        'OsmAnd requests are not logged at info',
      );
    }));

  test('OsmAnd requests at debug: path without the query (it carries the device identifier)', () =>
    logged(dialect, { LOG_LEVEL: 'debug', SLOW_REQUEST_MS: 'off' }, async (t, lines) => {
      const v = await rig(t);
      const osmand = await startOsmand(telemetryFor(t.db, t.app.config.telemetry), {
        host: '127.0.0.1',
        port: 0,
        log: t.app.log,
        requests: t.app.deviceLog.osmand,
      });
      try {
        const ts = Math.floor(Date.now() / 1000) - 60;
        assert.equal(
          (await fetch(`${osmand.url}/gps?id=${v.device.identifier}&lat=39.8&lon=-89.3&timestamp=${ts}`)).status,
          200,
        );
      } finally {
        await osmand.close();
      }
      const mine = lines().filter((l) => l.listener === 'osmand');
      assert.deepEqual(
        mine.map((l) => [l.level, l.method, l.url, l.status_code]),
        [[20, 'GET', '/gps', 200]],
      );
      assert.equal(JSON.stringify(lines()).includes(v.device.identifier), false);
    }));

  test('the live stream: one debug line, never a slow request, counted but not timed in the metrics', () =>
    logged(dialect, { LOG_LEVEL: 'debug', SLOW_REQUEST_MS: '0', ...METRICS_ENV }, async (t, lines) => {
      const isSlowStream = (l: Line) => l.msg === 'slow request' && l.route === '/console/api/stream';
      // Refused (not signed in): answered at once, on the stream's route.
      const refused = await t.app.inject({ url: '/console/api/stream' });
      assert.equal(refused.statusCode, 401);
      assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
      assert.deepEqual(
        of(lines(), refused.headers['x-request-id']).map((l) => [l.level, l.status_code]),
        [[20, 401]],
      );
      const m = await scrape(t.app);
      assert.equal(
        m.samples.get('fleet_http_requests_total{method="GET",route="/console/api/stream",status_code="401"}'),
        1,
      );
      assert.equal(
        m.samples.get(
          'fleet_http_request_duration_seconds_count{method="GET",route="/console/api/stream",status_class="4xx"}',
        ) ?? 0,
        0,
      );
      assert.ok(
        m.lines('fleet_http_request_duration_seconds_count').some((l) => l.includes('route="/healthz"')),
        'other requests are timed',
      );

      // Open until the server ends it (here: at shutdown; else after 5 minutes). A stream the browser
      // closes first gets no line: Fastify sees no answer finish.
      const email = `admin.${uniq()}@fleet.test`;
      await createUser(
        t.db,
        { companyId: t.company.id },
        { role: 'admin', email, password: PASSWORD, first_name: 'Pat', last_name: 'Admin' },
      );
      // consoleBrowser signs in through the app's pages; of the OAuth test app it uses only the app.
      const { b } = await consoleBrowser({ app: t.app } as OAuthTestApp, email);
      const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const res = await fetch(`${address}/console/api/stream`, { headers: { cookie } });
      assert.equal(res.status, 200);
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('event: vehicles')) text += new TextDecoder().decode((await reader.read()).value);
      await new Promise((r) => setTimeout(r, 50));
      await t.close();
      await reader.cancel().catch(() => {});

      // The stream writes its own headers (no X-Request-Id): its line is the one with status 200.
      const mine = lines().filter((l) => l.url === '/console/api/stream' && l.status_code === 200);
      assert.deepEqual(
        mine.map((l) => [l.level, l.msg]),
        [[20, `GET /console/api/stream 200 ${mine[0]?.duration_ms} ms`]],
      );
      assert.ok(mine[0].duration_ms >= 50, String(mine[0].duration_ms));
      assert.ok(
        lines().some((l) => l.msg === 'slow request' && l.route === '/console'),
        'SLOW_REQUEST_MS=0 logs other requests as slow',
      );
      assert.equal(lines().some(isSlowStream), false);
    }));
});

const ANSI = /\x1b\[\d+m/g;

test('on a terminal (LOG_FORMAT unset) lines are pretty, in local time; LOG_FORMAT overrides', async () => {
  const tz = process.env.TZ;
  // Five and a half hours east of UTC, so that local time cannot pass for UTC.
  process.env.TZ = 'Asia/Kolkata';
  try {
    const raw: string[] = [];
    const t = await makeApp(
      'sqlite',
      { LOG_LEVEL: 'info', SLOW_REQUEST_MS: 'off' },
      { logStream: { write: (l) => void raw.push(l), isTTY: true } },
    );
    try {
      const before = new Date();
      const res = await t.call({ url: '/healthz', headers: { 'x-request-id': 'pretty-1' } });
      const after = new Date();
      assert.equal(res.status, 200);
      const line = raw.map((l) => l.replace(ANSI, '')).find((l) => l.includes('pretty-1'));
      assert.ok(line, raw.join(''));
      const m = /^\[(\d\d):(\d\d):(\d\d)\.(\d{3})\] INFO: GET \/healthz 200 [\d.]+ ms \{"reqId":"pretty-1"\}\n$/.exec(
        line,
      );
      assert.ok(m, line);
      const shown = `${m[1]}:${m[2]}`;
      const local = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
      assert.ok([local(before), local(after)].includes(shown), `${shown} is the local time (${local(before)})`);
    } finally {
      await t.close();
    }
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }

  const json: string[] = [];
  const j = await makeApp(
    'sqlite',
    { LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    { logStream: { write: (l) => void json.push(l), isTTY: true } },
  );
  await j.call({ url: '/healthz', headers: { 'x-request-id': 'json-1' } });
  await j.close();
  assert.equal(JSON.parse(json.find((l) => l.includes('json-1'))!).msg.startsWith('GET /healthz 200 '), true);

  const pretty: string[] = [];
  const p = await makeApp(
    'sqlite',
    { LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' },
    { logStream: { write: (l) => void pretty.push(l) } },
  );
  await p.call({ url: '/healthz', headers: { 'x-request-id': 'pretty-2' } });
  await p.close();
  assert.match(
    pretty.find((l) => l.includes('pretty-2'))!.replace(ANSI, ''),
    /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/healthz 200 /,
  );

  assert.throws(
    () => loadConfig({ LOG_FORMAT: 'xml' }),
    (e: Error) => e instanceof ConfigError && e.message === 'LOG_FORMAT must be one of auto, pretty, json, got "xml"',
  );
});
