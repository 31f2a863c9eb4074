/**
 * A fleet manager whose group visibility is "limited" manages only the vehicles of their groups in the
 * console: others are not listed and not found, only their groups are offered, a new or edited vehicle
 * must stay in one of them, and the groups they cannot see stay on the vehicles they edit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp } from '../../auth/oauth/flows.js';
import { apiVehicle, apiVehicles, assertAlert, consoleAndApi, createGroup, limitedManager } from './manage-helper.js';
import { consoleBrowser } from './kit.js';

eachDialect('console: vehicles of a group-limited fleet manager', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test("a group-limited fleet manager manages only their groups' vehicles and keeps them in view", async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Limited Co');
    const admin = await consoleAndApi(t, fleet, fleet.admin.email);
    const api = admin.api;
    const [mine, theirs] = [await createGroup(api, 'Mine'), await createGroup(api, 'Theirs')];
    const { email } = await limitedManager(t, fleet, api, [mine]);
    const make = async (number: string, group_ids: number[]) =>
      (await api.call({ method: 'POST', url: '/v1/vehicles', payload: { number, group_ids } })).body.vehicle.id;
    const both = await make('L-1', [mine, theirs]);
    const hidden = await make('L-2', [theirs]);
    const { b, csrf } = await consoleBrowser(t, email);

    const list = await b.get('/console/vehicles');
    assert.match(list.body, /1 vehicle</);
    assert.deepEqual(
      [...list.body.matchAll(/<tr data-id="(\d+)"/g)].map((m) => Number(m[1])),
      [both],
    );
    assert.match(list.body, /<td data-label="Groups">Mine<\/td>/, 'only the groups they see');
    assert.equal((await b.get(`/console/vehicles/${hidden}/edit`)).status, 404);
    assert.equal((await b.post(`/console/vehicles/${hidden}/deactivate`, { csrf_token: csrf })).status, 404);
    assert.equal((await apiVehicle(api, hidden)).status, 'active');

    const edit = await b.get(`/console/vehicles/${both}/edit`);
    assert.doesNotMatch(edit.body, new RegExp(`value="${theirs}"`), 'another group is not offered');
    const kept = await b.post(`/console/vehicles/${both}`, {
      csrf_token: csrf,
      number: 'L-1',
      make: 'Kenworth',
      group_ids: String(mine),
    });
    assert.equal(kept.status, 303, kept.body);
    assert.deepEqual((await apiVehicle(api, both)).group_ids, [mine, theirs], 'the group they cannot see stays');
    const leaving = await b.post(`/console/vehicles/${both}`, { csrf_token: csrf, number: 'L-1' });
    assert.equal(leaving.status, 400);
    assertAlert(
      leaving.body,
      'details-error',
      'group_ids must name at least one of your groups: outside them the vehicle would leave your view',
    );
    const outside = await b.post('/console/vehicles', { csrf_token: csrf, number: 'L-3', group_ids: String(theirs) });
    assert.equal(outside.status, 404);
    assertAlert(outside.body, 'details-error', `group ${theirs} not found`);
    const added = await b.post('/console/vehicles', { csrf_token: csrf, number: 'L-3', group_ids: String(mine) });
    assert.equal(added.status, 303, added.body);
    const l3 = (await apiVehicles(api)).find((v) => v.number === 'L-3')!;
    assert.deepEqual(l3.group_ids, [mine]);
    assert.match((await b.get('/console/vehicles')).body, /2 vehicles</);
  });
});
