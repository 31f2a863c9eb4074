/** Signatures (docs/reference/wire.md §7.5, R41): the two published vectors, offline and on the wire, and live deliveries. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { signatureSha1, signatureSha256, verifySha1, verifySha256 } from '../../../src/events/webhooks/signature.js';
import { eachDialect } from '../../helper.js';
import { registerHook, useHookApp, useReceiver } from './receiver.js';

interface RawRequest {
  /** The request line and header lines exactly as their bytes arrived. */
  lines: string[];
  body: string;
}

/**
 * A receiver on a bare TCP socket: it keeps the header lines as the bytes arrived, as a case-sensitive
 * receiver (PHP behind Apache or `php -S`) sees them, and answers 200.
 */
async function startRawReceiver(): Promise<{ url: string; requests: RawRequest[]; close(): Promise<void> }> {
  const requests: RawRequest[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
      const length = Number(lines.find((l) => /^content-length:/i.test(l))?.split(':')[1] ?? 0);
      if (buf.length < end + 4 + length) return;
      requests.push({ lines, body: buf.subarray(end + 4, end + 4 + length).toString('utf8') });
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const VECTORS = [
  { body: '{"action":"test"}', secret: '8cbd43f98ba1e33c28c9', sig: '5e1a966298ba4f3e91847aea8746198ca0530dd2' },
  {
    body: '["fault_code_closed"]',
    secret: 'd9d36bea41c44ae49d1bfc4a48ba2abe',
    sig: 'f04a8386a21a6cba0447024e83b3f0983352bb72',
  },
];

describe('webhook signatures', () => {
  it('X-Kt-Webhook-Signature is the hex HMAC-SHA1 of the body keyed with the secret (both published vectors)', () => {
    for (const v of VECTORS) {
      assert.equal(signatureSha1(v.body, v.secret), v.sig);
      assert.equal(signatureSha1(Buffer.from(v.body), v.secret), v.sig);
      assert.ok(verifySha1(v.body, v.secret, v.sig.toUpperCase()));
      // Key and message swapped (the current docs' sample commands) give another digest.
      assert.notEqual(signatureSha1(v.secret, v.body), v.sig);
    }
  });

  it('X-Webhook-Signature-256 signs "<t>.<body>" and is refused when replayed later or tampered with', () => {
    const header = signatureSha256('{"a":1}', 's3cret', 1_700_000_000);
    assert.match(header, /^t=1700000000,v1=[0-9a-f]{64}$/);
    assert.ok(verifySha256('{"a":1}', 's3cret', header, 1_700_000_100));
    assert.equal(verifySha256('{"a":2}', 's3cret', header, 1_700_000_100), false);
    assert.equal(verifySha256('{"a":1}', 'other', header, 1_700_000_100), false);
    assert.equal(verifySha256('{"a":1}', 's3cret', header, 1_700_000_000 + 3600), false, 'too old: a replay');
  });
});

eachDialect('webhook signatures on the wire', (dialect) => {
  const legacy = useHookApp(dialect, { WEBHOOK_TEST_BODY: 'legacy' });
  const current = useHookApp(dialect);
  const receiver = useReceiver();

  it('the 2017 test delivery is byte for byte the docs-2017 vector', async () => {
    const [t, r] = [await legacy(), await receiver()];
    const hook = await registerHook(t, r, ['vehicle_location_updated'], { secret: VECTORS[0].secret });
    assert.equal(hook.enabled, true);
    const [req] = r.at(hook.path);
    assert.equal(req.raw.toString('utf8'), VECTORS[0].body);
    assert.equal(req.headers['x-kt-webhook-signature'], VECTORS[0].sig);
  });

  it("the default test delivery (the action names) is byte for byte the current docs' vector", async () => {
    const [t, r] = [await current(), await receiver()];
    const hook = await registerHook(t, r, ['fault_code_closed'], { secret: VECTORS[1].secret });
    const [req] = r.at(hook.path);
    assert.equal(req.raw.toString('utf8'), VECTORS[1].body);
    assert.equal(req.headers['x-kt-webhook-signature'], VECTORS[1].sig);
    assert.equal(req.headers['content-type'], 'application/json');
  });

  it('live deliveries carry both signatures over the exact bytes received', async () => {
    const [t, r] = [await current(), await receiver()];
    const hook = await registerHook(t, r, ['vehicle_upserted'], { secret: 'a-36-character-uuid-like-secret-0000' });
    const v = await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'SIG-1' } });
    assert.equal(v.status, 201);
    await t.run();
    const [d] = r.deliveries(hook.path);
    assert.ok(d, 'delivered');
    assert.ok(verifySha1(d.raw, hook.secret, String(d.headers['x-kt-webhook-signature'])));
    const t256 = Number(/^t=(\d+)/.exec(String(d.headers['x-webhook-signature-256']))?.[1]);
    assert.equal(t256, Math.floor(t.clock.now / 1000), 'signed at the worker clock');
    assert.ok(verifySha256(d.raw, hook.secret, String(d.headers['x-webhook-signature-256']), t256));
    assert.equal(verifySha1(d.raw, 'wrong-secret', String(d.headers['x-kt-webhook-signature'])), false);
    assert.match(String(d.headers['x-webhook-request-id']), /^\d+$/);
  });

  it('the signature header is spelled X-Kt-Webhook-Signature on the wire, in test deliveries and deliveries', async () => {
    const t = await current();
    const raw = await startRawReceiver();
    try {
      const secret = 'd9d36bea41c44ae49d1bfc4a48ba2abe';
      const res = await t.call({
        method: 'POST',
        url: '/v1/company_webhooks',
        payload: { url: `${raw.url}/php`, secret, actions: ['fault_code_closed', 'vehicle_upserted'] },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.company_webhook.enabled, true);
      const v = await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: 'SIG-RAW' } });
      assert.equal(v.status, 201);
      await t.run();
      assert.equal(raw.requests.length, 2);
      const [test, delivery] = raw.requests;
      assert.equal(test.body, '["fault_code_closed","vehicle_upserted"]');
      assert.equal(JSON.parse(delivery.body).action, 'vehicle_upserted');
      for (const r of raw.requests) {
        const signatures = r.lines.filter((l) => /^x-kt-webhook-signature:/i.test(l));
        assert.deepEqual(signatures, [`X-Kt-Webhook-Signature: ${signatureSha1(r.body, secret)}`]);
        assert.equal(
          r.lines.filter((l) => l.startsWith('X-Webhook-Signature-256: t=')).length,
          1,
          'the SHA-256 header stays',
        );
      }
    } finally {
      await raw.close();
    }
  });
});
