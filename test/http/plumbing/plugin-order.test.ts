/**
 * The app's plugins declare what they need (src/plugins.ts): registered before a plugin it needs, one
 * fails the start naming both, and the order buildApp uses satisfies every declaration.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { appPlugins } from '../../../src/plugins.js';

type Meta = { name: string; dependencies: string[] };
const meta = (p: (typeof appPlugins)[number]) => (p as unknown as Record<symbol, Meta>)[Symbol.for('plugin-meta')];
const named = (name: string) => appPlugins.find((p) => meta(p).name === name)!;

describe('plugin order', () => {
  it('a plugin registered before one it needs fails the start, naming both', async () => {
    const app = Fastify();
    // Its options are never read: the check runs before the plugin does.
    app.register(named('auth'), {} as never);
    await assert.rejects(
      async () => void (await app.ready()),
      (err: Error) => {
        assert.match(err.message, /The dependency 'load-shedding' of plugin 'auth' is not registered/);
        return true;
      },
    );
    await app.close();
  });

  it('the order buildApp registers them in meets every declared dependency', () => {
    const seen = new Set<string>();
    for (const p of appPlugins) {
      const { name, dependencies } = meta(p);
      for (const d of dependencies) assert.ok(seen.has(d), `${name} needs ${d}, registered after it`);
      seen.add(name);
    }
    assert.equal(seen.size, appPlugins.length);
    assert.ok(seen.has('error-handler') && seen.has('workers'));
  });
});
