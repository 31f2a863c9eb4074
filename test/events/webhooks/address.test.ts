/**
 * Target safety (issue 9 §7): loopback, private, link-local and metadata addresses are refused when a
 * webhook is saved and again when an attempt connects (host names included), unless
 * WEBHOOK_ALLOW_PRIVATE=1; redirects are not followed; at most a few KiB of an answer are read.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isForbiddenAddress } from '../../../src/events/webhooks/address.js';
import { createSender, MAX_RESPONSE_BYTES } from '../../../src/events/webhooks/sender.js';
import { eachDialect } from '../../helper.js';
import { useHookApp, useReceiver } from './receiver.js';

describe('webhook target addresses', () => {
  it('refuses loopback, private, shared, link-local, metadata, multicast and reserved ranges; allows public ones', () => {
    const refused = [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      'ff02::1',
      'not-an-ip',
    ];
    const allowed = [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '192.169.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
    ];
    for (const ip of refused) assert.equal(isForbiddenAddress(ip), true, ip);
    for (const ip of allowed) assert.equal(isForbiddenAddress(ip), false, ip);
  });

  describe('the sender', () => {
    let server: http.Server;
    let base: string;
    let hits: string[] = [];
    let bigFinished: boolean | null = null;
    before(async () => {
      server = http.createServer((req, res) => {
        hits.push(req.url ?? '');
        req.resume();
        req.on('end', () => {
          if (req.url === '/redirect') return void res.writeHead(301, { location: '/target' }).end();
          if (req.url === '/big') {
            res.writeHead(200);
            const chunk = Buffer.alloc(64 * 1024, 120);
            // 8 MiB, unless the sender hangs up first.
            let n = 0;
            res.on('close', () => (bigFinished = res.writableFinished));
            const push = () => {
              while (n < 128 && res.write(chunk)) n++;
              if (n < 128) {
                n++;
                res.once('drain', push);
              } else res.end();
            };
            return push();
          }
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    const attempt = { secret: 's', body: '{}', requestId: 1, nowMs: Date.now() };

    it('refuses a private target, by address or by name, before anything is sent', async () => {
      const strict = createSender({ timeoutMs: 1000, allowPrivate: false, maxSockets: 4 });
      hits = [];
      const port = new URL(base).port;
      for (const url of [`${base}/a`, `http://localhost:${port}/b`, `http://[::ffff:127.0.0.1]:${port}/c`]) {
        const res = await strict.send({ ...attempt, url });
        assert.deepEqual([res.status, res.error], [null, 'refused'], url);
      }
      assert.deepEqual(hits, []);
      strict.close();
      const open = createSender({ timeoutMs: 1000, allowPrivate: true, maxSockets: 4 });
      assert.equal((await open.send({ ...attempt, url: `http://localhost:${port}/d` })).status, 200);
      open.close();
    });

    it('does not follow redirects, and stops reading an answer after a few KiB', async () => {
      const s = createSender({ timeoutMs: 2000, allowPrivate: true, maxSockets: 4 });
      hits = [];
      assert.equal((await s.send({ ...attempt, url: `${base}/redirect` })).status, 301);
      assert.deepEqual(hits, ['/redirect']);
      const big = await s.send({ ...attempt, url: `${base}/big` });
      assert.deepEqual([big.status, big.error], [200, null]);
      assert.ok(MAX_RESPONSE_BYTES <= 8192);
      for (let i = 0; i < 100 && bigFinished === null; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(bigFinished, false, 'the sender hung up instead of reading 8 MiB');
      assert.deepEqual([(await s.send({ ...attempt, url: 'ftp://example.com/' })).error], ['invalid_url']);
      s.close();
    });
  });
});

eachDialect('webhook targets refused on save', (dialect) => {
  const strict = useHookApp(dialect, { WEBHOOK_ALLOW_PRIVATE: '0' });
  const receiver = useReceiver();

  it('POST and PUT refuse urls on loopback, private, link-local and metadata addresses', async () => {
    const [t, r] = [await strict(), await receiver()];
    const port = new URL(r.url).port;
    for (const url of [
      `${r.url}/x`,
      `http://localhost:${port}/x`,
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/x',
      'http://10.0.0.5/x',
      'http://192.168.0.10:8080/x',
      'http://[fd00:ec2::254]/x',
    ]) {
      const res = await t.call({
        method: 'POST',
        url: '/v1/company_webhooks',
        payload: { url, actions: ['user_upserted'] },
      });
      assert.equal(res.status, 400, url);
      assert.match(res.body.error_message, /^url .*loopback, private, link-local or metadata address/, url);
    }
    assert.equal(r.received.length, 0, 'nothing was sent');
    const ok = await t.call({
      method: 'POST',
      url: '/v1/company_webhooks',
      payload: { url: 'https://hooks.example.com/in', enabled: false },
    });
    assert.equal(ok.status, 201, 'a public name is accepted');
    const put = await t.call({
      method: 'PUT',
      url: `/v1/company_webhooks/${ok.body.company_webhook.id}`,
      payload: { url: 'http://127.0.0.1/x' },
    });
    assert.equal(put.status, 400);
  });
});
