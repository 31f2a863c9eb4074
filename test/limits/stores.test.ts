/**
 * The limits store contract, on the memory store (a clock the test moves) and on the real Redis (real
 * time, short windows, a key prefix of this run): fixed windows and their boundaries, what a client is
 * told to wait, per-key isolation, and concurrency slots with their leases.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryStore } from '../../src/limits/memory-store.js';
import { RedisStore, limitsRedisClient } from '../../src/limits/redis-store.js';
import { retryAfterS, type LimitStore } from '../../src/limits/store.js';
import { SHARED_REDIS_URL, dropPrefix, uniquePrefix } from './redis.js';

interface Subject {
  store: LimitStore;
  /** Lets `ms` of the store's time pass. */
  pass(ms: number): Promise<void>;
  /** Slack allowed on a reported remaining time (Redis runs on real time). */
  slackMs: number;
}

const WINDOW_MS = 400;

function contract(name: string, make: () => Promise<Subject>) {
  describe(`limits store contract: ${name}`, () => {
    test('a window counts from its first event and ends windowMs later; the next event starts a new one', async () => {
      const { store, pass, slackMs } = await make();
      const first = await store.hit('w', WINDOW_MS);
      assert.equal(first.count, 1);
      assert.ok(first.resetInMs <= WINDOW_MS && first.resetInMs >= WINDOW_MS - slackMs, `resetInMs ${first.resetInMs}`);
      assert.equal((await store.hit('w', WINDOW_MS)).count, 2);
      await pass(WINDOW_MS / 2);
      const third = await store.hit('w', WINDOW_MS);
      assert.equal(third.count, 3);
      assert.ok(
        third.resetInMs <= WINDOW_MS / 2 && third.resetInMs >= WINDOW_MS / 2 - slackMs,
        `the window did not restart: ${third.resetInMs}`,
      );
      assert.equal((await store.peek('w')).count, 3);
      await pass(WINDOW_MS / 2 + slackMs);
      assert.deepEqual(await store.peek('w'), { count: 0, resetInMs: 0 }, 'the window has ended');
      const fresh = await store.hit('w', WINDOW_MS);
      assert.equal(fresh.count, 1, 'a new window');
      assert.ok(fresh.resetInMs >= WINDOW_MS - slackMs);
    });

    test('peek does not count, clear forgets, and keys are independent', async () => {
      const { store } = await make();
      assert.deepEqual(await store.peek('a'), { count: 0, resetInMs: 0 });
      await store.hit('a', 60_000);
      await store.hit('a', 60_000);
      await store.hit('b', 60_000);
      assert.equal((await store.peek('a')).count, 2);
      assert.equal((await store.peek('a')).count, 2, 'peeking twice counts nothing');
      assert.equal((await store.peek('b')).count, 1);
      await store.clear('a');
      assert.deepEqual(await store.peek('a'), { count: 0, resetInMs: 0 });
      assert.equal((await store.peek('b')).count, 1, 'clearing a leaves b alone');
      assert.equal((await store.hit('a', 60_000)).count, 1);
    });

    test('slots: max taken, then none; a release frees one; releasing twice frees one; keys are independent', async () => {
      const { store } = await make();
      const slots = [];
      for (let i = 0; i < 3; i++) {
        const s = await store.acquire('c', 3, 60_000);
        assert.ok(s, `slot ${i + 1} of 3`);
        slots.push(s);
      }
      assert.equal(await store.acquire('c', 3, 60_000), null, 'the 4th is refused');
      assert.equal(await store.taken('c'), 3);
      assert.ok(await store.acquire('other', 3, 60_000), 'another key has its own slots');
      await slots[0].release();
      await slots[0].release();
      assert.equal(await store.taken('c'), 2, 'a double release frees one slot only');
      const again = await store.acquire('c', 3, 60_000);
      assert.ok(again);
      assert.equal(await store.acquire('c', 3, 60_000), null);
      for (const s of [again, slots[1], slots[2]]) await s.release();
      assert.equal(await store.taken('c'), 0);
    });

    test('a slot that is never released is freed when its lease ends (a crashed holder)', async () => {
      const { store, pass, slackMs } = await make();
      assert.ok(await store.acquire('lease', 1, WINDOW_MS));
      assert.equal(await store.acquire('lease', 1, WINDOW_MS), null);
      await pass(WINDOW_MS + slackMs);
      assert.equal(await store.taken('lease'), 0);
      assert.ok(await store.acquire('lease', 1, WINDOW_MS), 'the leaked slot is free again');
    });
  });
}

contract('memory', async () => {
  let now = 1_000_000;
  return { store: new MemoryStore(() => now), pass: async (ms) => void (now += ms), slackMs: 0 };
});

if (SHARED_REDIS_URL) {
  const prefix = uniquePrefix('stores');
  const client = limitsRedisClient(SHARED_REDIS_URL, { commandTimeoutMs: 1000 });
  after(async () => {
    client.disconnect();
    await dropPrefix(SHARED_REDIS_URL, prefix);
  });
  let run = 0;
  contract('redis', async () => {
    if (client.status === 'wait') await client.connect();
    return { store: new RedisStore(client, `${prefix}${++run}:`), pass: (ms) => sleep(ms), slackMs: 60 };
  });
}

describe('limits store: memory specifics', () => {
  test('the memory store holds at most maxKeys windows, dropping ended ones and then the oldest', async () => {
    let now = 0;
    const store = new MemoryStore(() => now, 3);
    await store.hit('old', 100);
    await store.hit('a', 10_000);
    await store.hit('b', 10_000);
    now = 200;
    await store.hit('c', 10_000);
    assert.equal((await store.peek('a')).count, 1, 'the ended window made room');
    await store.hit('d', 10_000);
    assert.equal((await store.peek('a')).count, 0, 'past the bound the oldest window goes');
    for (const k of ['b', 'c', 'd']) assert.equal((await store.peek(k)).count, 1, k);
  });

  test('Retry-After is the remaining window in whole seconds, rounded up, at least 1', () => {
    assert.equal(retryAfterS(60_000), 60);
    assert.equal(retryAfterS(59_001), 60);
    assert.equal(retryAfterS(59_000), 59);
    assert.equal(retryAfterS(1), 1);
    assert.equal(retryAfterS(0), 1);
  });
});
