/**
 * Request-rate limits through the app, on both databases and both stores: per API key, per bearer
 * token, per device credential, and per IP on the token endpoint and the sign-in pages. Each answer is
 * 429 with the surface's own error body naming the limit, and Retry-After in seconds; successful
 * answers carry no rate-limit headers (docs/reference/wire.md §6, R29).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects } from '../helper.js';
import {
  Browser,
  assertOAuthError,
  formBody,
  token,
  tokensFor,
  useOAuthApp,
  type OAuthTestApp,
  type Res,
} from '../auth/oauth/flows.js';
import { createVehicle } from '../../src/domain/vehicles/service.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { at } from '../telemetry/fixtures.js';
import { BACKINGS, backingEnv } from './redis.js';

const LIMITS = {
  RATE_LIMIT_WINDOW_S: '60',
  RATE_LIMIT_REQUESTS_PER_CREDENTIAL: '5',
  RATE_LIMIT_REQUESTS_PER_DEVICE: '3',
  RATE_LIMIT_REQUESTS_PER_IP: '20',
};

const apiMessage = (waitS: number) =>
  `Too many requests for this credential: the limit is 5 requests per 60 seconds. Try again in ${waitS} seconds.`;
const deviceMessage = (waitS: number) =>
  `Too many requests for this device credential: the limit is 3 requests per 60 seconds. Try again in ${waitS} seconds.`;
const ipMessage = (waitS: number) =>
  `Too many requests from this IP address to the sign-in and OAuth endpoints: the limit is 20 requests per 60 seconds. Try again in ${waitS} seconds.`;

let ipSeq = 0;
const freshIp = () => `10.77.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

for (const dialect of dialects()) {
  for (const backing of BACKINGS) {
    describe(`request-rate limits [${dialect}, ${backing}]`, () => {
      const store = backingEnv(backing, 'http');
      after(() => store.drop());
      const getApp = useOAuthApp(dialect, { ...LIMITS, ...store.env });
      let t: OAuthTestApp;
      before(async () => {
        t = await getApp();
      });

      /**
       * What a 429 must say: memory runs on the test clock, so the wait is exact; Redis runs on real
       * time, so the wait is the window less the whole seconds since `startedMs`, rounded up.
       */
      function expectedWait(waitOnTestClockS: number, startedMs: number): number[] {
        if (backing === 'memory') return [waitOnTestClockS];
        const elapsedS = (Date.now() - startedMs) / 1000;
        return [60 - Math.floor(elapsedS), 60 - Math.ceil(elapsedS)].filter((v, i, a) => a.indexOf(v) === i);
      }

      function assertLimited(res: Res, message: (waitS: number) => string, waits: number[]) {
        assert.equal(res.status, 429, res.body);
        const waitS = Number(res.headers['retry-after']);
        assert.ok(waits.includes(waitS), `Retry-After ${res.headers['retry-after']}, expected one of ${waits}`);
        assert.equal(res.body, JSON.stringify({ error_message: message(waitS) }));
        assert.match(String(res.headers['content-type']), /^application\/json/);
      }

      const get = (headers: Record<string, string>, url = '/v1/vehicles') =>
        new Browser(t.app).request({ method: 'GET', url, headers });

      test('an API key: 5 requests in the window, the 6th is 429 with Retry-After; successes carry no rate-limit headers', async () => {
        const fleet = await t.newFleet();
        const started = Date.now();
        for (let i = 0; i < 5; i++) {
          const res = await get({ 'x-api-key': fleet.apiKey });
          assert.equal(res.status, 200, res.body);
          assert.deepEqual(
            Object.keys(res.headers).filter((h) => /ratelimit|retry-after/i.test(h)),
            [],
          );
          if (i === 0) t.clock.advance(15_000);
        }
        assertLimited(await get({ 'x-api-key': fleet.apiKey }), apiMessage, expectedWait(45, started));
        const other = await t.newFleet();
        assert.equal((await get({ 'x-api-key': other.apiKey })).status, 200, 'another key has its own count');
        assert.equal(
          (await get({ 'X-API-KEY': ` ${other.apiKey} ` })).status,
          200,
          'the same key, however it is written, is one count',
        );
        if (backing === 'memory') {
          t.clock.advance(44_999);
          assertLimited(await get({ 'x-api-key': fleet.apiKey }), apiMessage, [1]);
          t.clock.advance(1);
          assert.equal((await get({ 'x-api-key': fleet.apiKey })).status, 200, 'a new window');
        }
      });

      test('the count is taken before authentication: an unknown key is refused 401 five times, then 429', async () => {
        const started = Date.now();
        for (let i = 0; i < 5; i++) assert.equal((await get({ 'x-api-key': 'fk_not-a-key' })).status, 401);
        assertLimited(await get({ 'x-api-key': 'fk_not-a-key' }), apiMessage, expectedWait(60, started));
      });

      test('a bearer token has its own count; with both headers the bearer token is the one counted', async () => {
        const access = (await tokensFor(t, 'vehicles.read')).access_token;
        const fleet = await t.newFleet();
        const started = Date.now();
        for (let i = 0; i < 5; i++) {
          const headers: Record<string, string> = { authorization: `Bearer ${access}` };
          if (i % 2) headers['x-api-key'] = fleet.apiKey;
          assert.equal((await get(headers)).status, 200);
        }
        assertLimited(await get({ authorization: `Bearer ${access}` }), apiMessage, expectedWait(60, started));
        assertLimited(
          await get({ authorization: `bearer   ${access}`, 'x-api-key': fleet.apiKey }),
          apiMessage,
          expectedWait(60, started),
        );
        assert.equal(
          (await get({ 'x-api-key': fleet.apiKey })).status,
          200,
          'the API key sent alongside was not counted',
        );
      });

      test('a device credential on the device API: 3 batches, the 4th is 429', async () => {
        const fleet = await t.newFleet();
        const vehicle = await createVehicle(t.db, { companyId: fleet.companyId }, { number: 'RL-1' });
        const device = await provisionDevice(
          t.db,
          { companyId: fleet.companyId },
          { identifier: `RL-${fleet.companyId}`, vehicleId: vehicle.id },
        );
        const batch = (seq: number) =>
          new Browser(t.app).request({
            method: 'POST',
            url: '/device/v1/batches',
            headers: { authorization: `Bearer ${device.device_token}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ records: [{ type: 'engine', time: at(seq), state: 'on', seq }] }),
          });
        const started = Date.now();
        for (let seq = 1; seq <= 3; seq++) {
          const res = await batch(seq);
          assert.equal(res.status, 200, res.body);
          assert.equal(res.json.accepted, 1);
        }
        assertLimited(await batch(4), deviceMessage, expectedWait(60, started));
        assert.equal(
          (await get({ 'x-api-key': fleet.apiKey })).status,
          200,
          "the company's API key is not the device's count",
        );
      });

      test('the token endpoint per IP: 20 requests, the 21st is 429 temporarily_unavailable; another IP is not affected', async () => {
        const ip = freshIp();
        const started = Date.now();
        for (let i = 0; i < 20; i++) {
          assertOAuthError(await token(t, { grant_type: 'password' }, { ip }), 400, 'unsupported_grant_type');
        }
        const res = await token(t, { grant_type: 'password' }, { ip });
        const waitS = Number(res.headers['retry-after']);
        assert.ok(expectedWait(60, started).includes(waitS), `Retry-After ${waitS}`);
        assertOAuthError(res, 429, 'temporarily_unavailable', ipMessage(waitS));
        const revoke = await new Browser(t.app, ip).request({
          method: 'POST',
          url: '/oauth/revoke',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: formBody({ token: 'x' }),
        });
        assertOAuthError(revoke, 429, 'temporarily_unavailable', ipMessage(Number(revoke.headers['retry-after'])));
        assertOAuthError(await token(t, { grant_type: 'password' }, { ip: freshIp() }), 400, 'unsupported_grant_type');
      });

      test('the sign-in pages per IP: the 21st request is a 429 page naming the limit, with Retry-After', async () => {
        const b = new Browser(t.app, freshIp());
        const started = Date.now();
        for (let i = 0; i < 10; i++) assert.equal((await b.get('/sign-in')).status, 200);
        for (let i = 0; i < 10; i++) assert.equal((await b.get('/developers/sign-in')).status, 200);
        for (const url of ['/sign-in', '/developers/sign-in', '/developers/sign-up', '/oauth/authorize']) {
          const res = await b.get(url);
          assert.equal(res.status, 429, `${url}: ${res.body}`);
          const waitS = Number(res.headers['retry-after']);
          assert.ok(expectedWait(60, started).includes(waitS), `Retry-After ${waitS}`);
          assert.match(String(res.headers['content-type']), /^text\/html/);
          assert.ok(res.body.includes(ipMessage(waitS)), res.body);
        }
        const post = await b.post('/sign-in', { csrf_token: 'x', email: t.fleet.admin.email, password: 'x' });
        assert.equal(post.status, 429, 'posting the form counts too');
        assert.equal((await new Browser(t.app, freshIp()).get('/sign-in')).status, 200, 'another IP is not affected');
        assert.equal((await b.get('/healthz')).status, 200, 'routes outside the limits are not refused');
      });
    });
  }
}
