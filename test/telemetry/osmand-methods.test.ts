/**
 * The OsmAnd listener answers every request in plain text, over real HTTP: a method other than GET or
 * POST (HEAD and OPTIONS included, and one Node's parser does not know) is a 405 with
 * `Allow: GET, POST` and stores nothing; a path that cannot be decoded and a malformed request are
 * text 400s; GET and POST take positions on any path.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { before, test } from 'node:test';
import { eachDialect, type TestApp } from '../helper.js';
import type { OsmandServer } from '../../src/telemetry/osmand.js';
import { useOsmandRig, type Rig } from './fixtures.js';

/** One request written as is on a socket, and the whole answer as text (for what fetch cannot send). */
function rawRequest(base: string, request: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(request));
    let text = '';
    socket.on('data', (b: Buffer) => void (text += b.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

/** Status line, the headers that matter here, and the body of a raw answer. */
function parse(answer: string) {
  const [head, body = ''] = answer.split('\r\n\r\n');
  const [status, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status, allow: headers.allow, type: headers['content-type'], body };
}

eachDialect('OsmAnd listener: methods and malformed requests', (dialect) => {
  const o = useOsmandRig(dialect);
  let t: TestApp;
  let osmand: OsmandServer;
  let phone: Rig;
  before(() => void ({ t, osmand, phone } = o));
  const stored = o.stored;
  const position = (s: number) =>
    `id=${phone.device.identifier}&lat=41.25&lon=-95.99&timestamp=${Math.floor(Date.now() / 1000) - s}&speed=20`;

  test('PUT, PATCH, DELETE and OPTIONS: text 405 with Allow: GET, POST, whatever the body; nothing stored', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const res = await fetch(`${osmand.url}/?${position(600)}`, { method });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'GET, POST', method);
      assert.equal(res.headers.get('content-type'), 'text/plain', method);
      assert.equal(await res.text(), `method ${method} not allowed: send positions with GET or POST`);
    }
    // A body is not read: a JSON body that is not valid JSON, on another path, is still refused for its method.
    const put = await fetch(`${osmand.url}/api/positions`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"device_id":',
    });
    assert.deepEqual(
      [put.status, put.headers.get('allow'), await put.text()],
      [405, 'GET, POST', 'method PUT not allowed: send positions with GET or POST'],
    );
    assert.equal(await stored(), 0);
  });

  test('HEAD is not a GET: 405, no body, no position stored', async () => {
    const res = await fetch(`${osmand.url}/?${position(590)}`, { method: 'HEAD' });
    assert.deepEqual(
      [res.status, res.headers.get('allow'), res.headers.get('content-type'), await res.text()],
      [405, 'GET, POST', 'text/plain', ''],
    );
    assert.equal(await stored(), 0);
  });

  test('a method Node does not know, a malformed request line, an undecodable path: text answers', async () => {
    const brew = parse(await rawRequest(osmand.url, 'BREW / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    assert.deepEqual(brew, {
      status: 'HTTP/1.1 405 Method Not Allowed',
      allow: 'GET, POST',
      type: 'text/plain',
      body: 'unknown method: send positions with GET or POST',
    });
    const malformed = parse(
      await rawRequest(osmand.url, 'GET no-slash HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    assert.deepEqual(malformed, {
      status: 'HTTP/1.1 400 Bad Request',
      allow: undefined,
      type: 'text/plain',
      body: 'bad request',
    });
    const res = await fetch(`${osmand.url}/%zz?${position(580)}`);
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('content-type'), 'text/plain');
    assert.equal(await res.text(), 'the path is not valid percent-encoding');
    assert.equal(await stored(), 0);
  });

  test('GET and POST still take positions, on any path', async () => {
    const get = await fetch(`${osmand.url}/?${position(570)}`);
    assert.deepEqual([get.status, await get.text()], [200, '']);
    const post = await fetch(`${osmand.url}/some/app/path`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: position(560),
    });
    assert.deepEqual([post.status, await post.text()], [200, '']);
    assert.equal(await stored(), 2);
  });
});
