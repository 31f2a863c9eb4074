/**
 * Failed sign-ins and failed OAuth client authentications through the app (docs/rate-limits.md,
 * "Failed sign-ins"), on both databases and both limits stores: an attacker at one address is locked
 * out of the account it attacks; the owner at another address still signs in with the right password
 * (web sign-in and client-secret authentication both); one address is bounded over every account;
 * an attacker spread over many addresses meets the per-account ceiling, which spares addresses that
 * succeeded before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects } from '../../helper.js';
import {
  Browser,
  PASSWORD,
  assertOAuthError,
  authorize,
  inputValue,
  token,
  type OAuthTestApp,
  type Res,
  useOAuthApp,
} from './flows.js';
import type { RegisteredApp } from '../../../src/auth/oauth/apps.js';
import { BACKINGS, backingEnv } from '../../limits/redis.js';

const AUTH = {
  AUTH_RATE_WINDOW_S: '60',
  AUTH_MAX_FAILURES_PER_ACCOUNT_IP: '3',
  AUTH_MAX_FAILURES_PER_IP: '6',
  AUTH_MAX_FAILURES_PER_ACCOUNT: '5',
};

let ipSeq = 0;
const freshIp = () => `10.88.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

const signInMessage = (kind: 'ip' | 'account_ip' | 'account', wait: number) =>
  ({
    ip: `Too many failed sign-ins from this address. Try again in ${wait} seconds.`,
    account_ip: `Too many failed sign-ins for this account from this address. Try again in ${wait} seconds.`,
    account: `Too many failed sign-ins for this account from many addresses; only addresses that succeeded before may try now. Try again in ${wait} seconds.`,
  })[kind];
const clientMessage = (kind: 'account_ip' | 'account', wait: number) =>
  kind === 'account_ip'
    ? `Too many failed client authentications for this client from this address. Try again in ${wait} seconds.`
    : `Too many failed client authentications for this client from many addresses; only addresses that succeeded before may try now. Try again in ${wait} seconds.`;

for (const dialect of dialects()) {
  for (const backing of BACKINGS) {
    describe(`failed sign-ins and client authentications [${dialect}, ${backing}]`, () => {
      const store = backingEnv(backing, 'lockout');
      after(() => store.drop());
      const getApp = useOAuthApp(dialect, { ...AUTH, ...store.env });
      let t: OAuthTestApp;
      before(async () => {
        t = await getApp();
      });

      /** Signs in from `ip` in a browser of its own; returns the answer and the browser. */
      async function signIn(ip: string, email: string, password: string): Promise<Res & { browser: Browser }> {
        const browser = new Browser(t.app, ip);
        const page = await browser.get('/sign-in');
        const res = await browser.post('/sign-in', {
          csrf_token: inputValue(page.body, 'csrf_token'),
          email,
          password,
        });
        return { ...res, browser };
      }

      /** A 429 page with Retry-After (the whole window on the test clock; Redis runs on real time) and the message. */
      function assertRefusedPage(res: Res, message: (wait: number) => string): void {
        assert.equal(res.status, 429, res.body);
        const wait = Number(res.headers['retry-after']);
        assert.ok(
          backing === 'memory' ? wait === 60 : wait >= 58 && wait <= 60,
          `Retry-After ${res.headers['retry-after']}`,
        );
        assert.ok(res.body.includes(message(wait)), res.body);
        assert.ok(!res.cookies.some((c) => c.name === 'fleet_session'), 'no session');
      }

      function secretCheck(client: RegisteredApp, secret: string, ip: string): Promise<Res> {
        return token(
          t,
          {
            grant_type: 'refresh_token',
            refresh_token: 'fr_unknown',
            client_id: client.client_id,
            client_secret: secret,
          },
          { ip },
        );
      }

      function assertRefusedClient(res: Res, kind: 'account_ip' | 'account'): void {
        const wait = Number(res.headers['retry-after']);
        assert.ok(
          backing === 'memory' ? wait === 60 : wait >= 58 && wait <= 60,
          `Retry-After ${res.headers['retry-after']}`,
        );
        assertOAuthError(res, 429, 'temporarily_unavailable', clientMessage(kind, wait));
      }

      test('sign-in: the attacker address is refused after 3 failures, even with the right password; the owner elsewhere signs in', async () => {
        const fleet = await t.newFleet('Lockout Co');
        const attacker = freshIp();
        for (let i = 0; i < 3; i++) {
          const res = await signIn(attacker, fleet.admin.email, `wrong-${i}`);
          assert.equal(res.status, 401);
          assert.ok(res.body.includes('Wrong email or password.'));
        }
        assertRefusedPage(await signIn(attacker, fleet.admin.email, PASSWORD), (w) => signInMessage('account_ip', w));
        const owner = await signIn(freshIp(), fleet.admin.email, PASSWORD);
        assert.equal(owner.status, 303, owner.body);
        assert.equal(owner.headers.location, '/console');
        assert.ok(owner.browser.jar.has('fleet_session'));
        const dev = await signIn(attacker, 'nobody@fleet.test', 'x');
        assert.equal(dev.status, 401, 'the attacker address may still try other accounts (up to its own ceiling)');
        if (backing === 'memory') {
          t.clock.advance(60_000);
          assert.equal((await signIn(attacker, fleet.admin.email, PASSWORD)).status, 303, 'the window ends');
        }
      });

      test('sign-in: one address is refused after 6 failures over any accounts; another address is not', async () => {
        const ip = freshIp();
        for (let i = 0; i < 6; i++) assert.equal((await signIn(ip, `nobody${i}.${ip}@x.test`, 'x')).status, 401);
        assertRefusedPage(await signIn(ip, t.fleet.manager.email, PASSWORD), (w) => signInMessage('ip', w));
        assert.equal((await signIn(freshIp(), t.fleet.manager.email, PASSWORD)).status, 303);
      });

      test('sign-in: 5 failures from many addresses refuse new addresses, not the one the owner signed in from before', async () => {
        const fleet = await t.newFleet('Spread Co');
        const home = freshIp();
        assert.equal((await signIn(home, fleet.admin.email, PASSWORD)).status, 303);
        for (const n of [2, 2, 1]) {
          const ip = freshIp();
          for (let i = 0; i < n; i++) assert.equal((await signIn(ip, fleet.admin.email, 'guess')).status, 401);
        }
        assertRefusedPage(await signIn(freshIp(), fleet.admin.email, PASSWORD), (w) => signInMessage('account', w));
        const owner = await signIn(home, fleet.admin.email, PASSWORD);
        assert.equal(owner.status, 303, owner.body);
        assert.ok(owner.browser.jar.has('fleet_session'));
      });

      test('client authentication: the attacker address is refused after 3 wrong secrets; the client elsewhere gets its tokens', async () => {
        const client = await t.newClient();
        const attacker = freshIp();
        for (let i = 0; i < 3; i++)
          assertOAuthError(await secretCheck(client, 'wrong', attacker), 401, 'invalid_client');
        assertRefusedClient(await secretCheck(client, client.client_secret, attacker), 'account_ip');
        const code = await authorize(t, { client });
        const res = await token(
          t,
          {
            grant_type: 'authorization_code',
            code,
            redirect_uri: client.redirect_uris[0],
            client_id: client.client_id,
            client_secret: client.client_secret,
          },
          { ip: freshIp() },
        );
        assert.equal(res.status, 200, res.body);
        assert.equal(res.json.token_type, 'Bearer');
      });

      test('client authentication: 5 wrong secrets from many addresses refuse new addresses, not the server that authenticated before', async () => {
        const client = await t.newClient();
        const server = freshIp();
        assertOAuthError(await secretCheck(client, client.client_secret, server), 400, 'invalid_grant');
        for (const n of [2, 2, 1]) {
          const ip = freshIp();
          for (let i = 0; i < n; i++) assertOAuthError(await secretCheck(client, 'wrong', ip), 401, 'invalid_client');
        }
        assertRefusedClient(await secretCheck(client, client.client_secret, freshIp()), 'account');
        const code = await authorize(t, { client });
        const res = await token(
          t,
          {
            grant_type: 'authorization_code',
            code,
            redirect_uri: client.redirect_uris[0],
            client_id: client.client_id,
            client_secret: client.client_secret,
          },
          { ip: server },
        );
        assert.equal(res.status, 200, res.body);
      });
    });
  }
}
