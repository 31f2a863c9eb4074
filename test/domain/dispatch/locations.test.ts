/** /v1/dispatch_locations: every field incl. phone, geocoded or not, named by vendor_id, bad input changes nothing. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, assertKeySet, assertList, createUser, createVehicle, totalOf } from '../../http/fixtures.js';
import { LOCATION_KEYS, createLocation, dispatchBody, scoped } from './fixtures.js';

eachDialect('dispatch locations', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;

  before(async () => {
    t = await getApp();
  });

  async function refused(
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload: unknown,
    message: string | RegExp,
    status = 400,
  ) {
    const before = await t.call({ method: 'GET', url: '/v1/dispatch_locations?per_page=100' });
    // A string payload is sent as a JSON string, not as text.
    const json =
      typeof payload === 'string'
        ? { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }
        : { payload: payload as any };
    const res = await t.call({ method, url, ...json });
    assertError(res, status, message);
    const after = await t.call({ method: 'GET', url: '/v1/dispatch_locations?per_page=100' });
    assert.deepEqual(after.body, before.body, 'the list is unchanged');
  }

  test('POST a geocoded location: 201, wrapped, every field including phone', async () => {
    const payload = {
      vendor_id: 'VDSL-1',
      name: 'Acme DC',
      address1: '1200 Commerce Pkwy',
      address2: 'Dock 4',
      city: 'Columbus',
      state: 'OH',
      zip: '43215',
      country: 'US',
      lat: 39.9612,
      lon: -82.9988,
      arrive_radius: 0.25,
      depart_radius: 0.5,
      phone: '+1 614 555 0100',
    };
    const res = await t.call({ method: 'POST', url: '/v1/dispatch_locations', payload });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body), ['dispatch_location']);
    const l = res.body.dispatch_location;
    assertKeySet(l, LOCATION_KEYS, 'dispatch_location');
    assert.deepEqual({ ...l, id: undefined }, { ...payload, id: undefined });
    const list = assertList(
      await t.call({ method: 'GET', url: '/v1/dispatch_locations' }),
      'dispatch_locations',
      'dispatch_location',
    );
    assert.deepEqual(
      list.find((x) => x.id === l.id),
      l,
    );
  });

  test('POST a non-geocoded location: lat, lon and radii are null', async () => {
    const l = await createLocation(t, { vendor_id: 'VDSL-2', phone: null });
    for (const k of ['lat', 'lon', 'arrive_radius', 'depart_radius', 'address2', 'zip', 'phone'])
      assert.equal(l[k], null, k);
  });

  test('POST requires name, address1, city, state and country', async () => {
    const full = { name: 'N', address1: 'A', city: 'C', state: 'S', country: 'US' };
    for (const f of Object.keys(full)) {
      const { [f]: _, ...rest } = full as Record<string, string>;
      await refused('POST', '/v1/dispatch_locations', rest, `${f} is required`);
    }
    await refused('POST', '/v1/dispatch_locations', { ...full, name: '  ' }, 'name must not be empty');
  });

  test('POST geocoding rules: lat and lon together, radii only when geocoded, ranges', async () => {
    const base = { name: 'N', address1: 'A', city: 'C', state: 'S', country: 'US' };
    await refused('POST', '/v1/dispatch_locations', { ...base, lat: 40 }, /^lon is required when lat is given/);
    await refused('POST', '/v1/dispatch_locations', { ...base, lon: -80 }, /^lat is required when lon is given/);
    await refused('POST', '/v1/dispatch_locations', { ...base, arrive_radius: 1 }, /^arrive_radius needs lat and lon/);
    await refused('POST', '/v1/dispatch_locations', { ...base, lat: 91, lon: 0 }, 'lat must be at most 90');
    await refused('POST', '/v1/dispatch_locations', { ...base, lat: 1, lon: 1, depart_radius: 0 }, /depart_radius/);
    await refused('POST', '/v1/dispatch_locations', { ...base, phone: 5 }, 'phone must be a string');
  });

  test('POST duplicate vendor_id → 400; the same vendor_id in another company is fine', async () => {
    await createLocation(t, { vendor_id: 'DUP-1' });
    await refused(
      'POST',
      '/v1/dispatch_locations',
      { vendor_id: 'DUP-1', name: 'N', address1: 'A', city: 'C', state: 'S', country: 'US' },
      'vendor_id "DUP-1" is already taken',
    );
    const other = await t.newCompany('Other');
    const l = await createLocation(t, { vendor_id: 'DUP-1' }, other);
    assert.equal(l.vendor_id, 'DUP-1');
  });

  test('PUT names the location by vendor_id in the body; only sent fields change', async () => {
    const l = await createLocation(t, { vendor_id: 'PUT-1', phone: '111' });
    const res = await t.call({
      method: 'PUT',
      url: '/v1/dispatch_locations',
      payload: { vendor_id: 'PUT-1', phone: '222', lat: 41, lon: -81, arrive_radius: 0.3 },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.dispatch_location, { ...l, phone: '222', lat: 41, lon: -81, arrive_radius: 0.3 });
  });

  test('PUT names it by vendor_id or id in the query string, or by /:id; then vendor_id renames', async () => {
    const l = await createLocation(t, { vendor_id: 'Q-1' });
    let res = await t.call({
      method: 'PUT',
      url: '/v1/dispatch_locations?vendor_id=Q-1',
      payload: { name: 'Renamed', vendor_id: 'Q-2' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.dispatch_location.vendor_id, 'Q-2');
    res = await t.call({ method: 'PUT', url: `/v1/dispatch_locations?id=${l.id}`, payload: { city: 'Dayton' } });
    assert.equal(res.body.dispatch_location.city, 'Dayton');
    res = await t.call({
      method: 'PUT',
      url: `/v1/dispatch_locations/${l.id}`,
      payload: { vendor_id: 'Q-3', lat: null, lon: null },
    });
    assert.deepEqual(res.body.dispatch_location, { ...l, vendor_id: 'Q-3', name: 'Renamed', city: 'Dayton' });
  });

  test('PUT bad input → 400/404 naming the problem, nothing changed', async () => {
    await createLocation(t, { vendor_id: 'BAD-1', lat: 40, lon: -80 });
    await createLocation(t, { vendor_id: 'BAD-2' });
    await refused(
      'PUT',
      '/v1/dispatch_locations',
      { vendor_id: 'NOPE', name: 'x' },
      'dispatch location with vendor_id "NOPE" not found',
      404,
    );
    await refused(
      'PUT',
      '/v1/dispatch_locations',
      { name: 'x' },
      /^vendor_id is required to name the dispatch location/,
    );
    await refused(
      'PUT',
      '/v1/dispatch_locations',
      { vendor_id: 'BAD-1', lon: null },
      /^lon is required when lat is given/,
    );
    await refused(
      'PUT',
      '/v1/dispatch_locations',
      { vendor_id: 'BAD-2', depart_radius: 1 },
      /^depart_radius needs lat and lon/,
    );
    await refused(
      'PUT',
      '/v1/dispatch_locations?vendor_id=BAD-1',
      { vendor_id: 'BAD-2' },
      'vendor_id "BAD-2" is already taken',
    );
    await refused(
      'PUT',
      '/v1/dispatch_locations',
      [{ vendor_id: 'BAD-1' }],
      'body must be a single JSON object, but it was an array',
    );
    await refused('PUT', '/v1/dispatch_locations', 'BAD-1', 'body must be a single JSON object, but it was a string');
    await refused('PUT', '/v1/dispatch_locations/999999', { name: 'x' }, 'dispatch location 999999 not found', 404);
  });

  test('DELETE by vendor_id in the query or body → {"success": true}; the location leaves the list', async () => {
    const a = await createLocation(t, { vendor_id: 'DEL-1' });
    const b = await createLocation(t, { vendor_id: 'DEL-2' });
    const total = await totalOf(t, '/v1/dispatch_locations');
    let res = await t.call({ method: 'DELETE', url: '/v1/dispatch_locations?vendor_id=DEL-1' });
    assert.deepEqual([res.status, res.body], [200, { success: true }]);
    res = await t.call({ method: 'DELETE', url: '/v1/dispatch_locations', payload: { vendor_id: 'DEL-2' } });
    assert.deepEqual([res.status, res.body], [200, { success: true }]);
    assert.equal(await totalOf(t, '/v1/dispatch_locations'), total - 2);
    const list = assertList(
      await t.call({ method: 'GET', url: '/v1/dispatch_locations?per_page=100' }),
      'dispatch_locations',
      'dispatch_location',
    );
    assert.ok(!list.some((l) => l.id === a.id || l.id === b.id));
    await refused(
      'DELETE',
      '/v1/dispatch_locations?vendor_id=DEL-1',
      undefined,
      'dispatch location with vendor_id "DEL-1" not found',
      404,
    );
    const again = await createLocation(t, { vendor_id: 'DEL-1' });
    assert.notEqual(again.id, a.id, 'a deleted vendor_id may be used again');
  });

  test('DELETE is refused while a planned or active dispatch stops there', async () => {
    const [driver, vehicle] = [await createUser(t), await createVehicle(t)];
    const here = await createLocation(t, { vendor_id: 'USED-1' });
    const there = await createLocation(t);
    const w = { driver, driver2: driver, vehicle, vehicle2: vehicle, locations: [here, there, there] };
    const res = await t.call({
      method: 'POST',
      url: '/v1/dispatches',
      payload: dispatchBody(w, { vendor_id: 'USES-1' }),
    });
    assert.equal(res.status, 201);
    await refused(
      'DELETE',
      '/v1/dispatch_locations?vendor_id=USED-1',
      undefined,
      /^dispatch location with vendor_id "USED-1" is used by a stop of dispatch "USES-1"/,
    );
    await t.call({ method: 'PUT', url: '/v1/dispatches', payload: { vendor_id: 'USES-1', status: 'cancelled' } });
    const ok = await t.call({ method: 'DELETE', url: '/v1/dispatch_locations?vendor_id=USED-1' });
    assert.equal(ok.status, 200);
    const d = await t.call({ method: 'GET', url: '/v1/dispatches?vendor_ids=USES-1' });
    assert.equal(
      d.body.dispatches[0].dispatch.vendor_shipper_dispatch_location_id,
      'USED-1',
      'the past dispatch still shows it',
    );
  });

  test('create, change and delete are events in the outbox', async () => {
    const l = await createLocation(t, { vendor_id: 'EV-1' });
    await t.call({ method: 'PUT', url: '/v1/dispatch_locations', payload: { vendor_id: 'EV-1', phone: '1' } });
    await t.call({ method: 'DELETE', url: '/v1/dispatch_locations?vendor_id=EV-1' });
    const rows = await t.db.kysely
      .selectFrom('domain_events')
      .select(['action', 'trigger'])
      .where('subject_type', '=', 'dispatch_location')
      .where('subject_id', '=', String(l.id))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.action, r.trigger]),
      [
        ['dispatch_location_upserted', 'created'],
        ['dispatch_location_upserted', 'updated'],
        ['dispatch_location_deleted', null],
      ],
    );
  });

  test("another company's location is not found", async () => {
    const other = await t.newCompany('Elsewhere');
    await createLocation(t, { vendor_id: 'MINE-1' });
    const res = await t.call({
      method: 'PUT',
      url: '/v1/dispatch_locations',
      payload: { vendor_id: 'MINE-1', name: 'x' },
      as: other,
    });
    assertError(res, 404, 'dispatch location with vendor_id "MINE-1" not found');
    assert.equal(await totalOf(t, '/v1/dispatch_locations', other), 0);
  });

  test('scopes: GET needs dispatch_locations.read, writes need dispatch_locations.manage', async () => {
    const reader = scoped(t.company, 'dispatch_locations.read');
    assert.equal((await t.call({ method: 'GET', url: '/v1/dispatch_locations', as: reader })).status, 200);
    const w = await t.call({
      method: 'POST',
      url: '/v1/dispatch_locations',
      as: reader,
      payload: { name: 'N', address1: 'A', city: 'C', state: 'S', country: 'US' },
    });
    assertError(w, 403, /dispatch_locations\.manage/);
    for (const method of ['PUT', 'DELETE'] as const) {
      assertError(
        await t.call({ method, url: '/v1/dispatch_locations?vendor_id=x', as: reader }),
        403,
        /dispatch_locations\.manage/,
      );
    }
    const other = scoped(t.company, 'dispatches.manage');
    assertError(
      await t.call({ method: 'GET', url: '/v1/dispatch_locations', as: other }),
      403,
      /dispatch_locations\.read/,
    );
    const manager = scoped(t.company, 'dispatch_locations.manage');
    assert.equal((await t.call({ method: 'GET', url: '/v1/dispatch_locations', as: manager })).status, 200);
  });
});
