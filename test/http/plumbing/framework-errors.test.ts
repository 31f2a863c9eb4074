/**
 * Errors raised before a route runs — by the router, Node's HTTP parser or the multipart parser —
 * answer in the catalogue's wire form with their status (docs/errors.md), and every answer says
 * `X-Content-Type-Options: nosniff`.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError } from '../fixtures.js';

/** Writes `payload` on a fresh connection and returns everything the server sends before closing. */
function raw(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(payload));
    let got = '';
    s.setTimeout(5000, () => reject(new Error(`no answer to ${JSON.stringify(payload.slice(0, 40))}`)));
    s.on('data', (c) => (got += c));
    s.on('close', () => resolve(got));
    s.on('error', reject);
  });
}

function parsed(answer: string): { status: number; headers: string; body: unknown } {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

eachDialect('framework errors', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let port: number;

  before(async () => {
    t = await getApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(async () => t.app.close());

  describe('router', () => {
    test('a path with broken percent-encoding is a 400 in the wire form', async () => {
      const res = await t.call({ method: 'GET', url: '/v1/users/%E0%A4%A' });
      assertError(res, 400, 'the path is not valid percent-encoding: /v1/users/%E0%A4%A');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.match(String(res.headers['x-request-id']), /^req-/);
    });

    test('a path parameter over 100 characters is a 414 in the wire form', async () => {
      const long = 'a'.repeat(101);
      assertError(
        await t.call({ method: 'GET', url: `/v1/users/${long}` }),
        414,
        `a path segment of /v1/users/${long} is longer than 100 characters`,
      );
      assertError(await t.call({ method: 'GET', url: `/v1/users/${'a'.repeat(100)}` }), 400, 'id must be an integer');
    });
  });

  describe('connection', () => {
    test('a request line and headers over 16 KiB are a 431 in the wire form', async () => {
      const a = parsed(await raw(port, `GET /v1/users?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
      assert.equal(a.status, 431);
      assert.deepEqual(a.body, {
        error_message: 'the request line and headers are larger than 16 KiB (a long query string counts)',
      });
      assert.match(a.headers, /content-type: application\/json; charset=utf-8/);
      assert.match(a.headers, /x-content-type-options: nosniff/);
    });

    test('a malformed request line is a 400 in the wire form', async () => {
      const a = parsed(await raw(port, 'NOT HTTP AT ALL\r\n\r\n'));
      assert.equal(a.status, 400);
      assert.deepEqual(a.body, { error_message: 'the request is not valid HTTP/1.1' });
    });

    test('the server goes on answering after them', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    });
  });

  describe('bodies', () => {
    test('multipart without a boundary, or not following it, is a 400 and stores nothing', async () => {
      const before = (await t.call({ method: 'GET', url: '/v1/documents' })).body.pagination.total;
      for (const [type, payload, message] of [
        ['multipart/form-data', 'abc', 'the multipart body is malformed: Multipart: Boundary not found'],
        [
          'multipart/form-data; boundary=XX',
          '--YY\r\nfoo',
          'the multipart body is malformed: Unexpected end of multipart data',
        ],
      ]) {
        assertError(
          await t.call({ method: 'POST', url: '/v1/documents', headers: { 'content-type': type }, payload }),
          400,
          message,
        );
      }
      assert.equal((await t.call({ method: 'GET', url: '/v1/documents' })).body.pagination.total, before);
    });

    test('JSON that does not parse, the wrong type and an oversized body are 400s in the wire form', async () => {
      assertError(
        await t.call({
          method: 'POST',
          url: '/v1/vehicles',
          headers: { 'content-type': 'application/json' },
          payload: '{"number":',
        }),
        400,
        /^body is not valid JSON/,
      );
      assertError(
        await t.call({ method: 'POST', url: '/v1/vehicles', headers: { 'content-type': 'text/xml' }, payload: '<a/>' }),
        400,
        'Content-Type must be application/json',
      );
      assertError(
        await t.call({
          method: 'POST',
          url: '/v1/vehicles',
          headers: { 'content-type': 'application/json' },
          payload: `{"number":"${'x'.repeat(1_100_000)}"}`,
        }),
        400,
        'request body is larger than the limit',
      );
    });

    test('every JSON answer says nosniff', async () => {
      for (const url of ['/v1/users', '/v1/nothing', '/openapi.json']) {
        assert.equal((await t.call({ method: 'GET', url })).headers['x-content-type-options'], 'nosniff', url);
      }
    });
  });
});
