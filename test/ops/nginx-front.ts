/**
 * deploy/nginx.conf run as an operator would run it, on free ports of 127.0.0.1 in front of a server:
 * the certificate paths point at a self-signed certificate made here (or, with `tls: false`, the TLS
 * listener becomes a plain HTTP one, as the overload benchmark uses it), the upstream is the server's
 * address, and a minimal main configuration with Debian's defaults stands in for /etc/nginx/nginx.conf. Used by
 * test/ops/deploy.test.ts and bench/scenarios/_overload-run.ts. .ci/run installs nginx.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SITE = new URL('../../deploy/nginx.conf', import.meta.url);
const TEMP = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}

export interface NginxFront {
  /** The port of the API's listener: HTTPS, or plain HTTP with `tls: false`. */
  port: number;
  stop(): Promise<void>;
}

function selfSignedCertificate(dir: string): void {
  const ssl = spawnSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=fleet.example.com'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    ],
    { encoding: 'utf8' },
  );
  assert.equal(ssl.status, 0, ssl.stderr);
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/** nginx with deploy/nginx.conf in front of the server at `upstream` (host:port), started and listening. */
export async function startNginxFront(upstream: string, opts: { tls: boolean }): Promise<NginxFront> {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-nginx-'));
  const port = await freePort();
  let site = readFileSync(SITE, 'utf8')
    .replace(/server 127\.0\.0\.1:3000\b/, `server ${upstream}`)
    .replace(/listen \[::\]:\d+[^;]*;\n/g, '')
    .replace('listen 80;', `listen 127.0.0.1:${await freePort()};`);
  if (opts.tls) {
    selfSignedCertificate(dir);
    site = site
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${port} ssl http2;`)
      .replace(/\/etc\/letsencrypt\/live\/fleet\.example\.com\/fullchain\.pem/, join(dir, 'cert.pem'))
      .replace(/\/etc\/letsencrypt\/live\/fleet\.example\.com\/privkey\.pem/, join(dir, 'key.pem'));
  } else {
    site = site.replace('listen 443 ssl http2;', `listen 127.0.0.1:${port};`).replace(/^\s*ssl_\w+ [^;]*;\n/gm, '');
  }
  assert.ok(!site.includes('letsencrypt') && !site.includes(':3000'), site);
  writeFileSync(join(dir, 'site.conf'), site);
  // Run as root, nginx's workers drop to `nobody`: they must be able to write request bodies larger than
  // their buffer (a device batch) to the temporary folders.
  chmodSync(dir, 0o755);
  for (const t of TEMP) mkdirSync(join(dir, t), { mode: 0o777 });
  for (const t of TEMP) chmodSync(join(dir, t), 0o777);
  writeFileSync(
    join(dir, 'nginx.conf'),
    // Debian's defaults: a worker per core, 768 connections each.
    `worker_processes auto;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents { worker_connections 768; }\n` +
      `http {\n  access_log off;\n` +
      TEMP.map((t) => `  ${t}_temp_path ${dir}/${t};\n`).join('') +
      `  include ${dir}/site.conf;\n}\n`,
  );
  const check = spawnSync('nginx', ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
  assert.equal(check.error, undefined, 'nginx is not installed (.ci/run installs it)');
  assert.equal(check.status, 0, check.stderr);
  const nginx = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => nginx.once('exit', resolve));
  for (let i = 0; i < 100 && !(await listening(port)); i++) await new Promise((r) => setTimeout(r, 50));
  return {
    port,
    async stop() {
      if (nginx.exitCode === null) {
        nginx.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
