/**
 * The failed-attempt guard of sign-in and client authentication (docs/rate-limits.md, "Failed sign-ins"),
 * on the memory store (a clock the test moves) and on the real Redis (real time): the lock per account
 * and address, the per-address ceiling, the per-account ceiling that spares known addresses, the end of
 * the window; then the address key (IPv6 counts per /64) and the settings.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  FailureGuard,
  addressKey,
  failurePolicy,
  refusalMessage,
  type FailurePolicy,
} from '../../src/limits/failures.js';
import { MemoryStore } from '../../src/limits/memory-store.js';
import { RedisStore, limitsRedisClient } from '../../src/limits/redis-store.js';
import type { LimitStore } from '../../src/limits/store.js';
import { ConfigError } from '../../src/config/index.js';
import { SHARED_REDIS_URL, dropPrefix, uniquePrefix } from './redis.js';

const POLICY: FailurePolicy = { windowS: 1, perAccountIp: 3, perIp: 6, perAccount: 5, knownAddressTtlS: 60 };

interface Subject {
  store: LimitStore;
  pass(ms: number): Promise<void>;
}

async function failTimes(g: FailureGuard, n: number, account: string | undefined, ip: string) {
  for (let i = 0; i < n; i++) await g.fail(account, ip);
}

function contract(name: string, make: () => Promise<Subject>) {
  describe(`failed-attempt guard: ${name}`, () => {
    test('per account and address: refused at the limit from that address only; the window ends it', async () => {
      const { store, pass } = await make();
      const g = new FailureGuard(store, 'sign-in', POLICY);
      await failTimes(g, 2, 'owner@x.test', '10.0.0.1');
      assert.equal(await g.check('owner@x.test', '10.0.0.1'), null, 'below the limit');
      await g.fail('owner@x.test', '10.0.0.1');
      assert.deepEqual(await g.check('owner@x.test', '10.0.0.1'), { limit: 'account_ip', retryAfterS: 1 });
      assert.equal(await g.check('owner@x.test', '10.0.0.2'), null, 'the owner elsewhere is not refused');
      assert.equal(await g.check('other@x.test', '10.0.0.1'), null, 'another account from the address is not refused');
      await pass(1100);
      assert.equal(await g.check('owner@x.test', '10.0.0.1'), null, 'the window has ended');
    });

    test('per address over every account: refused at the ceiling, whatever the account', async () => {
      const { store } = await make();
      const g = new FailureGuard(store, 'sign-in', POLICY);
      for (let i = 0; i < 5; i++) await g.fail(`nobody${i}@x.test`, '10.0.1.1');
      assert.equal(await g.check('fresh@x.test', '10.0.1.1'), null);
      await g.fail(undefined, '10.0.1.1');
      assert.deepEqual(await g.check('fresh@x.test', '10.0.1.1'), { limit: 'ip', retryAfterS: 1 });
      assert.deepEqual(await g.check(undefined, '10.0.1.1'), { limit: 'ip', retryAfterS: 1 });
      assert.equal(await g.check('fresh@x.test', '10.0.1.2'), null);
    });

    test('per account over every address: past the ceiling new addresses are refused, known ones are not', async () => {
      const { store } = await make();
      const g = new FailureGuard(store, 'token', POLICY);
      await g.succeed('client-1', '10.0.2.9');
      await failTimes(g, 2, 'client-1', '10.0.2.1');
      await failTimes(g, 2, 'client-1', '10.0.2.2');
      assert.equal(await g.check('client-1', '10.0.2.3'), null, '4 failures: below the ceiling of 5');
      await g.fail('client-1', '10.0.2.3');
      assert.deepEqual(await g.check('client-1', '10.0.2.4'), { limit: 'account', retryAfterS: 1 });
      assert.equal(await g.check('client-1', '10.0.2.9'), null, 'an address that succeeded before may still try');
      assert.equal(await g.check('client-2', '10.0.2.4'), null, 'other accounts are not affected');
    });

    test('a success clears the account from that address, not the totals', async () => {
      const { store } = await make();
      const g = new FailureGuard(store, 'sign-in', POLICY);
      await failTimes(g, 3, 'a@x.test', '10.0.3.1');
      await g.succeed('a@x.test', '10.0.3.1');
      assert.equal(await g.check('a@x.test', '10.0.3.1'), null);
      await failTimes(g, 2, 'a@x.test', '10.0.3.2');
      assert.deepEqual(
        await g.check('a@x.test', '10.0.3.3'),
        { limit: 'account', retryAfterS: 1 },
        'the 3 earlier failures still count',
      );
      assert.equal(await g.check('a@x.test', '10.0.3.1'), null, 'the address that succeeded is known');
      await failTimes(g, 3, 'b@x.test', '10.0.3.1');
      assert.deepEqual(
        await g.check('c@x.test', '10.0.3.1'),
        { limit: 'ip', retryAfterS: 1 },
        'the address total was not cleared',
      );
    });
  });
}

contract('memory', async () => {
  let now = 1_000_000;
  return { store: new MemoryStore(() => now), pass: async (ms) => void (now += ms) };
});

if (SHARED_REDIS_URL) {
  const prefix = uniquePrefix('failures');
  const client = limitsRedisClient(SHARED_REDIS_URL, { commandTimeoutMs: 1000 });
  after(async () => {
    client.disconnect();
    await dropPrefix(SHARED_REDIS_URL, prefix);
  });
  let run = 0;
  contract('redis', async () => {
    if (client.status === 'wait') await client.connect();
    return { store: new RedisStore(client, `${prefix}${++run}:`), pass: (ms) => sleep(ms) };
  });
}

describe('failed-attempt guard: addresses, messages and settings', () => {
  test('an IPv4 address is its own key; an IPv6 address counts as its /64', () => {
    const cases: Array<[string, string]> = [
      ['203.0.113.7', '203.0.113.7'],
      ['::ffff:203.0.113.7', '203.0.113.7'],
      ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
      ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
      ['2001:db8::1', '2001:db8:0:0::/64'],
      ['fe80::1%eth0', 'fe80:0:0:0::/64'],
      ['::1', '0:0:0:0::/64'],
      ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
      ['unknown', 'unknown'],
    ];
    for (const [ip, key] of cases) assert.equal(addressKey(ip), key, ip);
  });

  test('addresses of one /64 share their counts', async () => {
    const g = new FailureGuard(new MemoryStore(() => 0), 'sign-in', POLICY);
    await failTimes(g, 3, 'a@x.test', '2001:db8:1:2::1');
    assert.deepEqual(await g.check('a@x.test', '2001:db8:1:2::ffff'), { limit: 'account_ip', retryAfterS: 1 });
    assert.equal(await g.check('a@x.test', '2001:db8:1:3::1'), null);
  });

  test('messages name the count that refused', () => {
    assert.equal(
      refusalMessage({ limit: 'ip', retryAfterS: 1 }, 'failed sign-ins', 'account'),
      'Too many failed sign-ins from this address. Try again in 1 second.',
    );
    assert.equal(
      refusalMessage({ limit: 'account_ip', retryAfterS: 90 }, 'failed sign-ins', 'account'),
      'Too many failed sign-ins for this account from this address. Try again in 90 seconds.',
    );
    assert.equal(
      refusalMessage({ limit: 'account', retryAfterS: 5 }, 'failed client authentications', 'client'),
      'Too many failed client authentications for this client from many addresses; only addresses that succeeded before may try now. Try again in 5 seconds.',
    );
  });

  test('settings: defaults, ranges, and a per-account ceiling below the per-address lock is refused', () => {
    const err = (m: string) => new ConfigError(m);
    assert.deepEqual(failurePolicy({}, err), {
      windowS: 900,
      perAccountIp: 10,
      perIp: 100,
      perAccount: 200,
      knownAddressTtlS: 2_592_000,
    });
    assert.throws(() => failurePolicy({ AUTH_MAX_FAILURES_PER_ACCOUNT_IP: '0' }, err), {
      message: 'AUTH_MAX_FAILURES_PER_ACCOUNT_IP must be between 1 and 1000000, got 0',
    });
    assert.throws(() => failurePolicy({ AUTH_KNOWN_ADDRESS_TTL_S: 'soon' }, err), {
      message: 'AUTH_KNOWN_ADDRESS_TTL_S must be a whole number, got "soon"',
    });
    assert.throws(() => failurePolicy({ AUTH_MAX_FAILURES_PER_ACCOUNT: '5' }, err), {
      message:
        'AUTH_MAX_FAILURES_PER_ACCOUNT (5) must be at least AUTH_MAX_FAILURES_PER_ACCOUNT_IP (10): the per-account ceiling is meant for attackers spread over many addresses',
    });
  });
});
