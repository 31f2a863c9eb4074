/**
 * The load details (docs/dispatch-states.md, "Load details"): the flat shipper_* / consignee_* members
 * of the real API's dispatch, the pickup_* / delivery_* dates of the ends, the dispatch's own counts,
 * and the same details on the dispatch stops between; accepted on POST and PUT, answered by v1 and v2.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError } from '../../http/fixtures.js';
import { current, dispatchBody, events, put, world, type World } from './fixtures.js';

const FLAT = {
  shipper_bill_of_lading: 'BOL-1',
  shipper_refno: 'PO-77',
  shipper_pallets: 12,
  shipper_pieces: 340,
  shipper_weight: 38250.5,
  shipper_volume: 2400,
  shipper_comments: 'Dock 4',
  shipper_driver_load: true,
  pickup_early_date: '2024-05-01T08:00:00Z',
  pickup_late_date: '2024-05-01T12:00:00Z',
  consignee_bill_of_lading: 'BOL-1',
  consignee_refno: 'DEL-9',
  consignee_pallets: 12,
  consignee_pieces: 340,
  consignee_weight: 38250.5,
  consignee_volume: 2400,
  consignee_comments: 'Call ahead',
  consignee_driver_load: false,
  delivery_early_date: '2024-05-02T14:00:00Z',
  delivery_late_date: '2024-05-02T18:00:00Z',
  additional_pickups: 1,
  additional_drops: 0,
  pickup_number: 'PU-5512',
  loaded_miles: 412.3,
};
const NONE = {
  shipper_bill_of_lading: null,
  shipper_refno: null,
  shipper_pallets: null,
  shipper_pieces: null,
  shipper_weight: null,
  shipper_volume: null,
  shipper_comments: null,
  shipper_driver_load: null,
  pickup_early_date: null,
  pickup_late_date: null,
  consignee_bill_of_lading: null,
  consignee_refno: null,
  consignee_pallets: null,
  consignee_pieces: null,
  consignee_weight: null,
  consignee_volume: null,
  consignee_comments: null,
  consignee_driver_load: null,
  delivery_early_date: null,
  delivery_late_date: null,
  additional_pickups: null,
  additional_drops: null,
  pickup_number: null,
  loaded_miles: null,
};
const pickFlat = (d: Record<string, unknown>) => Object.fromEntries(Object.keys(FLAT).map((k) => [k, d[k]]));

eachDialect('dispatch load details', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let w: World;

  before(async () => {
    t = await getApp();
    w = await world(t);
  });

  test('POST /v2 with every flat member: 201 answering each; v1 GET shows the same; absent means null', async () => {
    const body: Record<string, any> = { ...dispatchBody(w), ...FLAT, pickup_early_date: '2024-05-01T03:00:00-05:00' };
    const res = await t.call({ method: 'POST', url: '/v2/dispatches', payload: body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(pickFlat(res.body.dispatch), FLAT);
    assert.deepEqual(pickFlat(await current(t, body.vendor_id)), FLAT, 'v1 answers them too');
    const bare = await t.call({ method: 'POST', url: '/v1/dispatches', payload: dispatchBody(w) });
    assert.deepEqual(pickFlat(bare.body.dispatch), NONE);
  });

  test('the stops between carry the same details', async () => {
    const body = dispatchBody(w);
    body.dispatch_stops[0] = {
      ...body.dispatch_stops[0],
      bill_of_lading: 'B-2',
      refno: 'R-2',
      pallets: 3,
      pieces: 40,
      weight: 1200.5,
      volume: 80,
      comments: 'Side door',
    };
    const res = await t.call({ method: 'POST', url: '/v2/dispatches', payload: { ...body, shipper_pallets: 7 } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { bill_of_lading, refno, pallets, pieces, weight, volume, comments } =
      res.body.dispatch.dispatch_stops[0].dispatch_stop;
    assert.deepEqual(
      { bill_of_lading, refno, pallets, pieces, weight, volume, comments },
      {
        bill_of_lading: 'B-2',
        refno: 'R-2',
        pallets: 3,
        pieces: 40,
        weight: 1200.5,
        volume: 80,
        comments: 'Side door',
      },
    );
    assert.equal(res.body.dispatch.shipper_pallets, 7);
  });

  test('PUT changes details of an active dispatch (an edit), null clears one, the same values change nothing', async () => {
    const body: Record<string, any> = {
      ...dispatchBody(w, { driver_id: w.driver2.id, vehicle_id: w.vehicle2.id, status: 'active' }),
      ...FLAT,
    };
    assert.equal((await t.call({ method: 'POST', url: '/v2/dispatches', payload: body })).status, 201);
    const before = (await events(t)).length;
    const same = await put(t, { vendor_id: body.vendor_id, consignee_refno: 'DEL-9', loaded_miles: 412.3 }, 2);
    assert.equal(same.status, 200);
    assert.equal((await events(t)).length, before, 'nothing changed: no event');
    const res = await put(
      t,
      {
        vendor_id: body.vendor_id,
        consignee_refno: 'DEL-10',
        shipper_comments: null,
        delivery_late_date: '2024-05-03T00:00:00Z',
        additional_drops: 2,
      },
      2,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(pickFlat(res.body.dispatch), {
      ...FLAT,
      consignee_refno: 'DEL-10',
      shipper_comments: null,
      delivery_late_date: '2024-05-03T00:00:00Z',
      additional_drops: 2,
    });
    assert.equal(res.body.dispatch.status, 'active');
    assert.deepEqual((await events(t)).slice(before), [['dispatch_upserted', 'updated']]);
    await put(t, { vendor_id: body.vendor_id, status: 'cancelled' }, 2);
    assertError(
      await put(t, { vendor_id: body.vendor_id, pickup_number: 'X' }, 2),
      400,
      `dispatch "${body.vendor_id}": the dispatch is cancelled, and a cancelled dispatch cannot change`,
    );
  });

  test('wrong values: 400 naming the member', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ consignee_pallets: -1 }, /consignee_pallets/],
      [{ shipper_weight: 'heavy' }, /shipper_weight/],
      [{ shipper_pallets: '12' }, /shipper_pallets/],
      [{ additional_pickups: 1.5 }, /additional_pickups/],
      [{ delivery_early_date: 'tomorrow' }, /delivery_early_date/],
      [{ shipper_driver_load: 'maybe' }, /shipper_driver_load/],
    ];
    for (const [fields, message] of cases) {
      assertError(
        await t.call({ method: 'POST', url: '/v2/dispatches', payload: { ...dispatchBody(w), ...fields } }),
        400,
        message,
      );
    }
  });
});
