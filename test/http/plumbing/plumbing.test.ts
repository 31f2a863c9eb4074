/** Paths, methods, headers, bodies and errors, as real clients exercise them (docs/reference/wire.md §2, §5; §12 R2–R9). */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { eachDialect, makeApp, useApp, type TestApp } from '../../helper.js';
import { DATETIME, assertError, assertList, createUser, totalOf } from '../fixtures.js';

eachDialect('plumbing', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let driver: any;

  before(async () => {
    t = await getApp();
    driver = await createUser(t, { first_name: 'Path', last_name: 'Finder' });
  });

  describe('paths and methods', () => {
    test('/v1//users, /v1/users.json and /v1//users.json route to the list', async () => {
      for (const url of ['/v1//users', '/v1/users.json', '/v1//users.json', '//v1/users', '/v1/users/']) {
        const res = await t.call({ method: 'GET', url });
        assert.equal(assertList(res, 'users', 'user').length, 1, url);
      }
    });

    test('/v1/users/5.json and /v1//users/5 route to the object', async () => {
      for (const url of [
        `/v1/users/${driver.id}.json`,
        `/v1//users/${driver.id}`,
        `/v1/users/${driver.id}.json?foo=1`,
      ]) {
        const res = await t.call({ method: 'GET', url });
        assert.equal(res.status, 200, url);
        assert.equal(res.body.user.id, driver.id, url);
      }
    });

    test('an unknown path is 404 with an error body', async () => {
      for (const url of ['/v1/nothing_here', '/v9/users', '/nope', '/v1/users/1/nope']) {
        const res = await t.call({ method: 'GET', url });
        assertError(res, 404);
        assert.match(String(res.headers['content-type']), /application\/json/);
      }
    });

    test('a known path with a wrong method is 405 with an Allow header', async () => {
      const cases: Array<[string, string, string[]]> = [
        ['DELETE', '/v1/users', ['GET', 'POST']],
        ['PATCH', '/v1/users', ['GET', 'POST']],
        ['DELETE', `/v1/users/${driver.id}`, ['GET', 'PUT']],
        ['POST', `/v1/users/${driver.id}`, ['GET', 'PUT']],
        ['DELETE', '/v1//users.json', ['GET', 'POST']],
        ['DELETE', '/v1/vehicles', ['GET', 'POST']],
      ];
      for (const [method, url, allowed] of cases) {
        const res = await t.call({ method: method as any, url });
        assertError(res, 405);
        const allow = String(res.headers.allow ?? '').split(/,\s*/);
        for (const m of allowed)
          assert.ok(allow.includes(m), `${method} ${url}: Allow "${res.headers.allow}" lists ${m}`);
        assert.ok(!allow.includes(method), `${method} ${url}: Allow does not list ${method}`);
      }
    });
  });

  describe('authentication', () => {
    const inject = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/v1/users', headers });

    test('X-Api-Key in any letter case', async () => {
      for (const name of ['X-Api-Key', 'X-API-Key', 'x-api-key', 'X-API-KEY']) {
        const res = await inject({ [name]: t.company.apiKey });
        assert.equal(res.statusCode, 200, name);
      }
    });

    test('a bad key is 401 {"error_message":"invalid API key"}', async () => {
      for (const key of ['nope', `${t.company.apiKey}x`, '']) {
        const res = await inject({ 'X-Api-Key': key });
        assert.equal(res.statusCode, 401, `key ${JSON.stringify(key)}`);
        assert.equal(res.body, '{"error_message":"invalid API key"}');
      }
    });

    test('no credential is 401 with an error body', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/users' });
      assertError({ status: res.statusCode, body: JSON.parse(res.body) }, 401);
      const post = await t.app.inject({ method: 'POST', url: '/v1/vehicles', payload: { number: 'NOAUTH' } });
      assert.equal(post.statusCode, 401);
      assert.equal(await totalOf(t, '/v1/vehicles'), 0);
    });

    test('X-User-Id naming an active admin → 200; anyone else → 403', async () => {
      const other = await t.newCompany('Elsewhere');
      const admin = await createUser(t, { role: 'admin' });
      const retired = await createUser(t, { role: 'admin', status: 'deactivated' });
      const manager = await createUser(t, { role: 'fleet_user' });
      const foreignAdmin = await createUser(t, { role: 'admin' }, other);
      let res = await t.call({ method: 'GET', url: '/v1/users', headers: { 'X-User-Id': String(admin.id) } });
      assert.equal(res.status, 200);
      res = await t.call({
        method: 'POST',
        url: '/v1/vehicles',
        headers: { 'x-user-id': String(admin.id) },
        payload: { number: 'UID-1' },
      });
      assert.equal(res.status, 201);
      for (const id of [driver.id, manager.id, retired.id, foreignAdmin.id, 999999, 'abc']) {
        assertError(await t.call({ method: 'GET', url: '/v1/users', headers: { 'X-User-Id': String(id) } }), 403);
      }
      const before = await totalOf(t, '/v1/vehicles');
      assertError(
        await t.call({
          method: 'POST',
          url: '/v1/vehicles',
          headers: { 'X-User-Id': String(driver.id) },
          payload: { number: 'UID-2' },
        }),
        403,
      );
      assert.equal(await totalOf(t, '/v1/vehicles'), before);
    });
  });

  describe('headers that never fail a request', () => {
    test('X-Time-Zone: Rails names, unknown values, empty', async () => {
      for (const tz of ['Eastern Time (US & Canada)', 'Pacific Time (US & Canada)', 'Alaska', 'Mars/Olympus', '']) {
        assert.equal(
          (await t.call({ method: 'GET', url: '/v1/users', headers: { 'X-Time-Zone': tz } })).status,
          200,
          tz,
        );
        const one = await t.call({ method: 'GET', url: `/v1/users/${driver.id}`, headers: { 'X-Time-Zone': tz } });
        assert.equal(one.status, 200, tz);
        const utc = (await t.call({ method: 'GET', url: `/v1/users/${driver.id}` })).body.user.created_at;
        assert.match(utc, DATETIME);
        const zoned = one.body.user.created_at;
        // A known zone writes the same instant with its offset; an unknown or empty one leaves UTC.
        if (tz === 'Mars/Olympus' || tz === '') assert.equal(zoned, utc, tz);
        else {
          assert.match(zoned, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[4-9]:00$/, tz);
          assert.equal(Date.parse(zoned), Date.parse(utc), tz);
        }
      }
    });

    test('X-Time-Zone writes every datetime of an answer in the zone, cached or not, and nothing else', async () => {
      const eastern = { 'X-Time-Zone': 'Eastern Time (US & Canada)' };
      for (const url of ['/v1/users?per_page=3', `/v1/users/${driver.id}`, '/v1/vehicles?per_page=3']) {
        const plain = await t.call({ method: 'GET', url });
        const zoned = await t.call({ method: 'GET', url, headers: eastern });
        const again = await t.call({ method: 'GET', url });
        assert.equal(again.raw, plain.raw, `${url}: the zone does not stick to the cached body`);
        const times = (raw: string) => [...raw.matchAll(/"(\d{4}-\d{2}-\d{2}T[^"]*)"/g)].map((m) => m[1]);
        assert.ok(times(plain.raw).length > 0, url);
        assert.ok(
          times(plain.raw).every((x) => x.endsWith('Z')),
          url,
        );
        assert.ok(
          times(zoned.raw).every((x) => /-0[45]:00$/.test(x)),
          `${url}: ${times(zoned.raw).slice(0, 3)}`,
        );
        assert.deepEqual(times(zoned.raw).map(Date.parse), times(plain.raw).map(Date.parse), url);
        assert.equal(
          zoned.raw.replace(/"\d{4}-\d{2}-\d{2}T[^"]*"/g, '"T"'),
          plain.raw.replace(/"\d{4}-\d{2}-\d{2}T[^"]*"/g, '"T"'),
          `${url}: only the datetimes differ`,
        );
      }
    });

    test('X-Metric-Units: true, false, anything', async () => {
      for (const v of ['true', 'false', 'yes', '']) {
        assert.equal(
          (await t.call({ method: 'GET', url: '/v1/vehicles', headers: { 'X-Metric-Units': v } })).status,
          200,
          v,
        );
      }
    });

    test('Content-Type: application/json and Accept on a GET with no body → 200', async () => {
      const res = await t.call({
        method: 'GET',
        url: '/v1/users',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      });
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
    });
  });

  describe('request bodies', () => {
    test('Content-Type text/plain (or form) on a POST → 400 naming application/json, nothing created', async () => {
      for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const before = await totalOf(t, '/v1/vehicles');
        const res = await t.call({
          method: 'POST',
          url: '/v1/vehicles',
          headers: { 'content-type': ct },
          payload: '{"number":"CT-1"}',
        });
        assertError(res, 400, /application\/json/);
        assert.equal(await totalOf(t, '/v1/vehicles'), before, ct);
      }
    });

    test('application/json with a charset parameter is accepted', async () => {
      const res = await t.call({
        method: 'POST',
        url: '/v1/vehicles',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        payload: '{"number":"CS-1"}',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    });

    test('malformed JSON → 400, nothing created', async () => {
      for (const body of ['{"number": "MJ-1"', '{number: 1}', 'not json']) {
        const before = await totalOf(t, '/v1/vehicles');
        const res = await t.call({
          method: 'POST',
          url: '/v1/vehicles',
          headers: { 'content-type': 'application/json' },
          payload: body,
        });
        assertError(res, 400, /JSON/);
        assert.equal(await totalOf(t, '/v1/vehicles'), before);
      }
    });

    test('an empty JSON body on a POST → 400', async () => {
      const res = await t.call({
        method: 'POST',
        url: '/v1/vehicles',
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      assertError(res, 400);
    });
  });

  describe('body over the limit', () => {
    const getSmall = useApp(dialect, { BODY_LIMIT_BYTES: '2048' });

    test('over BODY_LIMIT_BYTES → 400 and nothing created; under it → 201', async () => {
      const s = await getSmall();
      const big = { number: 'BIG-1', padding: 'x'.repeat(3000) };
      const res = await s.call({ method: 'POST', url: '/v1/vehicles', payload: big });
      assertError(res, 400, /limit|large/);
      assert.equal(await totalOf(s, '/v1/vehicles'), 0);
      const ok = await s.call({
        method: 'POST',
        url: '/v1/vehicles',
        payload: { number: 'SMALL-1', padding: 'x'.repeat(1500) },
      });
      assert.equal(ok.status, 201);
      assert.equal(await totalOf(s, '/v1/vehicles'), 1);
    });
  });

  describe('request ids, health, opaque 500', () => {
    test('every response carries X-Request-Id', async () => {
      const responses = [
        await t.call({ method: 'GET', url: '/v1/users' }),
        await t.call({ method: 'GET', url: '/v1/nowhere' }),
        await t.call({ method: 'GET', url: '/v1/users?per_page=0' }),
        await t.app.inject({ method: 'GET', url: '/v1/users' }).then((r) => ({ headers: r.headers })),
        await t.call({ method: 'DELETE', url: '/v1/users' }),
      ];
      const ids = responses.map((r) => String(r.headers['x-request-id'] ?? ''));
      for (const id of ids) assert.ok(id.length > 0, 'X-Request-Id present');
      assert.equal(new Set(ids).size, ids.length, 'request ids are distinct');
    });

    test('/healthz and /readyz answer 200 without credentials', async () => {
      for (const url of ['/healthz', '/readyz']) {
        const res = await t.app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 200, url);
      }
    });

    test('an unexpected failure is an opaque 500 naming the request id', async () => {
      // Force a server error: the users table disappears under a running app of its own.
      const broken = await makeApp(dialect);
      try {
        await sql`alter table users rename to users_gone`.execute(broken.db.kysely);
        const res = await broken.call({ method: 'GET', url: '/v1/users' });
        assertError(res, 500, /request id/);
        const rid = String(res.headers['x-request-id']);
        assert.ok(res.body.error_message.includes(rid), 'the message names the X-Request-Id');
        assert.doesNotMatch(res.body.error_message, /users_gone|users|relation|table|sql|select/i, 'no internals leak');
      } finally {
        await broken.close();
      }
    });
  });
});
