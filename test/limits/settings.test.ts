/** RATE_LIMIT_* and REDIS_* settings: documented defaults, 0 turns a limit off, bad values stop the server naming the variable. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/index.js';

describe('limits settings', () => {
  test('defaults', () => {
    assert.deepEqual(loadConfig({}).limits, {
      windowS: 60,
      requestsPerCredential: 30_000,
      requestsPerDevice: 1200,
      requestsPerIp: 600,
      locationHistoryConcurrent: 10,
      slotLeaseS: 60,
      redisCommandTimeoutMs: 250,
      redisKeyPrefix: 'fleet:',
    });
  });

  test('values from the environment; 0 turns a limit off', () => {
    const limits = loadConfig({
      RATE_LIMIT_WINDOW_S: '1',
      RATE_LIMIT_REQUESTS_PER_CREDENTIAL: '0',
      RATE_LIMIT_REQUESTS_PER_DEVICE: '7',
      RATE_LIMIT_REQUESTS_PER_IP: '0',
      RATE_LIMIT_LOCATION_HISTORY_CONCURRENT: '0',
      RATE_LIMIT_SLOT_LEASE_S: '5',
      REDIS_COMMAND_TIMEOUT_MS: '50',
      REDIS_KEY_PREFIX: 'prod-a:',
    }).limits;
    assert.deepEqual(limits, {
      windowS: 1,
      requestsPerCredential: 0,
      requestsPerDevice: 7,
      requestsPerIp: 0,
      locationHistoryConcurrent: 0,
      slotLeaseS: 5,
      redisCommandTimeoutMs: 50,
      redisKeyPrefix: 'prod-a:',
    });
  });

  test('bad values are refused with the variable named', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ RATE_LIMIT_WINDOW_S: '0' }, 'RATE_LIMIT_WINDOW_S must be between 1 and 86400, got 0'],
      [
        { RATE_LIMIT_REQUESTS_PER_CREDENTIAL: '1e3' },
        'RATE_LIMIT_REQUESTS_PER_CREDENTIAL must be a whole number, got "1e3"',
      ],
      [{ RATE_LIMIT_REQUESTS_PER_IP: '-1' }, 'RATE_LIMIT_REQUESTS_PER_IP must be a whole number, got "-1"'],
      [{ RATE_LIMIT_SLOT_LEASE_S: '0' }, 'RATE_LIMIT_SLOT_LEASE_S must be between 1 and 86400, got 0'],
      [{ REDIS_COMMAND_TIMEOUT_MS: '5' }, 'REDIS_COMMAND_TIMEOUT_MS must be between 10 and 60000, got 5'],
      [
        { REDIS_KEY_PREFIX: 'has space' },
        'REDIS_KEY_PREFIX must be 1 to 64 letters, digits or the characters : _ . -, got "has space"',
      ],
    ];
    for (const [env, message] of cases)
      assert.throws(
        () => loadConfig(env),
        (err: Error) => err instanceof ConfigError && err.message === message,
      );
  });
});
