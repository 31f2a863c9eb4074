/**
 * The console over HTTP: sign-in redirect, pages and assets with their headers, the JSON endpoints,
 * company and group isolation, the dispatch actions through the API's state machine, and CSRF.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../helper.js';
import { Browser, PASSWORD, useOAuthApp, vehicle } from '../oauth/helper.js';
import { createUser, uniq } from '../http/fixtures.js';
import { createDispatch, createLocation } from '../dispatch/fixtures.js';
import { asCompany, consoleBrowser, ingest } from './helper.js';
import { createUser as createAccount } from '../../src/domain/users/service.js';

eachDialect('fleet console over HTTP', (dialect) => {
  const getApp = useOAuthApp(dialect);

  async function dispatchWorld(t: Awaited<ReturnType<typeof getApp>>, fleet = t.fleet) {
    const api = asCompany(t, fleet);
    const driver = await createUser(api);
    const veh = { id: await vehicle(t, fleet) };
    const locations = [];
    for (let i = 0; i < 3; i++) locations.push(await createLocation(api, { name: `Dock ${i}` }));
    return { api, w: { driver, driver2: driver, vehicle: veh, vehicle2: veh, locations } };
  }

  test('signed out: pages redirect to the sign-in page, JSON answers 401', async () => {
    const t = await getApp();
    const b = new Browser(t.app);
    const page = await b.get('/console/dispatches');
    assert.equal(page.status, 303);
    assert.equal(page.headers.location, '/sign-in?return_to=%2Fconsole%2Fdispatches');
    for (const url of [
      '/console/api/vehicles',
      '/console/api/dispatches',
      '/console/api/stream',
      '/console/api/vehicles/1/track',
    ]) {
      const res = await b.get(url);
      assert.equal(res.status, 401, url);
      assert.match(res.json.error_message, /Sign in/);
    }
  });

  test('the map page, its assets and headers', async () => {
    const t = await getApp();
    const { page, b } = await consoleBrowser(t, t.fleet.manager.email);
    assert.match(page.headers['content-security-policy'], /script-src 'self'/);
    assert.doesNotMatch(page.body, /<script>|style=/);
    assert.match(page.body, /<svg id="map"/);
    assert.match(page.body, /<title>IL<\/title>/, 'state outlines are drawn');
    assert.doesNotMatch(page.body, /href="\/fleet\/apps"/, 'a fleet manager has no Apps link');
    const css = await b.get('/console/assets/console.css');
    assert.equal(css.status, 200);
    assert.match(css.headers['content-type'], /^text\/css/);
    const js = await b.get('/console/assets/map.js');
    assert.match(js.headers['content-type'], /^text\/javascript/);
    assert.equal((await b.get('/console/assets/..%2Fpages.ts')).status, 404);
    const admin = await consoleBrowser(t, t.fleet.admin.email);
    assert.match(admin.page.body, /href="\/fleet\/apps"/);
  });

  test('vehicles, track and company isolation', async () => {
    const t = await getApp();
    const id = await vehicle(t);
    await ingest(t, t.fleet, id, [
      { lat: 39.8, lon: -89.7, kph: 80, agoS: 120 },
      { lat: 39.8, lon: -89.6, kph: 85, agoS: 60 },
    ]);
    const { b } = await consoleBrowser(t, t.fleet.admin.email);
    const list = await b.get('/console/api/vehicles');
    assert.equal(list.status, 200);
    const mine = list.json.vehicles.find((v: any) => v.id === id);
    assert.ok(mine, JSON.stringify(list.json));
    assert.equal(mine.lon, -89.6);
    assert.equal(mine.status, 'moving');
    assert.equal((await b.get(`/console/api/vehicles/${id}/track`)).json.track.length, 2);

    const other = await t.newFleet('Other Co');
    const theirs = await consoleBrowser(t, other.admin.email);
    assert.deepEqual((await theirs.b.get('/console/api/vehicles')).json.vehicles, []);
    assert.equal((await theirs.b.get(`/console/api/vehicles/${id}/track`)).status, 404);
  });

  test('a fleet manager with limited group visibility sees only the vehicles of their groups', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Grouped Co');
    const api = asCompany(t, fleet);
    const [inGroup, outside] = [await vehicle(t, fleet), await vehicle(t, fleet)];
    for (const v of [inGroup, outside]) await ingest(t, fleet, v, [{ lat: 41, lon: -95, kph: 0, agoS: 30 }]);
    const email = `limited.${uniq()}@fleet.test`;
    const limited = await createAccount(
      t.db,
      { companyId: fleet.companyId },
      {
        role: 'fleet_user',
        email,
        password: PASSWORD,
        first_name: 'Lim',
        last_name: 'Ited',
        group_visibility: 'limited',
      },
    );
    const group = await api.call({ method: 'POST', url: '/v1/groups', payload: { name: `G ${uniq()}` } });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const gid = group.body.group.id;
    assert.equal(
      (await api.call({ method: 'POST', url: `/v1/groups/${gid}/users`, payload: { ids: [limited.id] } })).status,
      200,
    );
    assert.equal(
      (await api.call({ method: 'POST', url: `/v1/groups/${gid}/vehicles`, payload: { ids: [inGroup] } })).status,
      200,
    );
    const { b } = await consoleBrowser(t, email);
    const seen = (await b.get('/console/api/vehicles')).json.vehicles.map((v: any) => v.id);
    assert.deepEqual(seen, [inGroup]);
    assert.equal((await b.get(`/console/api/vehicles/${outside}/track`)).status, 404);
    const all = await consoleBrowser(t, fleet.manager.email);
    assert.deepEqual(
      (await all.b.get('/console/api/vehicles')).json.vehicles.map((v: any) => v.id).sort(),
      [inGroup, outside].sort(),
    );
  });

  test("dispatch actions go through the state machine with the API's messages; CSRF on every form", async () => {
    const t = await getApp();
    const { api, w } = await dispatchWorld(t);
    const d = await createDispatch(api, w as any);
    const { b, csrf } = await consoleBrowser(t, t.fleet.manager.email);
    const url = `/console/dispatches/${encodeURIComponent(d.vendor_id)}/status`;

    const missing = await b.post(url, { status: 'active' });
    assert.equal(missing.status, 400);
    assert.match(missing.body, /missing CSRF token/);
    const wrong = await b.post(url, { status: 'active', csrf_token: 'x'.repeat(43) });
    assert.equal(wrong.status, 403);
    assert.equal((await b.post('/sign-out', {})).status, 400, 'sign-out needs the token too');
    assert.equal((await b.get('/console/api/dispatches')).json.dispatches[0].status, 'planned');

    const activated = await b.post(url, { status: 'active', csrf_token: csrf });
    assert.equal(activated.status, 303);
    const board = await b.get(activated.headers.location);
    assert.match(board.body, /The dispatch is now active/);
    assert.match(
      board.body,
      new RegExp(`aria-labelledby="col-active"><h2 id="col-active">Active <span class="count">1</span>`),
    );

    const second = await createDispatch(api, w as any);
    const viaApi = await api.call({
      method: 'PUT',
      url: '/v1/dispatches',
      payload: { vendor_id: second.vendor_id, status: 'active' },
    });
    assert.equal(viaApi.status, 400);
    const refused = await b.post(`/console/dispatches/${encodeURIComponent(second.vendor_id)}/status`, {
      status: 'active',
      csrf_token: csrf,
    });
    assert.equal(refused.status, 400);
    assert.ok(refused.body.includes(viaApi.body.error_message.replace(/"/g, '&quot;')), refused.body);

    const other = await t.newFleet('Elsewhere Co');
    const stranger = await consoleBrowser(t, other.admin.email);
    const denied = await stranger.b.post(url, { status: 'cancelled', csrf_token: stranger.csrf });
    assert.equal(denied.status, 404);
    assert.deepEqual((await stranger.b.get('/console/api/dispatches')).json.dispatches, []);
    assert.equal(
      (await b.get('/console/api/dispatches')).json.dispatches.find((x: any) => x.vendor_id === d.vendor_id).status,
      'active',
    );

    assert.equal((await b.post(url, { status: 'completed', csrf_token: csrf })).status, 303);
    assert.equal((await b.post('/sign-out', { csrf_token: csrf })).status, 303);
    assert.equal((await b.get('/console/api/dispatches')).status, 401);
  });

  test('the stream sends the positions at once and again when a vehicle moves; it ends on disconnect', async () => {
    const t = await getApp();
    const id = await vehicle(t);
    await ingest(t, t.fleet, id, [{ lat: 40, lon: -100, kph: 50, agoS: 90 }]);
    const { b } = await consoleBrowser(t, t.fleet.admin.email);
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const abort = new AbortController();
    const res = await fetch(`${address}/console/api/stream`, { headers: { cookie }, signal: abort.signal });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const reader = res.body!.getReader();
    let buffer = '';
    const nextEvent = async () => {
      for (;;) {
        const m = /event: vehicles\ndata: (.*)\n\n/.exec(buffer);
        if (m) {
          buffer = buffer.slice(m.index + m[0].length);
          return JSON.parse(m[1]).vehicles as any[];
        }
        const { value, done } = await reader.read();
        assert.ok(!done, 'the stream ended early');
        buffer += new TextDecoder().decode(value);
      }
    };
    assert.equal((await nextEvent()).find((v) => v.id === id).lon, -100);
    assert.equal(t.app.loadShedding.inFlight(), 0, 'an open live stream is not counted in flight');
    await ingest(t, t.fleet, id, [{ lat: 40, lon: -99.5, kph: 50, agoS: 30 }]);
    assert.equal((await nextEvent()).find((v) => v.id === id).lon, -99.5);
    abort.abort();
    await reader.cancel().catch(() => {});
  });
});
