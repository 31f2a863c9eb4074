/**
 * TRUST_PROXY (src/config/proxy.ts): behind a trusted proxy each client keeps its own address for the
 * per-address limits; without the setting the forwarded header is ignored, so no client can pick an
 * address by sending it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { makeApp } from '../helper.js';
import { TEST_ENV } from '../test-env.js';

const parse = (v: string) => loadConfig({ ...TEST_ENV, TRUST_PROXY: v }).trustProxy;

describe('TRUST_PROXY', () => {
  test('off by default; a hop count; a list of addresses, ranges and names', () => {
    assert.equal(loadConfig({ ...TEST_ENV }).trustProxy, false);
    assert.deepEqual(['off', 'false', 'no', ''].map(parse), [false, false, false, false]);
    assert.equal(parse('2'), 2);
    assert.deepEqual(parse('loopback'), ['loopback']);
    assert.deepEqual(parse(' 10.0.0.5, 10.1.0.0/16 ,::1, fd00::/8,uniquelocal'), [
      '10.0.0.5',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
      'uniquelocal',
    ]);
  });

  test('anything else names what is accepted; trusting everyone is not offered', () => {
    const listMessage = (raw: string) =>
      `TRUST_PROXY must be off, a number of proxies (1 to 10), or a comma-separated list of the proxies' addresses, CIDR ranges or loopback/linklocal/uniquelocal; got "${raw}"`;
    for (const raw of ['true', 'on', 'all', '10.0.0.0/33', '300.1.1.1', 'nginx', '10.0.0.1/8/1', ','])
      assert.throws(() => parse(raw), { message: listMessage(raw) }, raw);
    assert.throws(() => parse('0'), { message: 'TRUST_PROXY as a number of proxies must be from 1 to 10, got 0' });
    assert.throws(() => parse('11'), { message: 'TRUST_PROXY as a number of proxies must be from 1 to 10, got 11' });
  });

  for (const [trust, expected] of [
    ['loopback', [200, 200, 429, 200]],
    ['off', [200, 200, 429, 429]],
  ] as const) {
    test(`TRUST_PROXY=${trust}: the per-address limit counts ${trust === 'off' ? "the connection's address, whatever the header says" : 'each forwarded client apart'}`, async () => {
      const t = await makeApp('sqlite', { TRUST_PROXY: trust, RATE_LIMIT_REQUESTS_PER_IP: '2' });
      try {
        const statuses: number[] = [];
        for (const client of ['198.51.100.7', '198.51.100.7', '198.51.100.7', '198.51.100.8']) {
          const res = await t.app.inject({
            method: 'GET',
            url: '/sign-in',
            remoteAddress: '127.0.0.1',
            headers: { 'x-forwarded-for': client },
          });
          statuses.push(res.statusCode);
        }
        assert.deepEqual(statuses, expected);
      } finally {
        await t.close();
      }
    });
  }
});
