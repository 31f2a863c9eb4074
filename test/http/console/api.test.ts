/**
 * The console over HTTP: sign-in redirect, pages and assets with their headers, the JSON endpoints
 * (every active vehicle with its state, offline at CONSOLE_OFFLINE_AFTER_MIN, the company's units),
 * company and group isolation, the dispatch actions through the API's state machine, and CSRF.
 * The app runs with CONSOLE_OFFLINE_AFTER_MIN=3, so the setting, not its default, is what is seen.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limitedManager } from './manage-helper.js';
import { eachDialect } from '../../helper.js';
import { Browser, useOAuthApp, vehicle } from '../../auth/oauth/flows.js';
import { createUser, uniq } from '../fixtures.js';
import { createDispatch, createLocation } from '../../domain/dispatch/fixtures.js';
import { asCompany, consoleBrowser, ingest, metricFleet } from './kit.js';
import { fleetChangesAt, fleetState, type FleetView } from '../../../src/http/console/views/fleet.js';
import { loadConfig } from '../../../src/config/index.js';

const OFFLINE_AFTER_MIN = 3;

eachDialect('fleet console over HTTP', (dialect) => {
  const getApp = useOAuthApp(dialect, { CONSOLE_OFFLINE_AFTER_MIN: String(OFFLINE_AFTER_MIN) });

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
    assert.match(page.body, /<div id="map" class="map" role="region" aria-label="Map of the fleet"/);
    // The outlines come as data the map draws (test/http/console/map.test.ts checks them), not in the page.
    assert.equal((await b.get('/console/api/map/outlines')).status, 200);
    assert.doesNotMatch(page.body, /href="\/fleet\/apps"/, 'a fleet manager has no Apps link');
    const css = await b.get('/console/assets/console.css');
    assert.equal(css.status, 200);
    assert.match(css.headers['content-type'], /^text\/css/);
    assert.match(page.body, /<script type="module" src="\/console\/assets\/fleet.js"><\/script>/);
    assert.match(page.body, /<link rel="stylesheet" href="\/console\/assets\/fleet.css">/);
    for (const file of ['fleet.js', 'fleet-list.js', 'map.js', 'map-base.js', 'map-vehicles.js', 'leaflet.js']) {
      const js = await b.get(`/console/assets/${file}`);
      assert.equal(js.status, 200, file);
      assert.match(js.headers['content-type'], /^text\/javascript/);
    }
    assert.match((await b.get('/console/assets/fleet.css')).headers['content-type'], /^text\/css/);
    for (const label of ['Search', 'State', 'Group', 'Driver'])
      assert.match(page.body, new RegExp(`<label for="fleet-\\w+">${label}</label>`), label);
    assert.equal((await b.get('/console/assets/..%2Froutes.ts')).status, 404);
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
    assert.equal(mine.position.lon, -89.6);
    assert.equal(mine.state, 'moving');
    assert.equal((await b.get(`/console/api/vehicles/${id}/track`)).json.track.length, 2);

    const other = await t.newFleet('Other Co');
    const theirs = await consoleBrowser(t, other.admin.email);
    assert.deepEqual((await theirs.b.get('/console/api/vehicles')).json, {
      vehicles: [],
      groups: [],
      units: { speed: 'mph', distance: 'mi' },
      offline_after_min: OFFLINE_AFTER_MIN,
    });
    assert.equal((await theirs.b.get(`/console/api/vehicles/${id}/track`)).status, 404);
  });

  test('a fleet manager with limited group visibility sees only the vehicles of their groups', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Grouped Co');
    const api = asCompany(t, fleet);
    const [inGroup, outside] = [await vehicle(t, fleet), await vehicle(t, fleet)];
    for (const v of [inGroup, outside]) await ingest(t, fleet, v, [{ lat: 41, lon: -95, kph: 0, agoS: 30 }]);
    const { id: limitedId, email } = await limitedManager(t, fleet, api);
    const group = await api.call({ method: 'POST', url: '/v1/groups', payload: { name: `G ${uniq()}` } });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const gid = group.body.group.id;
    assert.equal(
      (await api.call({ method: 'POST', url: `/v1/groups/${gid}/users`, payload: { ids: [limitedId] } })).status,
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

  /** A vehicle created through the API, with a number of the test's choosing (the list sorts by it). */
  async function numbered(api: ReturnType<typeof asCompany>, number: string, fields: Record<string, unknown> = {}) {
    const res = await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number, ...fields } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.vehicle.id as number;
  }

  test('every active vehicle of the company, reported or not, each with its state, in miles and mph', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Whole Fleet Co');
    const api = asCompany(t, fleet);
    const moving = await numbered(api, 'W-1', { year: '2021', make: 'Kenworth', model: 'T680' });
    const idling = await numbered(api, 'W-2');
    const stopped = await numbered(api, 'W-3');
    const silent = await numbered(api, 'W-4');
    const never = await numbered(api, 'W-10');
    const retired = await numbered(api, 'W-5');
    const put = await api.call({ method: 'PUT', url: `/v1/vehicles/${retired}`, payload: { status: 'deactivated' } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const group = await api.call({ method: 'POST', url: '/v1/groups', payload: { name: 'West' } });
    const gid = group.body.group.id;
    const members = { method: 'POST' as const, url: `/v1/groups/${gid}/vehicles`, payload: { ids: [moving, never] } };
    assert.equal((await api.call(members)).status, 200);
    const { b } = await consoleBrowser(t, fleet.manager.email);
    const [movingAt] = await ingest(t, fleet, moving, [{ lat: 32, lon: -107.45, kph: 80, agoS: 20, bearing: 135 }], {
      driverId: fleet.driver.id,
    });
    const [idlingAt] = await ingest(t, fleet, idling, [{ lat: 39.8, lon: -89.6, kph: 0, agoS: 20, ignition: true }]);
    const [stoppedAt] = await ingest(t, fleet, stopped, [{ lat: 39.8, lon: -89.7, kph: 0, agoS: 20, bearing: 0 }]);
    // The tracker went silent at 94 km/h three and a half minutes ago: offline, and no speed.
    const [silentAt] = await ingest(t, fleet, silent, [{ lat: 41, lon: -95, kph: 94, agoS: 210 }]);

    const res = await b.get('/console/api/vehicles');
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const at = (lat: number, lon: number, bearing: number, located_at: string, place: string) => ({
      lat,
      lon,
      bearing,
      located_at,
      place,
    });
    const none = { driver: null, group_ids: [], name: null };
    assert.deepEqual(res.json, {
      vehicles: [
        {
          id: moving,
          number: 'W-1',
          name: '2021 Kenworth T680',
          driver: { id: fleet.driver.id, name: 'Pat driver' },
          group_ids: [gid],
          state: 'moving',
          status: 'Moving · 50 mph',
          speed: 50,
          position: at(32, -107.45, 135, movingAt, '25.9 mi SE of Deming, NM'),
        },
        {
          id: idling,
          number: 'W-2',
          ...none,
          state: 'idling',
          status: 'Idling',
          speed: 0,
          position: at(39.8, -89.6, 90, idlingAt, '2.3 mi E of Springfield, IL'),
        },
        {
          id: stopped,
          number: 'W-3',
          ...none,
          state: 'stopped',
          status: 'Stopped',
          speed: 0,
          position: at(39.8, -89.7, 0, stoppedAt, '3.0 mi W of Springfield, IL'),
        },
        {
          id: silent,
          number: 'W-4',
          ...none,
          state: 'offline',
          status: 'Offline · last seen 3 min ago',
          speed: null,
          position: at(41, -95, 90, silentAt, '11.8 mi E of Red Oak, IA'),
        },
        {
          id: never,
          number: 'W-10',
          ...none,
          group_ids: [gid],
          state: 'never_reported',
          status: 'Never reported',
          speed: null,
          position: null,
        },
      ],
      groups: [{ id: gid, name: 'West' }],
      units: { speed: 'mph', distance: 'mi' },
      offline_after_min: OFFLINE_AFTER_MIN,
    });
    // The place is the API's description of the same position.
    const wire = await api.call({ method: 'GET', url: '/v1/vehicle_locations?per_page=100' });
    for (const v of (res.json as FleetView).vehicles.filter((x) => x.position)) {
      const w = wire.body.vehicles.find((x: any) => x.vehicle.id === v.id).vehicle;
      assert.equal(v.position!.place, w.current_location.description, v.number);
    }
  });

  test('a vehicle is offline once its last position is CONSOLE_OFFLINE_AFTER_MIN old, not a millisecond before', async () => {
    assert.equal(loadConfig({}).consoleOfflineAfterMin, 10, 'the default');
    assert.throws(
      () => loadConfig({ CONSOLE_OFFLINE_AFTER_MIN: '0' }),
      /CONSOLE_OFFLINE_AFTER_MIN must be between 1 and 10080, got 0/,
    );
    const fix = { located_at: '2026-11-28T12:00:00.000Z', type: 'vehicle_moving', engine: 'on' } as any;
    const t0 = Date.parse(fix.located_at);
    const limit = OFFLINE_AFTER_MIN * 60_000;
    assert.equal(fleetState(fix, t0 + limit - 1, OFFLINE_AFTER_MIN), 'moving');
    assert.equal(fleetState(fix, t0 + limit, OFFLINE_AFTER_MIN), 'offline');
    assert.equal(fleetState(undefined, t0, OFFLINE_AFTER_MIN), 'never_reported');

    const t = await getApp();
    const fleet = await t.newFleet('Boundary Co');
    const api = asCompany(t, fleet);
    const [fresh, stale] = [await numbered(api, 'B-1'), await numbered(api, 'B-2')];
    const { b } = await consoleBrowser(t, fleet.admin.email);
    // Ten seconds inside the threshold (the request follows within them), and exactly at it.
    await ingest(t, fleet, fresh, [{ lat: 40, lon: -100, kph: 97, agoS: OFFLINE_AFTER_MIN * 60 - 10 }]);
    await ingest(t, fleet, stale, [{ lat: 40, lon: -100, kph: 97, agoS: OFFLINE_AFTER_MIN * 60 }]);
    const got = (await b.get('/console/api/vehicles')).json as FleetView;
    assert.deepEqual(
      got.vehicles.map((v) => [v.number, v.state, v.speed, v.status]),
      [
        ['B-1', 'moving', 60, 'Moving · 60 mph'],
        ['B-2', 'offline', null, 'Offline · last seen 3 min ago'],
      ],
    );

    // The live stream sends again, with no new position, when the first of these moments comes.
    const seen = (v: FleetView['vehicles'][number]) => Date.parse(v.position!.located_at);
    const now = seen(got.vehicles[1]) + limit + 30_000;
    assert.equal(
      fleetChangesAt(got, now),
      Math.min(seen(got.vehicles[0]) + limit, seen(got.vehicles[1]) + limit + 60_000),
    );
    assert.equal(fleetChangesAt({ ...got, vehicles: [got.vehicles[1]] }, now), seen(got.vehicles[1]) + limit + 60_000);
    assert.equal(fleetChangesAt({ ...got, vehicles: [] }, now), Infinity);
  });

  test('a metric company sees km/h and kilometres', async () => {
    const t = await getApp();
    const fleet = await metricFleet(t);
    const id = await numbered(asCompany(t, fleet), 'M-1');
    const [locatedAt] = await ingest(t, fleet, id, [{ lat: 32, lon: -107.45, kph: 80, agoS: 20, bearing: 135 }]);
    const { b } = await consoleBrowser(t, fleet.admin.email);
    const got = (await b.get('/console/api/vehicles')).json;
    assert.deepEqual(got.units, { speed: 'km/h', distance: 'km' });
    assert.deepEqual(got.vehicles, [
      {
        id,
        number: 'M-1',
        name: null,
        driver: null,
        group_ids: [],
        state: 'moving',
        status: 'Moving · 80 km/h',
        speed: 80,
        position: { lat: 32, lon: -107.45, bearing: 135, located_at: locatedAt, place: '41.7 km SE of Deming, NM' },
      },
    ]);
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
    assert.equal((await nextEvent()).find((v) => v.id === id).position.lon, -100);
    assert.equal(t.app.loadShedding.inFlight(), 0, 'an open live stream is not counted in flight');
    await ingest(t, t.fleet, id, [{ lat: 40, lon: -99.5, kph: 50, agoS: 30 }]);
    assert.equal((await nextEvent()).find((v) => v.id === id).position.lon, -99.5);
    abort.abort();
    await reader.cancel().catch(() => {});
  });
});
