/**
 * One real browser (Debian's chromium driven by playwright-core) through sign-in and consent on a real
 * listening server, ending with a token that reads /v1/vehicles. The redirect URI is a tiny local HTTP
 * server that captures the code. Without /usr/bin/chromium this test fails: it never skips.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { before, after, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { eachDialect } from '../../helper.js';
import { PASSWORD, authorizeUrl, useOAuthApp, vehicle, type OAuthTestApp } from './flows.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

eachDialect('oauth in a real browser', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let browser: Browser;
  let base: string;
  let callback: Server;
  let callbackUrl: string;
  let captured: (url: URL) => void;
  const nextCallback = () => new Promise<URL>((resolve) => (captured = resolve));

  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `${CHROMIUM} is missing: install it with "apt-get install -y chromium" (.ci/run does)`,
    );
    t = await getApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    callback = createServer((req, res) => {
      captured?.(new URL(req.url ?? '/', callbackUrl));
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Connected</title><h1>Connected</h1>');
    });
    callbackUrl = `http://127.0.0.1:${await listen(callback)}/callback`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  });

  after(async () => {
    await browser?.close();
    await new Promise((r) => (callback ? callback.close(r) : r(null)));
  });

  test('sign in and Allow in chromium; the captured code becomes a token that reads /v1/vehicles', async () => {
    const vehicleId = await vehicle(t);
    const client = await t.newClient({
      name: 'Browser Test App',
      redirectUris: [callbackUrl],
      scopes: ['vehicles.read', 'locations.vehicle_locations_list'],
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    const arrived = nextCallback();
    await page.goto(
      base +
        authorizeUrl({
          client_id: client.client_id,
          redirect_uri: callbackUrl,
          response_type: 'code',
          scope: 'vehicles.read locations.vehicle_locations_list',
          state: 'browser-state',
        }),
    );

    await page.getByLabel('Email').fill(t.fleet.admin.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: 'Install Browser Test App?' }).waitFor();
    const permissions = await page.getByRole('list', { name: 'Requested permissions' }).innerText();
    assert.match(permissions, /Read your vehicles/);
    assert.match(permissions, /Read your vehicles' current locations/);
    const cookies = await context.cookies(base);
    const session = cookies.find((c) => c.name === 'fleet_session');
    assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
    assert.equal(session?.sameSite, 'Lax');
    await page.getByRole('button', { name: 'Allow' }).click();

    const to = await arrived;
    assert.equal(to.searchParams.get('state'), 'browser-state');
    const code = to.searchParams.get('code');
    assert.ok(code, `no code in ${to}`);
    await page.getByRole('heading', { name: 'Connected' }).waitFor();
    await context.close();

    const tokenRes = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: callbackUrl,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }),
    });
    assert.equal(tokenRes.status, 200);
    const tokens = (await tokenRes.json()) as { access_token: string; token_type: string };
    const list = await fetch(`${base}/v1/vehicles`, {
      headers: { authorization: `${tokens.token_type} ${tokens.access_token}` },
    });
    assert.equal(list.status, 200);
    const body = (await list.json()) as { vehicles: Array<{ vehicle: { id: number } }> };
    assert.ok(body.vehicles.some((w) => w.vehicle.id === vehicleId));
  });

  test('Deny in chromium brings the user back with error=access_denied', async () => {
    const fleet = await t.newFleet('Browser Deny Co');
    const client = await t.newClient({ name: 'Denied App', redirectUris: [callbackUrl], scopes: ['vehicles.read'] });
    const context = await browser.newContext();
    const page = await context.newPage();
    const arrived = nextCallback();
    await page.goto(
      base +
        authorizeUrl({
          client_id: client.client_id,
          redirect_uri: callbackUrl,
          response_type: 'code',
          scope: 'vehicles.read',
          state: 'd',
        }),
    );
    await page.getByLabel('Email').fill(fleet.admin.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    const to = await arrived;
    assert.equal(to.searchParams.get('error'), 'access_denied');
    assert.equal(to.searchParams.get('state'), 'd');
    await context.close();
  });
});
