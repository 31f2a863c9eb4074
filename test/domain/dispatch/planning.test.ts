/** Pure planning of stops and trips: roles follow the order, the real API's list rule, removals, triggers. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planStops, type Stop } from '../../../src/domain/dispatch/stops.js';
import { planTrips, tripAssignment } from '../../../src/domain/dispatch/trips.js';
import { stopDetailsOf } from '../../../src/domain/dispatch/details.js';
import { AppError } from '../../../src/core/errors.js';

let nextId = 1;
const stop = (vendor_id: string, fields: Partial<Stop> = {}): Stop => ({
  id: nextId++,
  vendor_id,
  dispatch_location_id: 1,
  type: null,
  status: 'available',
  driver_load: null,
  early_date: null,
  late_date: null,
  form_ids: [],
  ...stopDetailsOf({}),
  trip_id: null,
  ...fields,
});
const ids = (stops: Stop[]) => stops.map((s) => s.vendor_id);

function refused(fn: () => unknown, message: RegExp) {
  assert.throws(fn, (e: unknown) => e instanceof AppError && e.status === 400 && message.test(e.message));
}

describe('planStops', () => {
  const current = () => [stop('S'), stop('M1'), stop('M2'), stop('C')];

  it('creates shipper, dispatch stops and consignee in order', () => {
    const p = planStops([], {
      shipper: { vendor_id: 'S', location: 1 },
      consignee: { vendor_id: 'C', location: 2 },
      dispatch_stops: [
        { vendor_id: 'B', location: 3, number: 2 },
        { vendor_id: 'A', location: 3, number: 1 },
      ],
    });
    assert.deepEqual(ids(p.stops), ['S', 'A', 'B', 'C'], 'sorted by number when every stop has one');
    assert.deepEqual(p.triggers, []);
    assert.ok(p.stops.every((s) => s.id === null));
  });

  it('creating needs a shipper and a consignee, each with a vendor_id and a location', () => {
    refused(() => planStops([], {}), /vendor_shipper_id is required: a dispatch has at least two stops/);
    refused(() => planStops([], { shipper: { vendor_id: 'S', location: 1 } }), /vendor_consignee_id is required/);
    refused(
      () => planStops([], { shipper: { vendor_id: 'S' }, consignee: { vendor_id: 'C', location: 1 } }),
      /shipper_dispatch_location_id \(or vendor_shipper_dispatch_location_id\) is required/,
    );
    refused(
      () =>
        planStops([], {
          shipper: { vendor_id: 'S', location: 1 },
          consignee: { vendor_id: 'C', location: 1 },
          dispatch_stops: [{ vendor_id: 'M' }],
        }),
      /dispatch_stops\[0\]\.dispatch_location_id/,
    );
    refused(
      () => planStops([], { shipper: { vendor_id: 'X', location: 1 }, consignee: { vendor_id: 'X', location: 1 } }),
      /vendor_consignee_id "X" is used by another stop/,
    );
  });

  it('dispatch_stops is the complete list between shipper and consignee (the real API rule)', () => {
    const cur = current();
    const p = planStops(cur, { dispatch_stops: [{ vendor_id: 'M2' }, { vendor_id: 'N', location: 5 }] });
    assert.deepEqual(ids(p.stops), ['S', 'M2', 'N', 'C']);
    assert.equal(p.stops[1].id, cur[2].id, 'a listed stop keeps its identity');
    assert.deepEqual(p.triggers, ['change_stops']);
  });

  it('sending the same stops again changes nothing', () => {
    const cur = current();
    const p = planStops(cur, {
      shipper: { vendor_id: 'S' },
      dispatch_stops: [{ vendor_id: 'M1' }, { vendor_id: 'M2' }],
      consignee: { vendor_id: 'C', location: 1 },
    });
    assert.deepEqual(p.triggers, []);
    assert.deepEqual(p.stops, cur);
  });

  it('remove_stop_vendor_ids removes any stop; roles follow the order', () => {
    const p = planStops(current(), { remove_stop_vendor_ids: ['S'] });
    assert.deepEqual(ids(p.stops), ['M1', 'M2', 'C'], 'M1 is now the shipper');
    assert.deepEqual(p.triggers, ['change_stops']);
    assert.deepEqual(ids(planStops(current(), { remove_stop_vendor_ids: ['C', 'M1'] }).stops), ['S', 'M2']);
  });

  it('never fewer than two stops; unknown stops named', () => {
    refused(
      () => planStops(current(), { remove_stop_vendor_ids: ['S', 'M1', 'M2'] }),
      /would leave 1 stop; a dispatch keeps at least two/,
    );
    refused(
      () => planStops(current(), { remove_stop_vendor_ids: ['NOPE'] }),
      /remove_stop_vendor_ids\[0\] names no stop of this dispatch \("NOPE"\)/,
    );
    refused(
      () => planStops(current(), { dispatch_stops: [{ vendor_id: 'S' }] }),
      /dispatch_stops\[0\]\.vendor_id "S" is the shipper stop/,
    );
    refused(
      () => planStops(current(), { dispatch_stops: [{ vendor_id: 'M1' }, { vendor_id: 'M1' }] }),
      /"M1" is used by another stop/,
    );
  });

  it('details are edits; renaming the shipper is an edit', () => {
    assert.deepEqual(planStops(current(), { shipper: { type: 'pickup' } }).triggers, ['edit']);
    assert.deepEqual(planStops(current(), { shipper: { vendor_id: 'S2' } }).triggers, ['edit']);
    assert.deepEqual(
      planStops(current(), { consignee: { pallets: 12, refno: 'R' } }).triggers,
      ['edit'],
      'load details are edits',
    );
    assert.deepEqual(
      planStops(current(), { consignee: { pallets: null } }).triggers,
      [],
      'the stored value again is no change',
    );
    assert.deepEqual(
      planStops(current(), { dispatch_stops: [{ vendor_id: 'M1', form_ids: ['f'] }, { vendor_id: 'M2' }] }).triggers,
      ['edit'],
    );
    assert.deepEqual(
      planStops(current(), { dispatch_stops: [{ vendor_id: 'M2' }, { vendor_id: 'M1' }] }).triggers,
      ['change_stops'],
      'reorder',
    );
  });

  it('stop statuses move forward and raise progress triggers; the consignee departing last', () => {
    const p = planStops(current(), { consignee: { status: 'departed' }, shipper: { status: 'departed' } });
    assert.deepEqual(p.triggers, ['stop_progress', 'consignee_departed']);
    assert.equal(p.stops[3].status, 'departed');
    const cur = current();
    cur[0].status = 'departed';
    refused(
      () => planStops(cur, { shipper: { status: 'available' } }),
      /shipper_status cannot go back from departed to available/,
    );
  });
});

describe('planTrips', () => {
  const stops = ['S', 'M', 'C'];
  const current = [
    { id: 1, vendor_id: 'T1', stop_vendor_ids: ['S', 'M'] },
    { id: 2, vendor_id: 'T2', stop_vendor_ids: ['C'] },
  ];

  it('keeps trips when none are sent; removed stops leave their trip', () => {
    assert.deepEqual(planTrips(current, undefined, ['S', 'C']), [
      { id: 1, vendor_id: 'T1', stop_vendor_ids: ['S'] },
      { id: 2, vendor_id: 'T2', stop_vendor_ids: ['C'] },
    ]);
  });

  it('a sent list replaces the trips; a stub keeps its stops', () => {
    assert.deepEqual(planTrips(current, [{ vendor_id: 'T2' }, { vendor_id: 'T3', vendor_stop_ids: ['S'] }], stops), [
      { id: 2, vendor_id: 'T2', stop_vendor_ids: ['C'] },
      { id: null, vendor_id: 'T3', stop_vendor_ids: ['S'] },
    ]);
  });

  it('a stop belongs to at most one trip and must exist', () => {
    refused(
      () =>
        planTrips(
          [],
          [
            { vendor_id: 'A', vendor_stop_ids: ['S'] },
            { vendor_id: 'B', vendor_stop_ids: ['M', 'S'] },
          ],
          stops,
        ),
      /dispatch_trips\[1\]\.vendor_stop_ids\[1\] "S" is already in trip "A"/,
    );
    refused(
      () => planTrips([], [{ vendor_id: 'A', vendor_stop_ids: ['X'] }], stops),
      /dispatch_trips\[0\]\.vendor_stop_ids\[0\] names no stop/,
    );
    refused(() => planTrips([], [{ vendor_id: 'A' }, { vendor_id: 'A' }], stops), /"A" appears twice/);
  });

  it('trips share the one driver and vehicle of the dispatch', () => {
    assert.deepEqual(tripAssignment([{ vendor_id: 'A', driver_id: 4, vehicle_id: 5 }, { vendor_id: 'B' }], {}), {
      driver_id: 4,
      vehicle_id: 5,
    });
    refused(
      () =>
        tripAssignment(
          [
            { vendor_id: 'A', driver_id: 4 },
            { vendor_id: 'B', driver_id: 6 },
          ],
          {},
        ),
      /dispatch_trips\[1\]\.driver_id must be 4/,
    );
    refused(
      () => tripAssignment([{ vendor_id: 'A', vehicle_id: 4 }], { vehicle_id: 9 }),
      /dispatch_trips\[0\]\.vehicle_id must be 9/,
    );
  });
});
