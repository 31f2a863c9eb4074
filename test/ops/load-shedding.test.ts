/**
 * Load shedding at the boundary: a lagging event loop and a full in-flight ceiling answer a normal
 * request 503 at once, with Retry-After and the wire error body; the probes and /metrics still answer;
 * /metrics counts what was shed; once the pressure is gone requests are served again.
 */
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { eachDialect, makeApp, type TestApp } from '../helper.js';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { METRICS_ENV, scrape } from './scrape.js';
import { UPLOAD_GRACE_MS } from '../../src/ops/in-flight.js';

const OVERLOADED = '{"error_message":"server is overloaded; retry in 1 s"}';

async function withApp(dialect: 'sqlite' | 'postgres', env: Record<string, string>, fn: (t: TestApp) => Promise<void>) {
  const t = await makeApp(dialect, { ...METRICS_ENV, ...env });
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

/** Calls `fn` until `ok` holds, at most for `ms`; returns the value that did. */
async function until<T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<{ value: T }> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (ok(value)) return { value };
    if (Date.now() > deadline) assert.fail(`${what}: not within ${ms} ms (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Blocks the event loop synchronously for `blockMs`, then lets it run for 15 ms, until stopped. The gap
 * lets the sampler's 10 ms timer fire between blocks: with a 1 ms gap most samples held no measurement
 * at all (the sampler reports those as Infinity and the last real sample stands), and on a loaded host
 * the first real one could take longer than the test waited.
 */
function lagEventLoop(blockMs: number): () => void {
  let stopped = false;
  const block = () => {
    if (stopped) return;
    const end = performance.now() + blockMs;
    while (performance.now() < end);
    setTimeout(block, 15);
  };
  setTimeout(block, 15);
  return () => void (stopped = true);
}

test('LOAD_SHED_* are whole numbers within their ranges, each named when invalid; the defaults', () => {
  assert.deepEqual(loadConfig({}).shedding, {
    eventLoopDelayMs: 200,
    sampleIntervalMs: 100,
    maxInFlightRequests: 64,
    retryAfterS: 1,
    acceptPerTurn: 32,
  });
  const cases: Array<[string, string, RegExp]> = [
    ['LOAD_SHED_EVENT_LOOP_DELAY_MS', '1.5', /^LOAD_SHED_EVENT_LOOP_DELAY_MS must be a whole number, got "1.5"$/],
    [
      'LOAD_SHED_EVENT_LOOP_DELAY_MS',
      '60001',
      /^LOAD_SHED_EVENT_LOOP_DELAY_MS must be between 0 and 60000, got 60001$/,
    ],
    ['LOAD_SHED_SAMPLE_INTERVAL_MS', '5', /^LOAD_SHED_SAMPLE_INTERVAL_MS must be between 10 and 10000, got 5$/],
    ['LOAD_SHED_MAX_IN_FLIGHT_REQUESTS', '-1', /^LOAD_SHED_MAX_IN_FLIGHT_REQUESTS must be a whole number, got "-1"$/],
    ['LOAD_SHED_RETRY_AFTER_S', '0', /^LOAD_SHED_RETRY_AFTER_S must be between 1 and 3600, got 0$/],
    ['ACCEPT_PER_TURN', '0', /^ACCEPT_PER_TURN must be between 1 and 256, got 0$/],
    ['ACCEPT_PER_TURN', '257', /^ACCEPT_PER_TURN must be between 1 and 256, got 257$/],
  ];
  for (const [name, value, message] of cases) {
    assert.throws(
      () => loadConfig({ [name]: value }),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
      name,
    );
  }
  assert.deepEqual(
    loadConfig({
      LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
      LOAD_SHED_SAMPLE_INTERVAL_MS: '10',
      LOAD_SHED_MAX_IN_FLIGHT_REQUESTS: '0',
      LOAD_SHED_RETRY_AFTER_S: '30',
      ACCEPT_PER_TURN: '1',
    }).shedding,
    { eventLoopDelayMs: 0, sampleIntervalMs: 10, maxInFlightRequests: 0, retryAfterS: 30, acceptPerTurn: 1 },
  );
});

/** A request whose headers are sent and whose body is not (yet). */
function pendingUpload(
  url: string,
  apiKey: string,
  body: string,
): { req: ClientRequest; answer: Promise<{ status: number; body: string }> } {
  const req = request(`${url}/v1/vehicles`, {
    method: 'POST',
    headers: {
      'x-api-key': apiKey,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    },
  });
  req.flushHeaders();
  req.write(body.slice(0, 5));
  return { req, answer: answerOf(req) };
}

function answerOf(req: ClientRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
  });
}

/**
 * Takes every database connection the app has (SQLite: its one; PostgreSQL: its pool of 4) until the
 * returned function is called: requests that reach the database wait meanwhile.
 */
async function holdDatabase(t: TestApp): Promise<() => Promise<void>> {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let taken = 0;
  const held = Array.from({ length: t.dialect === 'sqlite' ? 1 : 4 }, () =>
    t.db.kysely.connection().execute(async () => {
      taken++;
      await gate;
    }),
  );
  await until(
    'connections taken',
    async () => taken,
    (n) => n === held.length,
  );
  return async () => {
    open();
    await Promise.all(held);
  };
}

eachDialect('load shedding', (dialect) => {
  test('a lagging event loop: 503 overloaded with Retry-After; the probes and /metrics answer; served again once it clears', () =>
    withApp(
      dialect,
      {
        LOAD_SHED_EVENT_LOOP_DELAY_MS: '150',
        LOAD_SHED_SAMPLE_INTERVAL_MS: '50',
        LOAD_SHED_MAX_IN_FLIGHT_REQUESTS: '0',
      },
      async (t) => {
        let shed = 0;
        const list = async () => {
          const res = await t.call({ url: '/v1/vehicles' });
          if (res.status === 503) shed++;
          return res;
        };
        await until('served before the lag', list, (r) => r.status === 200);
        const stop = lagEventLoop(300);
        try {
          // Requests are served until the first sample that saw the lag; from then on they are shed.
          const { value: res } = await until('a 503 while the loop lags', list, (r) => r.status !== 200, 15_000);
          assert.equal(res.status, 503);
          assert.equal(res.raw, OVERLOADED);
          assert.equal(res.headers['retry-after'], '1');
          assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
          assert.match(String(res.headers['x-request-id']), /^req-/);
          // Still lagging: another API request is shed, the probes and the scrape are not.
          const post = await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'T-1' } });
          assert.deepEqual([post.status, post.raw], [503, OVERLOADED]);
          assert.deepEqual((await t.app.inject({ url: '/healthz' })).json(), { status: 'ok' });
          const ready = await t.app.inject({ url: '/readyz' });
          assert.deepEqual([ready.statusCode, ready.json()], [200, { status: 'ready' }]);
          const s = await scrape(t.app);
          assert.equal(s.status, 200);
          assert.equal(s.samples.get('fleet_load_shed_requests_total{reason="event_loop_delay"}'), shed + 1);
          assert.equal(s.samples.get('fleet_load_shed_requests_total{reason="in_flight"}'), 0);
          assert.equal(s.samples.get('fleet_load_shedding{reason="event_loop_delay"}'), 1);
          assert.ok(s.samples.get('fleet_load_shed_event_loop_delay_seconds')! > 0.15);
          assert.equal(
            s.samples.get('fleet_http_requests_total{method="GET",route="/v1/vehicles",status_code="503"}'),
            shed,
          );
          assert.equal(
            s.samples.get('fleet_http_requests_total{method="POST",route="/v1/vehicles",status_code="503"}'),
            1,
          );
        } finally {
          stop();
        }
        const { value: after } = await until('served again once the lag clears', list, (r) => r.status === 200);
        assert.deepEqual(after.body, { vehicles: [], pagination: { per_page: 25, page_no: 1, total: 0 } });
        const created = await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'T-1' } });
        assert.equal(created.status, 201, 'the shed POST created nothing');
        const { value: s } = await until(
          'the gauge back to 0',
          () => scrape(t.app),
          (x) => x.samples.get('fleet_load_shedding{reason="event_loop_delay"}') === 0,
        );
        assert.equal(s.samples.get('fleet_load_shed_requests_total{reason="event_loop_delay"}'), shed + 1);
        assert.equal(
          s.samples.get('fleet_http_requests_total{method="GET",route="/v1/vehicles",status_code="503"}'),
          shed,
        );
      },
    ));

  test('the in-flight ceiling: the request past it is shed, the probes are not counted, nor an upload past its grace; freed when a request ends or its client goes', () =>
    withApp(dialect, { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0', LOAD_SHED_MAX_IN_FLIGHT_REQUESTS: '2' }, async (t) => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const get = async (path: string, headers: Record<string, string> = t.company.headers) => {
        const res = await fetch(`${url}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
        return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after') };
      };
      assert.equal((await get('/v1/vehicles')).status, 200, 'the API key is looked up and cached');
      const upload = pendingUpload(url, t.company.apiKey, '{"number":"T-7"}');
      await until(
        'an upload counted from its headers',
        async () => t.app.loadShedding.inFlight(),
        (n) => n === 1,
      );
      await until(
        `an upload unfinished after ${UPLOAD_GRACE_MS} ms no longer counted`,
        async () => t.app.loadShedding.inFlight(),
        (n) => n === 0,
      );

      const release = await holdDatabase(t);
      const waiting = request(`${url}/v1/vehicles?per_page=10`, { headers: t.company.headers });
      const waitingAnswer = answerOf(waiting);
      waiting.end();
      const abandoned = request(`${url}/v1/vehicles?per_page=11`, { headers: t.company.headers });
      abandoned.on('error', () => {});
      abandoned.end();
      await until(
        'two requests in flight',
        async () => t.app.loadShedding.inFlight(),
        (n) => n === 2,
      );

      assert.deepEqual(await get('/v1/vehicles?per_page=12'), { status: 503, body: OVERLOADED, retryAfter: '1' });
      assert.deepEqual(await get('/healthz', {}), { status: 200, body: '{"status":"ok"}', retryAfter: null });
      let s = await scrape(t.app);
      assert.equal(s.status, 200);
      assert.equal(s.samples.get('fleet_http_requests_in_flight'), 2);
      assert.equal(s.samples.get('fleet_load_shedding{reason="in_flight"}'), 1);
      assert.equal(s.samples.get('fleet_load_shed_requests_total{reason="in_flight"}'), 1);
      assert.equal(s.samples.get('fleet_load_shed_requests_total{reason="event_loop_delay"}'), 0);

      abandoned.destroy();
      await until(
        'the abandoned request released',
        async () => t.app.loadShedding.inFlight(),
        (n) => n === 1,
      );
      await release();
      const answered = await waitingAnswer;
      assert.equal(answered.status, 200);
      upload.req.end('{"number":"T-7"}'.slice(5));
      const created = await upload.answer;
      assert.equal(created.status, 201);
      assert.equal(JSON.parse(created.body).vehicle.number, 'T-7');
      await until(
        'all released',
        async () => t.app.loadShedding.inFlight(),
        (n) => n === 0,
      );

      assert.deepEqual(await get('/readyz', {}), { status: 200, body: '{"status":"ready"}', retryAfter: null });
      const list = await get('/v1/vehicles?per_page=12');
      assert.equal(list.status, 200);
      assert.deepEqual(
        JSON.parse(list.body).vehicles.map((v: { vehicle: { number: string } }) => v.vehicle.number),
        ['T-7'],
      );
      s = await scrape(t.app);
      assert.equal(s.samples.get('fleet_http_requests_in_flight'), 0);
      assert.equal(s.samples.get('fleet_load_shedding{reason="in_flight"}'), 0);
      assert.equal(s.samples.get('fleet_load_shed_requests_total{reason="in_flight"}'), 1);
    }));

  test('requests count from their headers, so those arriving together cannot pass the ceiling; a large body counts for its size', () =>
    withApp(dialect, { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0', LOAD_SHED_MAX_IN_FLIGHT_REQUESTS: '4' }, async (t) => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      assert.equal(
        (await fetch(`${url}/v1/vehicles`, { headers: t.company.headers })).status,
        200,
        'the API key is looked up and cached',
      );
      // Five uploads whose headers arrive before any of their bodies: each counts from its headers,
      // so the fifth to arrive is refused at once, before its body is read.
      const uploads = [1, 2, 3, 4, 5].map((i) => pendingUpload(url, t.company.apiKey, `{"number":"C-${i}"}`));
      assert.deepEqual(await Promise.race(uploads.map((u) => u.answer)), { status: 503, body: OVERLOADED });
      assert.equal(t.app.loadShedding.inFlight(), 4);
      for (const [i, u] of uploads.entries()) u.req.end(`{"number":"C-${i + 1}"}`.slice(5));
      const answers = await Promise.all(uploads.map((u) => u.answer));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 201, 201, 201, 503]);
      await until(
        'all released',
        async () => t.app.loadShedding.inFlight(),
        (n) => n === 0,
      );

      // A body counts one more for every full 8 KiB of it: here ~9.9 KB (eighteen external ids), so 2.
      const id = (k: number) => `${k}`.padStart(255, '0');
      const body = JSON.stringify({
        number: 'BIG-1',
        external_ids_attributes: Array.from({ length: 18 }, (_, k) => ({
          external_id: id(k),
          integration_name: id(k),
        })),
      });
      assert.equal(1 + Math.floor(Buffer.byteLength(body) / 8192), 2);
      const send = (method: string, path: string, payload?: string) => {
        const r = request(`${url}${path}`, {
          method,
          headers: payload ? { ...t.company.headers, 'content-type': 'application/json' } : t.company.headers,
        });
        const answer = answerOf(r);
        r.end(payload);
        return answer;
      };
      const held = await holdDatabase(t);
      let big: Promise<{ status: number; body: string }>;
      let smalls: Array<Promise<{ status: number; body: string }>>;
      try {
        big = send('POST', '/v1/vehicles', body);
        await until(
          'the large body counted',
          async () => t.app.loadShedding.inFlight(),
          (n) => n === 2,
        );
        smalls = [1, 2].map((k) => send('GET', `/v1/vehicles?per_page=${k}`));
        await until(
          'two small requests counted',
          async () => t.app.loadShedding.inFlight(),
          (n) => n === 4,
        );
        const past = await fetch(`${url}/v1/vehicles?per_page=3`, { headers: t.company.headers });
        assert.deepEqual([past.status, await past.text()], [503, OVERLOADED]);
      } finally {
        await held(); // (else closing the app would wait for ever on the requests held)
      }
      assert.deepEqual(
        (await Promise.all(smalls)).map((a) => a.status),
        [200, 200],
      );
      const created = await big;
      assert.equal(created.status, 201, created.body);
      assert.equal(JSON.parse(created.body).vehicle.external_ids.length, 18);
    }));
});
