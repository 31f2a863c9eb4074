/**
 * The server's Node flags (src/config/node-flags.ts) are on every command line that starts a server:
 * the installed `fleet` binary's first line and the package scripts. The binary is also run through
 * that first line, as an installed package runs it, not through `node bin/fleet.js`.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../src/config/node-flags.js';
import { MIGRATIONS } from '../../src/storage/migrate.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TMP = mkdtempSync(join(tmpdir(), 'fleet-flags-'));
after(() => rmSync(TMP, { recursive: true, force: true }));

const FLAGS = SERVER_NODE_FLAGS.join(' ');

describe('server Node flags', () => {
  it('sizes the young generation at 32 MiB and turns allocation-site pretenuring off', () => {
    assert.deepEqual(SERVER_NODE_FLAGS, ['--max-semi-space-size=32', '--no-allocation-site-pretenuring']);
  });

  it('are on the first line of bin/fleet.js and in the start and fleet scripts', () => {
    const [first] = readFileSync(join(ROOT, 'bin/fleet.js'), 'utf8').split('\n');
    assert.equal(first, `#!/usr/bin/env -S node ${FLAGS}`);
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.equal(scripts.start, `node ${FLAGS} bin/fleet.js --build-if-stale serve --demo`);
    assert.equal(scripts.fleet, `node ${FLAGS} bin/fleet.js --build-if-stale`);
  });

  it('bin/fleet.js runs through its first line', async () => {
    const child = spawn(join(ROOT, 'bin/fleet.js'), ['migrate', '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `sqlite:${join(TMP, 'flags.db')}`, LOG_LEVEL: 'silent' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error('bin/fleet.js timed out'))), 30_000);
      child.on('close', (c) => (clearTimeout(timer), resolve(c)));
    });
    assert.equal(code, 0, err);
    assert.deepEqual(JSON.parse(out), { applied: MIGRATIONS.map(([name]) => name) });
  });
});
