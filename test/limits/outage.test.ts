/**
 * A Redis outage degrades the limits to this node's memory: no request fails or hangs, limits still
 * hold (per node), one warning is logged per outage, and Redis is used again once it answers. Private
 * redis-server processes are started, killed (SIGKILL), frozen (SIGSTOP) and started again. The
 * database plays no part here, so only SQLite runs.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { FailoverStore, PROBE_INTERVAL_MS } from '../../src/limits/failover-store.js';
import { MemoryStore } from '../../src/limits/memory-store.js';
import { RedisStore, limitsRedisClient } from '../../src/limits/redis-store.js';
import { makeApp } from '../helper.js';
import { PrivateRedis, SHARED_REDIS_URL, keysUnder } from './redis.js';

const COMMAND_TIMEOUT_MS = 250;

/** A log that records what it is told. */
function recordingLog() {
  const lines: Array<{ level: 'warn' | 'info'; msg: string }> = [];
  return {
    lines,
    warnings: () => lines.filter((l) => l.level === 'warn').map((l) => l.msg),
    infos: () => lines.filter((l) => l.level === 'info').map((l) => l.msg),
    warn: (_obj: object, msg: string) => void lines.push({ level: 'warn', msg }),
    info: (_obj: object, msg: string) => void lines.push({ level: 'info', msg }),
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Runs `op` and checks it took less than `ms`. */
async function quick<T>(op: () => Promise<T>, ms: number): Promise<T> {
  const started = Date.now();
  const result = await op();
  assert.ok(Date.now() - started < ms, `took ${Date.now() - started} ms`);
  return result;
}

const WARNING =
  /^Redis is unavailable \(.+\): rate limits and concurrency slots are counted per node, in memory, until it answers again$/;
const BACK = 'Redis answers again: rate limits and concurrency slots are shared through Redis again';

// A private redis-server per test: run where Redis is installed (TEST_REDIS_URL set, as in CI).
if (SHARED_REDIS_URL) {
  describe('limits store during a Redis outage', () => {
    const servers: PrivateRedis[] = [];
    const stores: FailoverStore[] = [];
    after(async () => {
      for (const s of stores) await s.close();
      for (const r of servers) await r.stop();
    });

    async function setUp() {
      const redis = await PrivateRedis.start();
      servers.push(redis);
      const log = recordingLog();
      const memory = new MemoryStore();
      const store = new FailoverStore(
        new RedisStore(limitsRedisClient(redis.url, { commandTimeoutMs: COMMAND_TIMEOUT_MS }), 'p:'),
        memory,
        log,
      );
      stores.push(store);
      return { redis, log, memory, store };
    }

    test('Redis down at start: the store starts in memory with one warning, and moves to Redis when it comes up', async () => {
      const { redis, log, memory, store } = await setUp();
      await redis.stop();
      await store.connect();
      assert.equal(store.backend, 'memory');
      for (let i = 1; i <= 3; i++) assert.equal((await quick(() => store.hit('k', 60_000), 100)).count, i);
      assert.equal((await memory.peek('k')).count, 3, 'counted in memory');
      await sleep(500);
      assert.equal(log.warnings().length, 1, `one warning, not one per attempt: ${JSON.stringify(log.lines)}`);
      assert.match(log.warnings()[0], WARNING);
      await redis.start();
      await until('Redis in use again', () => store.backend === 'redis');
      assert.deepEqual(log.infos(), [BACK]);
      assert.equal((await store.hit('k', 60_000)).count, 1, 'Redis counts from its own state');
      assert.deepEqual(await keysUnder(redis.url, 'p:'), ['p:w:k']);
    });

    test('Redis killed mid-run: operations carry on in memory, slots too; one warning; back to Redis after a restart', async () => {
      const { redis, log, memory, store } = await setUp();
      await store.connect();
      assert.equal((await store.hit('k', 60_000)).count, 1);
      const redisSlot = await store.acquire('c', 2, 60_000);
      assert.ok(redisSlot);
      assert.deepEqual(await keysUnder(redis.url, 'p:'), ['p:s:c', 'p:w:k']);
      await redis.stop();
      for (let i = 1; i <= 5; i++)
        assert.equal((await quick(() => store.hit('k', 60_000), 500)).count, i, 'the memory count starts afresh');
      await quick(() => redisSlot.release(), 500);
      const a = await store.acquire('c', 2, 60_000);
      const b = await store.acquire('c', 2, 60_000);
      assert.ok(a && b);
      assert.equal(await store.acquire('c', 2, 60_000), null, 'the concurrency limit holds in memory');
      assert.equal(await memory.taken('c'), 2);
      await a.release();
      await b.release();
      assert.equal(log.warnings().length, 1, JSON.stringify(log.lines));
      await redis.start();
      await until('Redis in use again', () => store.backend === 'redis');
      assert.equal((await store.hit('k', 60_000)).count, 1);
      assert.equal(log.warnings().length, 1);
      assert.deepEqual(log.infos(), [BACK]);
    });

    test('Redis frozen: a command gives up after its timeout, the rest go to memory at once, Redis is tried again each second', async () => {
      const { redis, log, memory, store } = await setUp();
      await store.connect();
      await store.hit('k', 60_000);
      redis.pause();
      try {
        assert.equal(
          (await quick(() => store.hit('k', 60_000), COMMAND_TIMEOUT_MS + 400)).count,
          1,
          'answered from memory after the timeout',
        );
        for (let i = 2; i <= 5; i++)
          assert.equal((await quick(() => store.hit('k', 60_000), 50)).count, i, 'no wait while degraded');
        assert.equal(log.warnings().length, 1);
        assert.match(log.warnings()[0], /Command timed out/);
      } finally {
        redis.resume();
      }
      await sleep(PROBE_INTERVAL_MS);
      await until('Redis in use again', async () => {
        await store.hit('k', 60_000);
        return log.infos().length === 1;
      });
      assert.equal(store.backend, 'redis');
      assert.equal(log.warnings().length, 1);
      assert.ok((await memory.peek('k')).count >= 5);
    });
  });

  describe('the app during a Redis outage', () => {
    test('requests never fail or hang, limits hold in memory with one warning, and Redis is used again once back', async () => {
      const redis = await PrivateRedis.start();
      const t = await makeApp('sqlite', {
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: 'o:',
        RATE_LIMIT_REQUESTS_PER_CREDENTIAL: '5',
      });
      const log = recordingLog();
      t.app.log.warn = log.warn as never;
      t.app.log.info = log.info as never;
      try {
        const get = (as = t.company, url = '/v1/vehicles') => quick(() => t.call({ method: 'GET', url, as }), 1000);
        assert.equal((await get()).status, 200);
        assert.equal((await keysUnder(redis.url, 'o:w:')).length, 1, 'counted in Redis');

        await redis.stop();
        const during = await t.newCompany('During');
        for (let i = 0; i < 5; i++) assert.equal((await get(during)).status, 200);
        const refused = await get(during);
        assert.equal(refused.status, 429, 'the limit holds in memory');
        assert.equal(refused.headers['retry-after'], '60');
        assert.deepEqual(refused.body, {
          error_message:
            'Too many requests for this credential: the limit is 5 requests per 60 seconds. Try again in 60 seconds.',
        });
        assert.equal(
          (await get(during, '/v1/vehicle_locations/1?date=2024-05-01')).status,
          429,
          'the same credential, another route',
        );
        const history = await get(t.company, '/v1/vehicle_locations/999?date=2024-05-01');
        assert.equal(history.status, 404, 'the concurrency limit takes its slot in memory');
        assert.equal(log.warnings().length, 1, JSON.stringify(log.lines));
        assert.match(log.warnings()[0], WARNING);

        await redis.start();
        await until('Redis in use again', () => log.infos().includes(BACK));
        const after = await t.newCompany('After');
        for (let i = 0; i < 5; i++) assert.equal((await get(after)).status, 200);
        assert.equal((await get(after)).status, 429);
        assert.equal((await keysUnder(redis.url, 'o:w:')).length, 1, "the new key's count is in Redis");
        assert.equal(log.warnings().length, 1);
      } finally {
        await t.close();
        await redis.stop();
      }
    });
  });
}
