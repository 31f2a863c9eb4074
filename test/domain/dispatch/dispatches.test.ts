/** POST and GET /v1/dispatches: the wire shape, filters, auto_complete_forms, bad input changes nothing, scopes. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import {
  DATETIME,
  USER_SUMMARY_KEYS,
  assertError,
  assertKeySet,
  assertList,
  createUser,
  createVehicle,
} from '../../http/fixtures.js';
import {
  DISPATCH_KEYS,
  STOP_KEYS,
  createDispatch,
  createLocation,
  dispatchBody,
  events,
  scoped,
  stopOrder,
  world,
  type World,
} from './fixtures.js';

eachDialect('dispatches v1: create and list', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let w: World;

  before(async () => {
    t = await getApp();
    w = await world(t);
  });

  /** The whole list, to compare before and after a refused write. */
  const snapshot = async () => (await t.call({ method: 'GET', url: '/v1/dispatches?per_page=100' })).body;

  async function refusedPost(payload: unknown, message: string | RegExp, raw = false) {
    const before = await snapshot();
    const res = raw
      ? await t.call({
          method: 'POST',
          url: '/v1/dispatches',
          payload: JSON.stringify(payload),
          headers: { 'content-type': 'application/json' },
        })
      : await t.call({ method: 'POST', url: '/v1/dispatches', payload: payload as any });
    assertError(res, 400, message);
    assert.deepEqual(await snapshot(), before, 'the list is unchanged');
  }

  test('POST: 201, wrapped, every key; shipper, dispatch stops and consignee in order', async () => {
    const body = dispatchBody(w, { auto_complete_forms: true, shipper_type: 'pickup', consignee_type: 'dropoff' }, 2);
    body.dispatch_stops[0] = {
      ...body.dispatch_stops[0],
      type: 'PU',
      driver_load: true,
      early_date: '2019-01-13T19:13:00+00:00',
      late_date: '2019-01-15T14:13:00-05:00',
    };
    const res = await t.call({ method: 'POST', url: '/v1/dispatches', payload: body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['dispatch']);
    const d = res.body.dispatch;
    assertKeySet(d, DISPATCH_KEYS, 'dispatch');
    assert.equal(d.vendor_id, body.vendor_id);
    assert.equal(d.status, 'planned');
    assert.equal(d.auto_complete_forms, true);
    assert.deepEqual([d.driver_id, d.vehicle_id], [w.driver.id, w.vehicle.id]);
    assertKeySet(d.driver, USER_SUMMARY_KEYS, 'driver');
    assert.equal(d.vehicle.id, w.vehicle.id);
    assert.deepEqual(stopOrder(d), [
      body.vendor_shipper_id,
      `${body.vendor_id}-M1`,
      `${body.vendor_id}-M2`,
      body.vendor_consignee_id,
    ]);
    assert.deepEqual(
      [
        d.shipper_dispatch_location_id,
        d.vendor_shipper_dispatch_location_id,
        d.shipper_type,
        d.shipper_status,
        d.shipper_form_ids,
      ],
      [w.locations[0].id, w.locations[0].vendor_id, 'pickup', 'available', []],
    );
    assert.deepEqual(
      [d.consignee_dispatch_location_id, d.vendor_consignee_dispatch_location_id, d.consignee_type],
      [w.locations[1].id, w.locations[1].vendor_id, 'dropoff'],
    );
    const s = d.dispatch_stops[0];
    assert.deepEqual(Object.keys(s), ['dispatch_stop']);
    assertKeySet(s.dispatch_stop, STOP_KEYS, 'dispatch_stop');
    assert.deepEqual(
      { ...s.dispatch_stop, id: 0 },
      {
        id: 0,
        vendor_id: `${body.vendor_id}-M1`,
        number: 1,
        type: 'PU',
        status: 'available',
        dispatch_location_id: w.locations[2].id,
        vendor_dispatch_location_id: w.locations[2].vendor_id,
        form_ids: [],
        early_date: '2019-01-13T19:13:00Z',
        late_date: '2019-01-15T19:13:00Z',
        driver_load: true,
        bill_of_lading: null,
        refno: null,
        pallets: null,
        pieces: null,
        weight: null,
        volume: null,
        comments: null,
      },
    );
    assert.equal(d.dispatch_stops[1].dispatch_stop.number, 2);
    assert.match(d.created_at, DATETIME);
    const listed = assertList(
      await t.call({ method: 'GET', url: `/v1/dispatches?ids[]=${d.id}` }),
      'dispatches',
      'dispatch',
    );
    assert.deepEqual(listed, [d], 'GET shows what POST answered');
  });

  test('POST without dispatch stops, active from the start; auto_complete_forms defaults to false', async () => {
    const d = await createDispatch(t, w, { status: 'active', driver_id: w.driver2.id }, 0);
    assert.equal(d.status, 'active');
    assert.deepEqual(d.dispatch_stops, []);
    assert.equal(d.auto_complete_forms, false);
    await t.call({ method: 'PUT', url: '/v1/dispatches', payload: { vendor_id: d.vendor_id, status: 'cancelled' } });
  });

  test('GET filters ids and vendor_ids in every array syntax, paginates, is tenant-scoped', async () => {
    const a = await createDispatch(t, w);
    const b = await createDispatch(t, w);
    const c = await createDispatch(t, w);
    const ids = (q: string) =>
      t
        .call({ method: 'GET', url: `/v1/dispatches?${q}` })
        .then((r) => assertList(r, 'dispatches', 'dispatch').map((d) => d.id));
    assert.deepEqual(await ids(`ids[]=${a.id}&ids[]=${c.id}`), [a.id, c.id]);
    assert.deepEqual(await ids(`ids=${a.id},${b.id}`), [a.id, b.id]);
    assert.deepEqual(await ids(`ids[0]=${b.id}`), [b.id]);
    assert.deepEqual(await ids(`ids=${c.id}&ids=${b.id}`), [b.id, c.id]);
    assert.deepEqual(await ids(`vendor_ids[]=${a.vendor_id}&vendor_ids[]=${b.vendor_id}`), [a.id, b.id]);
    assert.deepEqual(await ids(`vendor_ids=${c.vendor_id}`), [c.id]);
    assert.deepEqual(await ids(`vendor_ids=${a.vendor_id}&ids=${b.id}`), [], 'both filters apply');
    const page = await t.call({
      method: 'GET',
      url: `/v1/dispatches?ids=${a.id},${b.id},${c.id}&per_page=2&page_no=2`,
    });
    assert.deepEqual(page.body.pagination, { per_page: 2, page_no: 2, total: 3 });
    assert.deepEqual(
      page.body.dispatches.map((x: any) => x.dispatch.id),
      [c.id],
    );
    const other = await t.newCompany('Other');
    const res = await t.call({ method: 'GET', url: `/v1/dispatches?ids=${a.id}`, as: other });
    assert.deepEqual(res.body.dispatches, []);
  });

  test('fewer than two stops → 400 naming the missing stop', async () => {
    const body = dispatchBody(w);
    const { vendor_consignee_id: _c, consignee_dispatch_location_id: _l, ...noConsignee } = body;
    await refusedPost(noConsignee, /^vendor_consignee_id is required: every stop has a vendor_id/);
    const only = { vendor_id: 'X-1', driver_id: w.driver.id, vehicle_id: w.vehicle.id };
    await refusedPost(
      only,
      /^vendor_shipper_id is required: a dispatch has at least two stops, a shipper and a consignee/,
    );
    await refusedPost({ ...body, vendor_consignee_id: undefined }, /^vendor_consignee_id is required/);
    const { consignee_dispatch_location_id: _x, ...noLocation } = body;
    await refusedPost(
      noLocation,
      /^consignee_dispatch_location_id \(or vendor_consignee_dispatch_location_id\) is required/,
    );
  });

  test('a stop naming an unknown dispatch location → 400 naming the member', async () => {
    await refusedPost(
      { ...dispatchBody(w), vendor_shipper_dispatch_location_id: 'NOWHERE' },
      'vendor_shipper_dispatch_location_id names no dispatch location of this company ("NOWHERE")',
    );
    await refusedPost(
      { ...dispatchBody(w), consignee_dispatch_location_id: 999999 },
      'consignee_dispatch_location_id names no dispatch location of this company (999999)',
    );
    const body = dispatchBody(w);
    body.dispatch_stops = [{ vendor_id: 'M', vendor_dispatch_location_id: 'NOWHERE' }];
    await refusedPost(
      body,
      'dispatch_stops[0].vendor_dispatch_location_id names no dispatch location of this company ("NOWHERE")',
    );
    const other = await t.newCompany('Theirs');
    const theirs = await createLocation(t, {}, other);
    await refusedPost(
      { ...dispatchBody(w), consignee_dispatch_location_id: theirs.id },
      `consignee_dispatch_location_id names no dispatch location of this company (${theirs.id})`,
    );
  });

  test('a driver or vehicle of another company, or a user who is not a driver → 400', async () => {
    const other = await t.newCompany('Rivals');
    const theirDriver = await createUser(t, {}, other);
    const theirVehicle = await createVehicle(t, {}, other);
    const admin = await createUser(t, { role: 'admin' });
    await refusedPost(
      dispatchBody(w, { driver_id: theirDriver.id }),
      `driver_id names no user of this company (${theirDriver.id})`,
    );
    await refusedPost(
      dispatchBody(w, { vehicle_id: theirVehicle.id }),
      `vehicle_id names no vehicle of this company (${theirVehicle.id})`,
    );
    await refusedPost(
      dispatchBody(w, { driver_id: admin.id }),
      `driver_id must name a driver; user ${admin.id} is a admin`,
    );
    await refusedPost(dispatchBody(w, { driver_id: undefined }), 'driver_id is required');
    await refusedPost(dispatchBody(w, { vehicle_id: undefined }), 'vehicle_id is required');
  });

  test('other bad input: duplicate vendor_id, unknown form, bad status, body not a single object', async () => {
    const d = await createDispatch(t, w);
    await refusedPost(dispatchBody(w, { vendor_id: d.vendor_id }), `vendor_id "${d.vendor_id}" is already taken`);
    await refusedPost(
      dispatchBody(w, { shipper_form_ids: ['5f0c1f2e-8a0e-4bd5-9a38-1c8c7f7a2b11'] }),
      'shipper_form_ids[0] names no form of this company ("5f0c1f2e-8a0e-4bd5-9a38-1c8c7f7a2b11")',
    );
    await refusedPost(
      dispatchBody(w, { shipper_form_ids: ['not-a-uuid'] }),
      'shipper_form_ids[0] must be a valid uuid',
    );
    await refusedPost(
      dispatchBody(w, { status: 'completed' }),
      'status must be planned or active: a dispatch is created planned or active, not completed',
    );
    await refusedPost(
      dispatchBody(w, { status: 'paused' }),
      'status must be one of: planned, active, cancelled, completed',
    );
    await refusedPost(dispatchBody(w, { driver_id: 'mc-drv' }), 'driver_id must be an integer');
    await refusedPost([dispatchBody(w)], 'body must be a single JSON object, but it was an array');
    await refusedPost('dispatch', 'body must be a single JSON object, but it was a string', true);
    await refusedPost(42, 'body must be a single JSON object, but it was a number', true);
    await refusedPost(null, 'body must be a single JSON object, but it was null', true);
  });

  test('a body wrapped as responses are ({"dispatch": {...}}, {"dispatch_stop": {...}}) is accepted', async () => {
    const body = dispatchBody(w);
    body.dispatch_stops = body.dispatch_stops.map((s: unknown) => ({ dispatch_stop: s }));
    const res = await t.call({ method: 'POST', url: '/v1/dispatches', payload: { dispatch: body } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.dispatch.dispatch_stops.length, 1);
  });

  test('create is recorded as dispatch_upserted/created in the outbox; a refused one records nothing', async () => {
    const before = (await events(t)).length;
    await createDispatch(t, w);
    await t.call({ method: 'POST', url: '/v1/dispatches', payload: dispatchBody(w, { driver_id: 0 }) });
    assert.deepEqual((await events(t)).slice(before), [['dispatch_upserted', 'created']]);
  });

  test('scopes: GET needs dispatches.read, POST and PUT dispatches.manage', async () => {
    const reader = scoped(t.company, 'dispatches.read');
    assert.equal((await t.call({ method: 'GET', url: '/v1/dispatches', as: reader })).status, 200);
    assert.equal((await t.call({ method: 'GET', url: '/v2/dispatches', as: reader })).status, 200);
    for (const v of [1, 2]) {
      assertError(
        await t.call({ method: 'POST', url: `/v${v}/dispatches`, payload: dispatchBody(w), as: reader }),
        403,
        /dispatches\.manage/,
      );
      assertError(
        await t.call({ method: 'PUT', url: `/v${v}/dispatches`, payload: { vendor_id: 'x' }, as: reader }),
        403,
        /dispatches\.manage/,
      );
    }
    assertError(
      await t.call({ method: 'GET', url: '/v1/dispatches', as: scoped(t.company, 'forms.read') }),
      403,
      /dispatches\.read/,
    );
    const writer = scoped(t.company, 'dispatches.manage');
    assert.equal(
      (await t.call({ method: 'POST', url: '/v1/dispatches', payload: dispatchBody(w), as: writer })).status,
      201,
    );
  });
});
