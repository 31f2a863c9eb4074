/** PUT /v1/dispatches: stops added and removed, driver and vehicle, transitions, refusals change nothing. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError, createUser, createVehicle } from '../../http/fixtures.js';
import {
  createDispatch,
  createLocation,
  current,
  dispatchBody,
  events,
  put,
  stopOrder,
  world,
  type World,
} from './fixtures.js';

eachDialect('dispatches v1: PUT', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let w: World;

  before(async () => {
    t = await getApp();
    w = await world(t);
  });

  const snapshot = async () => (await t.call({ method: 'GET', url: '/v1/dispatches?per_page=100' })).body;

  /** A refused PUT: the status and message, and the whole list unchanged. */
  async function refused(payload: unknown, status: number, message: string | RegExp, raw = false) {
    const before = await snapshot();
    const res = raw
      ? await t.call({
          method: 'PUT',
          url: '/v1/dispatches',
          payload: JSON.stringify(payload),
          headers: { 'content-type': 'application/json' },
        })
      : await put(t, payload);
    assertError(res, status, message);
    assert.deepEqual(await snapshot(), before, 'nothing changed');
  }

  async function ok(payload: Record<string, unknown>) {
    const res = await put(t, payload);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['dispatch'], 'not paginated: the dispatch alone');
    assert.deepEqual(
      res.body.dispatch,
      await current(t, String(payload.vendor_id)),
      'the answer is the dispatch as it now stands',
    );
    return res.body.dispatch;
  }

  test('status active activates a planned dispatch; the answer echoes it, unpaginated', async () => {
    const d = await createDispatch(t, w);
    const a = await ok({ vendor_id: d.vendor_id, status: 'active' });
    assert.equal(a.status, 'active');
    assert.deepEqual({ ...a, status: 'planned', updated_at: d.updated_at }, d, 'nothing else changed');
    await ok({ vendor_id: d.vendor_id, status: 'cancelled' });
  });

  test('unknown vendor_id → 404; missing vendor_id → 400; body not a single object → 400', async () => {
    await createDispatch(t, w);
    await refused({ vendor_id: 'NO-SUCH', status: 'active' }, 404, 'dispatch with vendor_id "NO-SUCH" not found');
    await refused({ status: 'active' }, 400, 'vendor_id is required');
    await refused(
      [{ vendor_id: 'x', status: 'active' }],
      400,
      'body must be a single JSON object, but it was an array',
    );
    await refused('x', 400, 'body must be a single JSON object, but it was a string', true);
    await refused(null, 400, 'body must be a single JSON object, but it was null', true);
    const other = await t.newCompany('Other');
    const d = await createDispatch(t, w);
    assertError(
      await put(t, { vendor_id: d.vendor_id, status: 'active' }, 1, other),
      404,
      `dispatch with vendor_id "${d.vendor_id}" not found`,
    );
  });

  test('while planned: add a stop by sending the list with the new one', async () => {
    const d = await createDispatch(t, w, {}, 1);
    const m1 = `${d.vendor_id}-M1`;
    const a = await ok({
      vendor_id: d.vendor_id,
      dispatch_stops: [
        { vendor_id: m1 },
        { vendor_id: 'NEW', vendor_dispatch_location_id: w.locations[3].vendor_id, type: 'drop' },
      ],
    });
    assert.deepEqual(stopOrder(a), [d.vendor_shipper_id, m1, 'NEW', d.vendor_consignee_id]);
    assert.deepEqual(a.dispatch_stops[0], d.dispatch_stops[0], 'the stop sent as {vendor_id} alone is unchanged');
    assert.equal(a.dispatch_stops[1].dispatch_stop.type, 'drop');
    assert.equal(a.driver_id, d.driver_id);
  });

  test('while planned: a PUT that only removes stops sends nothing else', async () => {
    const d = await createDispatch(t, w, { auto_complete_forms: true }, 3);
    const a = await ok({ vendor_id: d.vendor_id, remove_stop_vendor_ids: [`${d.vendor_id}-M2`] });
    assert.deepEqual(stopOrder(a), [
      d.vendor_shipper_id,
      `${d.vendor_id}-M1`,
      `${d.vendor_id}-M3`,
      d.vendor_consignee_id,
    ]);
    assert.deepEqual(
      [a.driver_id, a.vehicle_id, a.auto_complete_forms, a.status],
      [d.driver_id, d.vehicle_id, true, 'planned'],
    );
    assert.deepEqual(
      a.dispatch_stops.map((s: any) => s.dispatch_stop.number),
      [1, 2],
    );
    const b = await ok({ vendor_id: d.vendor_id, dispatch_stops: [{ vendor_id: `${d.vendor_id}-M3` }] });
    assert.deepEqual(
      stopOrder(b),
      [d.vendor_shipper_id, `${d.vendor_id}-M3`, d.vendor_consignee_id],
      'a dispatch stop left out of the list is removed',
    );
  });

  test('removing the shipper or consignee: roles follow the order', async () => {
    const d = await createDispatch(t, w, {}, 2);
    const a = await ok({ vendor_id: d.vendor_id, remove_stop_vendor_ids: [d.vendor_shipper_id] });
    assert.equal(a.vendor_shipper_id, `${d.vendor_id}-M1`);
    assert.equal(a.shipper_dispatch_location_id, w.locations[2].id);
    assert.deepEqual(stopOrder(a), [`${d.vendor_id}-M1`, `${d.vendor_id}-M2`, d.vendor_consignee_id]);
    const b = await ok({ vendor_id: d.vendor_id, remove_stop_vendor_ids: [d.vendor_consignee_id] });
    assert.equal(b.vendor_consignee_id, `${d.vendor_id}-M2`);
    assert.deepEqual(b.dispatch_stops, []);
  });

  test('removing stops never leaves fewer than two; unknown stops are named', async () => {
    const d = await createDispatch(t, w, {}, 1);
    await refused(
      { vendor_id: d.vendor_id, remove_stop_vendor_ids: [d.vendor_shipper_id, `${d.vendor_id}-M1`] },
      400,
      /^remove_stop_vendor_ids would leave 1 stop; a dispatch keeps at least two/,
    );
    await refused(
      { vendor_id: d.vendor_id, remove_stop_vendor_ids: ['GHOST'] },
      400,
      'remove_stop_vendor_ids[0] names no stop of this dispatch ("GHOST")',
    );
    await refused(
      { vendor_id: d.vendor_id, dispatch_stops: [{ vendor_id: 'NEW' }] },
      400,
      /^dispatch_stops\[0\]\.dispatch_location_id \(or dispatch_stops\[0\]\.vendor_dispatch_location_id\) is required/,
    );
    await refused(
      { vendor_id: d.vendor_id, dispatch_stops: [{ vendor_id: 'NEW', dispatch_location_id: 999999 }] },
      400,
      'dispatch_stops[0].dispatch_location_id names no dispatch location of this company (999999)',
    );
  });

  test('while planned: driver and vehicle change; renaming and relocating the shipper is an edit', async () => {
    const d = await createDispatch(t, w);
    const a = await ok({ vendor_id: d.vendor_id, driver_id: w.driver2.id, vehicle_id: w.vehicle2.id });
    assert.deepEqual(
      [a.driver_id, a.driver.id, a.vehicle_id, a.vehicle.id],
      [w.driver2.id, w.driver2.id, w.vehicle2.id, w.vehicle2.id],
    );
    const b = await ok({
      vendor_id: d.vendor_id,
      vendor_shipper_id: 'S-NEW',
      shipper_dispatch_location_id: w.locations[3].id,
    });
    assert.deepEqual([b.vendor_shipper_id, b.shipper_dispatch_location_id], ['S-NEW', w.locations[3].id]);
    const other = await t.newCompany('Competitor');
    const [theirDriver, theirVehicle] = [await createUser(t, {}, other), await createVehicle(t, {}, other)];
    await refused(
      { vendor_id: d.vendor_id, driver_id: theirDriver.id },
      400,
      `driver_id names no user of this company (${theirDriver.id})`,
    );
    await refused(
      { vendor_id: d.vendor_id, vehicle_id: theirVehicle.id },
      400,
      `vehicle_id names no vehicle of this company (${theirVehicle.id})`,
    );
  });

  test('while active: driver and vehicle cannot change (clear 400); the same values may be sent again', async () => {
    const d = await createDispatch(t, w, { driver_id: w.driver2.id });
    await ok({ vendor_id: d.vendor_id, status: 'active' });
    const msg = `dispatch "${d.vendor_id}": the driver and vehicle of an active dispatch cannot be changed`;
    await refused({ vendor_id: d.vendor_id, driver_id: w.driver.id }, 400, msg);
    await refused({ vendor_id: d.vendor_id, vehicle_id: w.vehicle2.id }, 400, msg);
    await refused({ vendor_id: d.vendor_id, status: 'cancelled', driver_id: w.driver.id }, 400, msg);
    const again = await ok({
      vendor_id: d.vendor_id,
      status: 'active',
      driver_id: w.driver2.id,
      vehicle_id: d.vehicle_id,
      dispatch_stops: [{ vendor_id: `${d.vendor_id}-M1` }],
    });
    assert.equal(again.updated_at >= d.updated_at, true);
    await ok({ vendor_id: d.vendor_id, status: 'cancelled' });
  });

  test('while active: stops are fixed, details may change, stops progress; the consignee departing completes it', async () => {
    const d = await createDispatch(t, w, {}, 1);
    await ok({ vendor_id: d.vendor_id, status: 'active' });
    const fixed = new RegExp(
      `^dispatch "${d.vendor_id}": stops can only be added, removed or reordered while the dispatch is planned`,
    );
    await refused({ vendor_id: d.vendor_id, remove_stop_vendor_ids: [`${d.vendor_id}-M1`] }, 400, fixed);
    await refused({ vendor_id: d.vendor_id, dispatch_stops: [] }, 400, fixed);
    const e = await ok({
      vendor_id: d.vendor_id,
      auto_complete_forms: true,
      consignee_type: 'dropoff',
      dispatch_stops: [{ vendor_id: `${d.vendor_id}-M1`, late_date: '2030-01-01T00:00:00Z' }],
    });
    assert.deepEqual(
      [e.auto_complete_forms, e.consignee_type, e.dispatch_stops[0].dispatch_stop.late_date, e.status],
      [true, 'dropoff', '2030-01-01T00:00:00Z', 'active'],
    );
    const p = await ok({
      vendor_id: d.vendor_id,
      shipper_status: 'departed',
      dispatch_stops: [{ vendor_id: `${d.vendor_id}-M1`, status: 'in_progress' }],
    });
    assert.deepEqual(
      [p.shipper_status, p.dispatch_stops[0].dispatch_stop.status, p.status],
      ['departed', 'in_progress', 'active'],
    );
    await refused(
      { vendor_id: d.vendor_id, shipper_status: 'available' },
      400,
      'shipper_status cannot go back from departed to available',
    );
    const c = await ok({ vendor_id: d.vendor_id, consignee_status: 'departed' });
    assert.equal(c.status, 'completed');
  });

  test('transitions: cancel from planned or active, complete from active; refused ones say why', async () => {
    const a = await createDispatch(t, w);
    await refused(
      { vendor_id: a.vendor_id, status: 'completed' },
      400,
      `dispatch "${a.vendor_id}": a planned dispatch cannot be completed; activate it first`,
    );
    await refused(
      { vendor_id: a.vendor_id, shipper_status: 'in_progress' },
      400,
      /stops can only progress while the dispatch is active; it is planned/,
    );
    assert.equal((await ok({ vendor_id: a.vendor_id, status: 'cancelled' })).status, 'cancelled');
    const b = await createDispatch(t, w);
    await ok({ vendor_id: b.vendor_id, status: 'active' });
    await refused(
      { vendor_id: b.vendor_id, status: 'planned' },
      400,
      `dispatch "${b.vendor_id}": an active dispatch cannot return to planned`,
    );
    assert.equal((await ok({ vendor_id: b.vendor_id, status: 'completed' })).status, 'completed');
    const c = await createDispatch(t, w);
    await ok({ vendor_id: c.vendor_id, status: 'active' });
    assert.equal((await ok({ vendor_id: c.vendor_id, status: 'cancelled' })).status, 'cancelled');
  });

  test('terminal states stay terminal: every change is refused', async () => {
    const done = await createDispatch(t, w);
    await ok({ vendor_id: done.vendor_id, status: 'active' });
    await ok({ vendor_id: done.vendor_id, status: 'completed' });
    const gone = await createDispatch(t, w);
    await ok({ vendor_id: gone.vendor_id, status: 'cancelled' });
    for (const [d, state] of [
      [done, 'completed'],
      [gone, 'cancelled'],
    ] as const) {
      const msg = `dispatch "${d.vendor_id}": the dispatch is ${state}, and a ${state} dispatch cannot change`;
      for (const status of ['planned', 'active', 'cancelled', 'completed'].filter((s) => s !== state)) {
        await refused({ vendor_id: d.vendor_id, status }, 400, msg);
      }
      await refused({ vendor_id: d.vendor_id, driver_id: w.driver2.id }, 400, msg);
      await refused({ vendor_id: d.vendor_id, remove_stop_vendor_ids: [`${d.vendor_id}-M1`] }, 400, msg);
      await refused({ vendor_id: d.vendor_id, auto_complete_forms: true }, 400, msg);
      const same = await current(t, d.vendor_id);
      assert.equal((await put(t, { vendor_id: d.vendor_id })).status, 200, 'a PUT that changes nothing is fine');
      assert.equal(
        (await put(t, { vendor_id: d.vendor_id, status: state })).status,
        200,
        'so is sending the status it has',
      );
      assert.deepEqual(await current(t, d.vendor_id), same);
    }
  });

  test('a driver has any number of planned dispatches and at most one active', async () => {
    const driver = w.driver2;
    const ds = [];
    for (let i = 0; i < 3; i++) ds.push(await createDispatch(t, w, { driver_id: driver.id }));
    await ok({ vendor_id: ds[0].vendor_id, status: 'active' });
    const msg = `driver ${driver.id} already has an active dispatch (dispatch "${ds[0].vendor_id}"); a driver can have at most one active dispatch`;
    await refused({ vendor_id: ds[1].vendor_id, status: 'active' }, 400, msg);
    const res = await t.call({
      method: 'POST',
      url: '/v1/dispatches',
      payload: dispatchBody(w, { driver_id: driver.id, status: 'active' }),
    });
    assertError(res, 400, msg);
    const other = await createDispatch(t, w, { driver_id: w.driver.id });
    await ok({ vendor_id: other.vendor_id, status: 'active' });
    await refused(
      { vendor_id: ds[2].vendor_id, driver_id: w.driver.id, status: 'active' },
      400,
      new RegExp(`^driver ${w.driver.id} already has an active dispatch`),
    );
    await ok({ vendor_id: ds[0].vendor_id, status: 'completed' });
    assert.equal(
      (await ok({ vendor_id: ds[1].vendor_id, status: 'active' })).status,
      'active',
      'free again once the active one is done',
    );
    for (const d of [ds[1], other]) await ok({ vendor_id: d.vendor_id, status: 'cancelled' });
  });

  test('a client may PUT back the dispatch it read (wrapped, as GET shows it): nothing changes', async () => {
    const unnamed = await createLocation(t, { vendor_id: null });
    const d = await createDispatch(t, w, { consignee_dispatch_location_id: unnamed.id }, 2);
    assert.equal(d.vendor_consignee_dispatch_location_id, null);
    for (const status of ['planned', 'active', 'completed']) {
      if (status !== 'planned') await ok({ vendor_id: d.vendor_id, status });
      const read = await current(t, d.vendor_id);
      const before = (await events(t)).length;
      const res = await put(t, { dispatch: read });
      assert.equal(res.status, 200, `${status}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.dispatch, read);
      assert.equal((await events(t)).length, before, 'no change, no event');
    }
  });

  test('shipper and consignee may swap vendor ids; the stops keep their places', async () => {
    const d = await createDispatch(t, w, {}, 1);
    const a = await ok({
      vendor_id: d.vendor_id,
      vendor_shipper_id: d.vendor_consignee_id,
      vendor_consignee_id: d.vendor_shipper_id,
    });
    assert.deepEqual(stopOrder(a), [d.vendor_consignee_id, `${d.vendor_id}-M1`, d.vendor_shipper_id]);
    assert.deepEqual(
      [a.shipper_dispatch_location_id, a.consignee_dispatch_location_id],
      [d.shipper_dispatch_location_id, d.consignee_dispatch_location_id],
    );
  });

  test('every change and transition is an event; a refused PUT records nothing', async () => {
    const d = await createDispatch(t, w);
    const before = (await events(t)).length;
    await ok({ vendor_id: d.vendor_id, remove_stop_vendor_ids: [`${d.vendor_id}-M1`] });
    await ok({ vendor_id: d.vendor_id, status: 'active' });
    await put(t, { vendor_id: d.vendor_id, driver_id: w.driver2.id });
    await ok({ vendor_id: d.vendor_id, status: 'active' });
    await ok({ vendor_id: d.vendor_id, status: 'cancelled' });
    assert.deepEqual((await events(t)).slice(before), [
      ['dispatch_upserted', 'updated'],
      ['dispatch_upserted', 'updated'],
      ['dispatch_status_changed', 'active'],
      ['dispatch_upserted', 'updated'],
      ['dispatch_status_changed', 'cancelled'],
    ]);
    const row = await t.db.kysely
      .selectFrom('domain_events')
      .select('data')
      .where('action', '=', 'dispatch_status_changed')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const data = JSON.parse(row.data);
    assert.deepEqual([data.vendor_id, data.from, data.to], [d.vendor_id, 'active', 'cancelled']);
  });
});
