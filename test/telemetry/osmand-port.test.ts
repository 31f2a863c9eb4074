/**
 * OSMAND_PORT through serve(): the listener runs beside the API; a port that cannot be bound stops the
 * server from starting, with a message naming OSMAND_PORT, instead of serving without it.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { TEST_ENV } from '../test-env.js';
import { serve } from '../../src/server.js';

const config = (osmandPort: number) =>
  loadConfig({
    ...TEST_ENV,
    DATABASE_URL: 'sqlite::memory:',
    LOG_LEVEL: 'silent',
    PORT: '0',
    OSMAND_PORT: String(osmandPort),
    WEBHOOK_WORKER: '0',
    TELEMETRY_SWEEP_MS: '0',
  });

test('a busy OSMAND_PORT stops the server from starting, naming the setting', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    await assert.rejects(serve(config(port), { handleSignals: false, out: () => {} }), (err: Error) => {
      assert.match(
        err.message,
        new RegExp(`^OSMAND_PORT ${port}: the OsmAnd listener cannot start \\(listen EADDRINUSE`),
      );
      return true;
    });
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
});

test('a free OSMAND_PORT answers the protocol while the API serves', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  let out = '';
  const s = await serve(config(port), { handleSignals: false, out: (t) => void (out += t) });
  try {
    assert.match(
      out,
      new RegExp(`^fleet: listening on ${s.url}\nfleet: OsmAnd listener on http://127\\.0\\.0\\.1:${port}\n`),
    );
    const res = await fetch(`http://127.0.0.1:${port}/?id=NO-SUCH&lat=41&lon=-95`);
    assert.deepEqual(
      [res.status, await res.text()],
      [404, 'device NO-SUCH not found (no active device has this identifier; a revoked one needs a new device)'],
    );
    assert.equal((await fetch(`${s.url}/healthz`)).status, 200);
  } finally {
    await s.close();
  }
});

test('OSMAND_PORT: a port, on/yes/true (5055), off/no/false; anything else names what is accepted', () => {
  const port = (v: string) => loadConfig({ ...TEST_ENV, OSMAND_PORT: v }).telemetry.osmandPort;
  assert.deepEqual(['on', 'YES', 'true', ' 6000 ', '0', 'off', 'no', 'false', ''].map(port), [
    5055,
    5055,
    5055,
    6000,
    0,
    null,
    null,
    null,
    null,
  ]);
  assert.throws(() => port('maybe'), {
    message: 'OSMAND_PORT must be a port number (0 to 65535), on (port 5055) or off, got "maybe"',
  });
  assert.throws(() => port('70000'), { message: 'OSMAND_PORT must be between 0 and 65535, got 70000' });
});
