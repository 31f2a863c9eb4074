/**
 * Geofences in the console over HTTP: draw a circle, a refused polygon (the API's own message for the
 * same body, what was drawn kept), edit, delete after the confirmation step, each change read back
 * through /v1/geofences; the CSRF token on every post; a group-limited fleet manager sees the
 * geofences and is refused every change.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { inputValue, useOAuthApp } from '../../auth/oauth/flows.js';
import { apiRefusal, assertAlert, consoleAndApi, limitedManager } from './manage-helper.js';
import { consoleBrowser } from './kit.js';

const DETAILS = { name: 'Depot', category: 'yard', status: 'active', description: '', address: '1 Dock Rd' };
const SQUARE = [
  { lat: 41.5, lon: -88.1 },
  { lat: 41.5, lon: -88.0 },
  { lat: 41.6, lon: -88.0 },
  { lat: 41.6, lon: -88.1 },
];

eachDialect('console: geofences', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('draw a circle, a refused polygon, edit, delete after confirming: the API reads every change', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Fence Freight');
    const { b, csrf, api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const list = await b.get('/console/geofences');
    assert.equal(list.status, 200);
    assert.match(list.body, /<a href="\/console\/geofences" aria-current="page">Geofences<\/a>/);
    assert.match(list.body, /No geofences yet\./);

    const circle = {
      ...DETAILS,
      shape: 'circle',
      center: JSON.stringify({ lat: 41.52, lon: -88.08 }),
      radius_m: '750',
    };
    const created = await b.post('/console/geofences', { csrf_token: csrf, ...circle });
    assert.equal(created.status, 303, created.body);
    assert.equal(created.headers.location, '/console/geofences?done=created');
    const listed = (await api.call({ method: 'GET', url: '/v1/geofences' })).body.geofences;
    assert.equal(listed.length, 1);
    const g = listed[0].geofence;
    assert.deepEqual(
      { name: g.name, category: g.category, address: g.address, description: g.description, shape: g.shape },
      { name: 'Depot', category: 'yard', address: '1 Dock Rd', description: null, shape: 'circle' },
    );
    assert.deepEqual([g.center, g.radius_m, g.location_points], [{ lat: 41.52, lon: -88.08 }, 750, []]);
    const after = await b.get('/console/geofences?done=created');
    assert.match(after.body, /<p role="status" class="notice">The geofence was created\.<\/p>/);
    assert.match(after.body, /Circle, 750 m radius/);

    // A polygon of two points: the API's own refusal for the same body, and the drawing kept.
    const two = SQUARE.slice(0, 2);
    const refused = await b.post('/console/geofences', {
      csrf_token: csrf,
      ...DETAILS,
      name: 'Line',
      shape: 'polygon',
      location_points: JSON.stringify(two),
    });
    const apiSays = await apiRefusal(api, 'POST', '/v1/geofences', { name: 'Line', location_points: two });
    assert.equal(refused.status, apiSays.status);
    assertAlert(refused.body, 'form-error', apiSays.message);
    assert.equal(inputValue(refused.body, 'location_points'), JSON.stringify(two));
    assert.equal(inputValue(refused.body, 'name'), 'Line');
    const nothing = await b.post('/console/geofences', { csrf_token: csrf, ...DETAILS, shape: 'polygon' });
    const apiNothing = await apiRefusal(api, 'POST', '/v1/geofences', { name: 'Depot' });
    assert.equal(nothing.status, apiNothing.status);
    assertAlert(nothing.body, 'form-error', apiNothing.message);
    const bad = await b.post('/console/geofences', {
      csrf_token: csrf,
      ...DETAILS,
      shape: 'circle',
      center: '{"lat":"x"}',
      radius_m: '10',
    });
    assert.equal(
      bad.status,
      (await apiRefusal(api, 'POST', '/v1/geofences', { name: 'D', center: { lat: 'x' }, radius_m: 10 })).status,
    );
    assert.equal(
      (await api.call({ method: 'GET', url: '/v1/geofences' })).body.geofences.length,
      1,
      'nothing else was created',
    );

    // Edit: a polygon now, with a new name.
    const form = await b.get(`/console/geofences/${g.id}/edit`);
    assert.equal(form.status, 200);
    assert.equal(inputValue(form.body, 'center'), JSON.stringify({ lat: 41.52, lon: -88.08 }));
    const saved = await b.post(`/console/geofences/${g.id}`, {
      csrf_token: csrf,
      ...DETAILS,
      name: 'Main depot',
      shape: 'polygon',
      location_points: JSON.stringify(SQUARE),
    });
    assert.equal(saved.status, 303, saved.body);
    const edited = (await api.call({ method: 'GET', url: `/v1/geofences/${g.id}` })).body.geofence;
    assert.deepEqual(
      [edited.name, edited.shape, edited.location_points, edited.center],
      ['Main depot', 'polygon', SQUARE, null],
    );

    // Delete: the confirmation step, a post without the token refused, then the deletion.
    const confirm = await b.get(`/console/geofences/${g.id}/delete`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /<h1 id="confirm-title">Delete Main depot\?<\/h1>/);
    const forged = await b.post(`/console/geofences/${g.id}/delete`, {});
    assert.ok(forged.status === 400 || forged.status === 403, String(forged.status));
    assert.equal((await api.call({ method: 'GET', url: `/v1/geofences/${g.id}` })).status, 200, 'still there');
    const deleted = await b.post(`/console/geofences/${g.id}/delete`, { csrf_token: csrf });
    assert.equal(deleted.status, 303);
    assert.equal(deleted.headers.location, '/console/geofences?done=deleted');
    assert.equal((await api.call({ method: 'GET', url: `/v1/geofences/${g.id}` })).status, 404);
    assert.equal((await b.get(`/console/geofences/${g.id}/edit`)).status, 404);
  });

  test('a group-limited fleet manager sees the geofences and changes none', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Fence Limited Co');
    const { api } = await consoleAndApi(t, fleet, fleet.admin.email);
    const g = (
      await api.call({ method: 'POST', url: '/v1/geofences', payload: { name: 'Yard', location_points: SQUARE } })
    ).body.geofence;
    const { email } = await limitedManager(t, fleet, api);
    const { b, csrf } = await consoleBrowser(t, email);
    const list = await b.get('/console/geofences');
    assert.equal(list.status, 200);
    assert.match(list.body, />Yard</);
    assert.doesNotMatch(list.body, /Draw a geofence|\/edit"/);
    assert.equal((await b.get('/console/geofences/new')).status, 403);
    assert.equal((await b.get(`/console/geofences/${g.id}/edit`)).status, 403);
    const post = await b.post('/console/geofences', {
      csrf_token: csrf,
      ...DETAILS,
      shape: 'polygon',
      location_points: JSON.stringify(SQUARE),
    });
    assert.equal(post.status, 403);
    const del = await b.post(`/console/geofences/${g.id}/delete`, { csrf_token: csrf });
    assert.equal(del.status, 403);
    assert.equal((await api.call({ method: 'GET', url: '/v1/geofences' })).body.geofences.length, 1);
  });
});
