/**
 * Freight visibility never shows anything outside a live subscription window: before it starts, after it
 * ends, once cancelled, once the carrier's share is revoked or has ended, to another shipper, and never a
 * fix taken before the window opened. The window rules are also tested as pure functions.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { assertList, createUser, createVehicle } from '../../http/fixtures.js';
import {
  distanceMi,
  fixVisible,
  overlaps,
  shareCovering,
  shareLive,
  visibleWindow,
  windowProblem,
  HOUR_MS,
  DAY_MS,
} from '../../../src/domain/freight/visibility.js';
import { hoursFromNow, iso, setLatestLocation } from '../../http/fleet-record-fixtures.js';

describe('freight visibility rules', () => {
  const T = Date.parse('2026-06-01T12:00:00Z');
  const at = (h: number) => new Date(T + h * HOUR_MS).toISOString();
  const share = (from: number, to: number, revoked = false) => ({
    starts_at: at(from),
    ends_at: at(to),
    revoked_at: revoked ? at(-1) : null,
  });
  const sub = (from: number, to: number, cancelled = false) => ({
    start_time: at(from),
    end_time: at(to),
    cancelled_at: cancelled ? at(-1) : null,
  });

  test('the visible window: subscription ∩ live shares, or nothing', () => {
    const cases: Array<[ReturnType<typeof sub>, Array<ReturnType<typeof share>>, [number, number] | null, string]> = [
      [sub(-2, 2), [share(-10, 10)], [-2, 2], 'live subscription, live share'],
      [sub(-2, 2), [share(-1, 10)], [-1, 2], 'the share started later than the subscription'],
      [sub(-2, 2), [share(-10, 1)], [-2, 1], 'the share ends first'],
      [sub(1, 3), [share(-10, 10)], null, 'not started'],
      [sub(-3, 0), [share(-10, 10)], null, 'ended exactly now'],
      [sub(-2, 2, true), [share(-10, 10)], null, 'cancelled'],
      [sub(-2, 2), [share(-10, 10, true)], null, 'share revoked'],
      [sub(-2, 2), [share(-10, -1)], null, 'share ended'],
      [sub(-2, 2), [share(1, 10)], null, 'share not started'],
      [sub(-2, 2), [], null, 'no share'],
      [sub(-2, 2), [share(-10, -5), share(-1, 1)], [-1, 1], 'only the live share counts'],
    ];
    for (const [s, shares, expected, name] of cases) {
      const w = visibleWindow(s, shares, T);
      assert.deepEqual(w && [(w.start - T) / HOUR_MS, (w.end - T) / HOUR_MS], expected, name);
    }
  });

  test('a fix is shown only when taken inside the window', () => {
    const w = visibleWindow(sub(-2, 2), [share(-10, 10)], T);
    assert.equal(fixVisible(at(-1), w), true);
    assert.equal(fixVisible(at(-2), w), true, 'the start is inside');
    assert.equal(fixVisible(at(-2.01), w), false, 'just before the subscription');
    assert.equal(fixVisible(at(-1), null), false);
  });

  test('subscription windows: 1 hour to 5 days, starting within 2 weeks, ending in the future', () => {
    const now = T;
    const cases: Array<[number, number, [string, string] | null]> = [
      [0, 1, null],
      [-5, 1, null],
      [0, 5 * 24, null],
      [1, 1, ['end_time', 'must be after start_time']],
      [1, 0, ['end_time', 'must be after start_time']],
      [0, 0.99, ['end_time', 'must be at least 1 hour after start_time']],
      [0, 5 * 24 + 0.01, ['end_time', 'must be at most 5 days after start_time']],
      [14 * 24 + 0.01, 14 * 24 + 2, ['start_time', 'must be at most 2 weeks from now']],
      [14 * 24, 14 * 24 + 2, null],
      [-3, -1, ['end_time', 'must be in the future']],
    ];
    for (const [from, to, expected] of cases)
      assert.deepEqual(windowProblem(T + from * HOUR_MS, T + to * HOUR_MS, now), expected, `${from}..${to}`);
  });

  test('coverage, liveness, overlap and distance', () => {
    assert.ok(shareCovering([share(-1, 5)], T, T + 5 * HOUR_MS));
    assert.equal(shareCovering([share(-1, 4)], T, T + 5 * HOUR_MS), undefined);
    assert.equal(shareCovering([share(-1, 5, true)], T, T + HOUR_MS), undefined);
    assert.equal(
      shareCovering([share(-1, 2), share(2, 5)], T, T + 5 * HOUR_MS),
      undefined,
      'one share must cover the whole window',
    );
    assert.ok(shareLive(share(0, 1), T));
    assert.ok(!shareLive(share(-1, 0), T));
    assert.ok(overlaps({ start: 0, end: 10 }, { start: 9, end: 20 }));
    assert.ok(!overlaps({ start: 0, end: 10 }, { start: 10, end: 20 }), 'touching windows do not overlap');
    assert.equal(
      Math.round(distanceMi(41.2565, -95.9345, 39.0997, -94.5786)),
      165,
      'Omaha to Kansas City, great-circle',
    );
    assert.equal(distanceMi(1, 1, 1, 1), 0);
    assert.equal(DAY_MS, 24 * HOUR_MS);
  });
});

eachDialect('freight visibility windows', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let carrier: TestCompany;
  let shipper: TestCompany;
  let rival: TestCompany;
  let v: any[];
  let shareId: number;
  let otherShareId: number;

  before(async () => {
    t = await getApp();
    carrier = t.company;
    shipper = await t.newCompany('Broker Inc');
    rival = await t.newCompany('Rival Broker');
    const driver = await createUser(t);
    v = [];
    for (let i = 0; i < 7; i++) v.push(await createVehicle(t, { number: `W-${i}` }));
    await t.db.kysely.updateTable('vehicles').set({ current_driver_id: driver.id }).execute();
    const mk = async (vehicleIds: number[], to: TestCompany) => {
      const res = await t.call({
        method: 'POST',
        url: '/v1/freight_visibility/shares',
        payload: {
          shipper_company_id: to.id,
          vehicle_ids: vehicleIds,
          start_time: iso(hoursFromNow(-48)),
          end_time: iso(hoursFromNow(24 * 7)),
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.freight_share.id;
    };
    shareId = await mk([v[0].id, v[1].id, v[2].id, v[3].id, v[4].id], shipper);
    otherShareId = await mk([v[5].id], shipper);
    await mk([v[6].id], rival);
    for (const x of v) await setLatestLocation(t, carrier.id, x.id, hoursFromNow(-0.25));
  });

  const subscribe = async (vehicle: any, fromH: number, toH: number, as = shipper) => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/freight_visibility/subscribe',
      payload: {
        company_id: carrier.id,
        vehicle_id: vehicle.id,
        start_time: iso(hoursFromNow(fromH)),
        end_time: iso(hoursFromNow(toH)),
      },
      as,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.tracking_subscription_id as number;
  };
  const visible = async (as = shipper) => {
    const res = await t.call({ method: 'GET', url: '/v1/freight_visibility/vehicle_locations', as });
    const items = assertList(res, 'vehicles', 'vehicle');
    assert.equal(res.body.pagination.total, items.length);
    return new Map(items.map((x) => [x.tracking_subscription_id, x]));
  };

  test('only the live subscription shows; not the future one, the ended one, or the cancelled one', async () => {
    const live = await subscribe(v[0], -1, 3);
    const future = await subscribe(v[1], 2, 4);
    const ended = await subscribe(v[2], -1, 3);
    await t.db.kysely
      .updateTable('freight_subscriptions')
      .set({ start_time: iso(hoursFromNow(-5)), end_time: iso(hoursFromNow(-0.01)) })
      .where('id', '=', ended)
      .execute();
    const cancelled = await subscribe(v[3], -1, 3);
    assert.ok((await visible()).has(cancelled));
    await t.call({
      method: 'DELETE',
      url: `/v1/freight_visibility/subscribe?tracking_subscription_id=${cancelled}`,
      as: shipper,
    });
    const seen = await visible();
    assert.deepEqual([...seen.keys()], [live]);
    assert.ok(seen.get(live).current_location, 'the fix inside the window is shown');
    assert.ok(!seen.has(future) && !seen.has(ended));
  });

  test('a fix taken before the window opened is never shown', async () => {
    const id = await subscribe(v[4], -0.1, 3);
    const x = (await visible()).get(id);
    assert.ok(x, 'the subscription is live');
    assert.equal(x.current_location, null, 'the latest fix is 15 minutes old, the window 6 minutes');
    assert.equal(x.id, v[4].id);
    // The association does not reveal a distance from that fix either.
    const assoc = await t.call({
      method: 'GET',
      url: `/v1/freight_visibility/vehicle_association?company_id=${carrier.id}&lat=41&lon=-96`,
      as: shipper,
    });
    const row = assoc.body.data.vehicles.find((r: any) => r.vehicle_id === String(v[4].id));
    assert.equal(row.distance_mi, null);
    await setLatestLocation(t, carrier.id, v[4].id, hoursFromNow(-0.01));
    assert.ok((await visible()).get(id).current_location, 'a fix inside the window is shown');
  });

  test('revoking the share ends visibility at once; an ended share shows nothing either', async () => {
    const id = await subscribe(v[5], -1, 3);
    assert.ok((await visible()).has(id));
    await t.db.kysely
      .updateTable('freight_shares')
      .set({ ends_at: iso(hoursFromNow(-0.01)) })
      .where('id', '=', otherShareId)
      .execute();
    assert.ok(!(await visible()).has(id), 'share ended');
    await t.db.kysely
      .updateTable('freight_shares')
      .set({ ends_at: iso(hoursFromNow(24)) })
      .where('id', '=', otherShareId)
      .execute();
    assert.ok((await visible()).has(id));
    const res = await t.call({ method: 'DELETE', url: `/v1/freight_visibility/shares/${otherShareId}` });
    assert.deepEqual(res.body, { success: true });
    assert.ok(!(await visible()).has(id), 'share revoked');
    const assoc = await t.call({
      method: 'GET',
      url: `/v1/freight_visibility/vehicle_association?company_id=${carrier.id}`,
      as: shipper,
    });
    assert.ok(!assoc.body.data.vehicles.some((r: any) => r.vehicle_id === String(v[5].id)), 'no longer associated');
    const again = await t.call({
      method: 'POST',
      url: '/v1/freight_visibility/subscribe',
      payload: {
        company_id: carrier.id,
        vehicle_id: v[5].id,
        start_time: iso(hoursFromNow(10)),
        end_time: iso(hoursFromNow(12)),
      },
      as: shipper,
    });
    assert.equal(again.status, 400, 'a revoked share authorizes nothing new');
  });

  test('revoking the last share hides the carrier from companies', async () => {
    const before = (await t.call({ method: 'GET', url: '/v1/freight_visibility/companies', as: shipper })).body.data
      .companies;
    assert.deepEqual(
      before.map((c: any) => c.id),
      [carrier.id],
    );
    await t.call({ method: 'DELETE', url: `/v1/freight_visibility/shares/${shareId}` });
    assert.deepEqual((await t.call({ method: 'GET', url: '/v1/freight_visibility/companies', as: shipper })).body, {
      data: { companies: [] },
    });
    assert.deepEqual([...(await visible()).keys()], []);
  });

  test("another shipper sees only its own subscriptions, never this shipper's", async () => {
    const theirs = await subscribe(v[6], -1, 2, rival);
    assert.deepEqual([...(await visible(rival)).keys()], [theirs]);
    assert.ok(!(await visible()).has(theirs));
    const refused = await t.call({
      method: 'POST',
      url: '/v1/freight_visibility/subscribe',
      payload: {
        company_id: carrier.id,
        vehicle_id: v[6].id,
        start_time: iso(hoursFromNow(5)),
        end_time: iso(hoursFromNow(6)),
      },
      as: shipper,
    });
    assert.equal(refused.status, 404, 'a vehicle shared with someone else is not found');
  });
});
