/**
 * The deployment files in deploy/ (docs/operations.md, Deployment) as an operator would use them:
 * systemd accepts the unit without a complaint, and nginx with deploy/nginx.conf (a self-signed
 * certificate and free ports in place of the real ones) serves the API over TLS, keeps the client's
 * address as the server sees it (TRUST_PROXY=loopback), and lets no client claim another address.
 * .ci/run installs nginx; systemd-analyze comes with the machine.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { serve, type RunningServer } from '../../src/server.js';
import { TEST_ENV } from '../test-env.js';

const DEPLOY = new URL('../../deploy/', import.meta.url);

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}

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
  let dir: string;
  let server: RunningServer;
  let nginx: ChildProcess | null = null;
  let httpsPort: number;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fleet-nginx-'));
    const ssl = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=fleet.example.com',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(ssl.status, 0, ssl.stderr);
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
    httpsPort = await freePort();
    const site = readFileSync(new URL('nginx.conf', DEPLOY), 'utf8')
      .replace('server 127.0.0.1:3000;', `server ${new URL(server.url).host};`)
      .replace(/listen \[::\]:\d+[^;]*;\n/g, '')
      .replace('listen 80;', `listen 127.0.0.1:${await freePort()};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
      .replace(/\/etc\/letsencrypt\/live\/fleet\.example\.com\/fullchain\.pem/, join(dir, 'cert.pem'))
      .replace(/\/etc\/letsencrypt\/live\/fleet\.example\.com\/privkey\.pem/, join(dir, 'key.pem'));
    assert.ok(!site.includes('letsencrypt') && !site.includes(':3000'), site);
    writeFileSync(join(dir, 'site.conf'), site);
    // The minimal main configuration around the site, as /etc/nginx/nginx.conf would be.
    writeFileSync(
      join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n` +
        ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};\n`).join('') +
        `  include ${dir}/site.conf;\n}\n`,
    );
    const check = spawnSync('nginx', ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
    assert.equal(check.error, undefined, 'nginx is not installed (.ci/run installs it)');
    assert.equal(check.status, 0, check.stderr);
    nginx = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (
        await get(httpsPort, '/healthz').then(
          () => true,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  after(async () => {
    if (nginx?.pid) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
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
});
