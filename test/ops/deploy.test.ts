/**
 * The deployment files in deploy/ (docs/operations.md, Deployment) as an operator would use them:
 * systemd accepts the unit without a complaint, and nginx with deploy/nginx.conf (a self-signed
 * certificate and free ports in place of the real ones) serves the API over TLS, keeps the client's
 * address as the server sees it (TRUST_PROXY=loopback), and lets no client claim another address.
 * .ci/run installs nginx; systemd-analyze comes with the machine.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { request } from 'node:https';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { serve, type RunningServer } from '../../src/server.js';
import { TEST_ENV } from '../test-env.js';
import { startNginxFront, type NginxFront } from './nginx-front.js';

const DEPLOY = new URL('../../deploy/', import.meta.url);

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host: 'fleet.example.com', ...headers }, rejectUnauthorized: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
    req.end();
  });
}

test('deploy/fleet.service: systemd-analyze verify accepts it without a warning', () => {
  const res = spawnSync('systemd-analyze', ['verify', new URL('fleet.service', DEPLOY).pathname], { encoding: 'utf8' });
  assert.equal(res.error, undefined, 'systemd-analyze is not installed');
  assert.deepEqual([res.status, res.stdout + res.stderr], [0, '']);
});

describe('deploy/nginx.conf in front of the server', () => {
  let server: RunningServer | null = null;
  let front: NginxFront | null = null;
  let httpsPort: number;

  before(async () => {
    server = await serve(
      loadConfig({
        ...TEST_ENV,
        DATABASE_URL: 'sqlite::memory:',
        LOG_LEVEL: 'silent',
        HOST: '127.0.0.1',
        PORT: '0',
        TRUST_PROXY: 'loopback',
        RATE_LIMIT_REQUESTS_PER_IP: '3',
        WEBHOOK_WORKER: '0',
        TELEMETRY_SWEEP_MS: '0',
      }),
      { handleSignals: false, out: () => {} },
    );
    front = await startNginxFront(new URL(server.url).host, { tls: true });
    httpsPort = front.port;
  });

  after(async () => {
    await front?.stop();
    await server?.close();
  });

  test('the API answers through nginx over TLS; a browser at / is led to the console', async () => {
    const health = await get(httpsPort, '/healthz');
    assert.deepEqual([health.status, JSON.parse(health.body)], [200, { status: 'ok' }]);
    const root = await get(httpsPort, '/', { accept: 'text/html' });
    assert.deepEqual([root.status, root.headers.location], [302, '/console']);
  });

  test('a client cannot claim another address: X-Forwarded-For from the client is replaced, so its per-address limit holds', async () => {
    const statuses: number[] = [];
    for (const claimed of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']) {
      statuses.push((await get(httpsPort, '/sign-in', { 'x-forwarded-for': claimed })).status);
    }
    // RATE_LIMIT_REQUESTS_PER_IP=3: the fourth sign-in page from the one real address is refused.
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });

  test('with the server unreachable (stopped, or at its connection limit), nginx answers 503 in the API error format with Retry-After', async () => {
    await server!.close();
    server = null;
    const res = await get(httpsPort, '/v1/vehicles', { 'x-api-key': 'any' });
    assert.deepEqual(
      [res.status, res.headers['retry-after'], res.headers['content-type'], JSON.parse(res.body)],
      [503, '1', 'application/json', { error_message: 'server is overloaded or unreachable; retry in 1 s' }],
    );
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });
});
