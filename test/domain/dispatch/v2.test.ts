/** /v2/dispatches: dispatch_trips over the same service and state machine as v1. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, assertKeySet, assertList, createUser } from '../../http/fixtures.js';
import { DISPATCH_V2_KEYS, TRIP_KEYS, current, dispatchBody, put, stopOrder, world, type World } from './fixtures.js';

eachDialect('dispatches v2: trips', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let w: World;

  before(async () => {
    t = await getApp();
    w = await world(t);
  });

  /** A v2 body in the real API's style: driver and vehicle on the trips only. */
  function v2Body(trips?: unknown[]): Record<string, any> {
    const { driver_id: _d, vehicle_id: _v, ...body } = dispatchBody(w, {}, 2);
    const v = body.vendor_id;
    return {
      ...body,
      dispatch_trips: trips ?? [
        {
          vendor_id: `${v}-T1`,
          driver_id: w.driver.id,
          vehicle_id: w.vehicle.id,
          vendor_stop_ids: [`${v}-S`, `${v}-M1`],
          status: 'not_started',
        },
        { vendor_id: `${v}-T2`, vendor_stop_ids: [`${v}-M2`, `${v}-C`] },
      ],
    };
  }

  const trips = (d: any) => d.dispatch_trips.map((x: any) => x.dispatch_trip);
  const snapshot = async () => (await t.call({ method: 'GET', url: '/v2/dispatches?per_page=100' })).body;

  async function refused(method: 'POST' | 'PUT', payload: unknown, message: string | RegExp) {
    const before = await snapshot();
    assertError(await t.call({ method, url: '/v2/dispatches', payload: payload as any }), 400, message);
    assert.deepEqual(await snapshot(), before, 'nothing changed');
  }

  test('POST with trips: 201; driver and vehicle from the trips; every key; trips wrapped', async () => {
    const body = v2Body();
    const res = await t.call({ method: 'POST', url: '/v2/dispatches', payload: body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const d = res.body.dispatch;
    assertKeySet(d, DISPATCH_V2_KEYS, 'v2 dispatch');
    assert.deepEqual([d.driver_id, d.vehicle_id, d.status], [w.driver.id, w.vehicle.id, 'planned']);
    assert.deepEqual(Object.keys(d.dispatch_trips[0]), ['dispatch_trip']);
    const [t1, t2] = trips(d);
    assertKeySet(t1, TRIP_KEYS, 'dispatch_trip');
    assert.deepEqual(
      { ...t1, id: 0 },
      {
        id: 0,
        vendor_id: `${body.vendor_id}-T1`,
        driver_id: w.driver.id,
        vehicle_id: w.vehicle.id,
        status: 'not_started',
        vendor_stop_ids: [`${body.vendor_id}-S`, `${body.vendor_id}-M1`],
      },
    );
    assert.deepEqual(t2.vendor_stop_ids, [`${body.vendor_id}-M2`, `${body.vendor_id}-C`]);
    assert.deepEqual(
      assertList(await t.call({ method: 'GET', url: `/v2/dispatches?ids=${d.id}` }), 'dispatches', 'dispatch'),
      [d],
    );
    const v1 = await current(t, body.vendor_id, 1);
    assert.equal('dispatch_trips' in v1, false, 'v1 shows the same dispatch without trips');
    assert.deepEqual({ ...v1, dispatch_trips: d.dispatch_trips }, d);
  });

  test('trip statuses follow the dispatch: activation, stops departing, completion', async () => {
    const body = v2Body();
    const v = body.vendor_id;
    await t.call({ method: 'POST', url: '/v2/dispatches', payload: body });
    let res = await put(
      t,
      { vendor_id: v, dispatch_trips: [{ vendor_id: `${v}-T1`, status: 'in_progress' }, { vendor_id: `${v}-T2` }] },
      2,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.dispatch.status, 'active', 'a trip in progress activates the dispatch');
    assert.deepEqual(
      trips(res.body.dispatch).map((x: any) => x.status),
      ['in_progress', 'not_started'],
    );
    res = await put(
      t,
      {
        vendor_id: v,
        shipper_status: 'departed',
        dispatch_stops: [{ vendor_id: `${v}-M1`, status: 'departed' }, { vendor_id: `${v}-M2` }],
      },
      2,
    );
    assert.deepEqual(
      trips(res.body.dispatch).map((x: any) => x.status),
      ['completed', 'in_progress'],
    );
    res = await put(t, { vendor_id: v, consignee_status: 'departed' }, 2);
    assert.equal(res.body.dispatch.status, 'completed');
    assert.deepEqual(
      trips(res.body.dispatch).map((x: any) => x.status),
      ['completed', 'completed'],
    );
  });

  test('cancelling every trip cancels the dispatch (the real API advice)', async () => {
    const body = v2Body();
    const v = body.vendor_id;
    await t.call({ method: 'POST', url: '/v2/dispatches', payload: body });
    const res = await put(
      t,
      {
        vendor_id: v,
        dispatch_stops: [{ vendor_id: `${v}-M1` }, { vendor_id: `${v}-M2` }],
        dispatch_trips: [
          { vendor_id: `${v}-T1`, status: 'cancelled' },
          { vendor_id: `${v}-T2`, status: 'cancelled' },
        ],
      },
      2,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.dispatch.status, 'cancelled');
    assert.deepEqual(
      trips(res.body.dispatch).map((x: any) => x.status),
      ['cancelled', 'cancelled'],
    );
  });

  test('PUT replaces the trips; stubs keep their stops; removed stops leave their trip', async () => {
    const body = v2Body();
    const v = body.vendor_id;
    await t.call({ method: 'POST', url: '/v2/dispatches', payload: body });
    let res = await put(
      t,
      {
        vendor_id: v,
        dispatch_trips: [{ vendor_id: `${v}-T2` }, { vendor_id: `${v}-T3`, vendor_stop_ids: [`${v}-S`] }],
      },
      2,
    );
    assert.deepEqual(
      trips(res.body.dispatch).map((x: any) => [x.vendor_id, x.vendor_stop_ids]),
      [
        [`${v}-T2`, [`${v}-M2`, `${v}-C`]],
        [`${v}-T3`, [`${v}-S`]],
      ],
    );
    res = await put(t, { vendor_id: v, remove_stop_vendor_ids: [`${v}-M2`] }, 2);
    assert.deepEqual(
      trips(res.body.dispatch).map((x: any) => x.vendor_stop_ids),
      [[`${v}-C`], [`${v}-S`]],
    );
    assert.deepEqual(stopOrder(res.body.dispatch), [`${v}-S`, `${v}-M1`, `${v}-C`]);
  });

  test('a v2 dispatch sent back as read changes nothing, in every state', async () => {
    const body = v2Body();
    await t.call({ method: 'POST', url: '/v2/dispatches', payload: body });
    for (const status of ['planned', 'active', 'cancelled']) {
      if (status !== 'planned') assert.equal((await put(t, { vendor_id: body.vendor_id, status }, 2)).status, 200);
      const read = await current(t, body.vendor_id, 2);
      const res = await put(t, { dispatch: read }, 2);
      assert.equal(res.status, 200, `${status}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.dispatch, read);
    }
  });

  test('bad trips → 400 naming the member, nothing changed', async () => {
    const body = v2Body();
    const v = body.vendor_id;
    const bad = (trips: unknown[]) => ({ ...body, dispatch_trips: trips });
    await refused(
      'POST',
      bad([
        { vendor_id: 'A', driver_id: w.driver.id, vehicle_id: w.vehicle.id, vendor_stop_ids: [`${v}-S`] },
        { vendor_id: 'B', vendor_stop_ids: [`${v}-M1`, `${v}-S`] },
      ]),
      `dispatch_trips[1].vendor_stop_ids[1] "${v}-S" is already in trip "A"; a stop belongs to at most one trip`,
    );
    await refused(
      'POST',
      bad([{ vendor_id: 'A', driver_id: w.driver.id, vehicle_id: w.vehicle.id, vendor_stop_ids: ['NOPE'] }]),
      'dispatch_trips[0].vendor_stop_ids[0] names no stop of this dispatch ("NOPE")',
    );
    await refused(
      'POST',
      bad([
        { vendor_id: 'A', driver_id: w.driver.id, vehicle_id: w.vehicle.id },
        { vendor_id: 'B', driver_id: w.driver2.id },
      ]),
      `dispatch_trips[1].driver_id must be ${w.driver.id}: every trip of a dispatch has the dispatch's one driver and vehicle`,
    );
    await refused('POST', bad([{ vendor_id: 'A', vehicle_id: w.vehicle.id }]), 'driver_id is required');
    await refused(
      'POST',
      bad([{ vendor_id: 'A', status: 'paused' }]),
      'dispatch_trips[0].status must be one of: not_started, in_progress, completed, cancelled',
    );
    await refused(
      'POST',
      bad([{ vendor_id: 'A', driver_id: w.driver.id, vehicle_id: w.vehicle.id, status: 'cancelled' }]),
      /^status must be planned or active/,
    );
    await t.call({ method: 'POST', url: '/v2/dispatches', payload: body });
    await refused(
      'PUT',
      {
        vendor_id: v,
        dispatch_trips: [
          { vendor_id: 'X', vendor_stop_ids: [`${v}-C`] },
          { vendor_id: 'Y', vendor_stop_ids: [`${v}-C`] },
        ],
      },
      /is already in trip "X"/,
    );
  });

  test('trips cannot move the dispatch to another driver once active; the one-active rule holds in v2', async () => {
    const driver = await createUser(t);
    const first = v2Body([{ vendor_id: 'T', driver_id: driver.id, vehicle_id: w.vehicle.id }]);
    const second = v2Body([{ vendor_id: 'T', driver_id: driver.id, vehicle_id: w.vehicle.id }]);
    for (const b of [first, second])
      assert.equal((await t.call({ method: 'POST', url: '/v2/dispatches', payload: b })).status, 201);
    assert.equal((await put(t, { vendor_id: first.vendor_id, status: 'active' }, 2)).status, 200);
    await refused(
      'PUT',
      { vendor_id: first.vendor_id, dispatch_trips: [{ vendor_id: 'T', driver_id: w.driver2.id }] },
      /the driver and vehicle of an active dispatch cannot be changed/,
    );
    await refused(
      'PUT',
      { vendor_id: second.vendor_id, dispatch_trips: [{ vendor_id: 'T', status: 'in_progress' }] },
      new RegExp(`^driver ${driver.id} already has an active dispatch`),
    );
  });
});
