/**
 * Freight visibility endpoints: carrier shares, companies ({"data":{"companies":[…]}}), subscribe
 * (POST, PUT, DELETE; query string or JSON body), vehicle_subscriptions, vehicle_association and
 * vehicle_locations with current_driver (docs/freight-visibility.md).
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import {
  USER_SUMMARY_KEYS,
  assertError,
  assertKeySet,
  assertList,
  createUser,
  createVehicle,
} from '../../http/fixtures.js';
import { hoursFromNow, iso, setLatestLocation, wire } from '../../http/fleet-record-fixtures.js';

eachDialect('freight visibility', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let carrier: TestCompany;
  let shipper: TestCompany;
  let stranger: TestCompany;
  let loner: TestCompany; // a carrier that shares nothing
  let code: (c: TestCompany) => Promise<string>;
  let driver: any;
  let v1: any;
  let v2: any;
  let v3: any; // deactivated, shared
  let v4: any; // not shared
  let share: any;

  before(async () => {
    t = await getApp();
    carrier = t.company;
    shipper = await t.newCompany('Broker Inc');
    stranger = await t.newCompany('Stranger LLC');
    loner = await t.newCompany('Lone Carrier');
    code = async (c) =>
      (
        await t.db.kysely
          .selectFrom('companies')
          .select('company_code')
          .where('id', '=', c.id)
          .executeTakeFirstOrThrow()
      ).company_code;
    await t.db.kysely
      .updateTable('companies')
      .set({ dot_ids: JSON.stringify(['1234567']) })
      .where('id', '=', carrier.id)
      .execute();
    driver = await createUser(t, { first_name: 'Carla', last_name: 'Driver' });
    v1 = await createVehicle(t, { number: 'FV-1', vin: '1FUJGLDR0CL000001' });
    v2 = await createVehicle(t, { number: 'FV-2' });
    v3 = await createVehicle(t, { number: 'FV-3', status: 'deactivated' });
    v4 = await createVehicle(t, { number: 'FV-4' });
    await t.db.kysely.updateTable('vehicles').set({ current_driver_id: driver.id }).where('id', '=', v1.id).execute();
    const res = await t.call({
      method: 'POST',
      url: '/v1/freight_visibility/shares',
      payload: {
        shipper_company_id: await code(shipper),
        vehicle_ids: [v1.id, v2.id, v3.id],
        start_time: iso(hoursFromNow(-2)),
        end_time: iso(hoursFromNow(24 * 10)),
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    share = res.body.freight_share;
  });

  const sub = (payload: Record<string, unknown>, as = shipper) =>
    t.call({ method: 'POST', url: '/v1/freight_visibility/subscribe', payload, as });
  const win = (fromH: number, toH: number) => ({
    start_time: iso(hoursFromNow(fromH)),
    end_time: iso(hoursFromNow(toH)),
  });
  const count = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('freight_subscriptions')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('a carrier shares vehicles with a shipper for a window', async () => {
    assertKeySet(share, ['id', 'shipper', 'vehicle_ids', 'start_time', 'end_time', 'revoked_at', 'created_at']);
    assert.deepEqual(share.shipper, { id: shipper.id, company_id: await code(shipper), name: 'Broker Inc' });
    assert.deepEqual(share.vehicle_ids, [v1.id, v2.id, v3.id]);
    assert.equal(share.revoked_at, null);
    const list = assertList(
      await t.call({ method: 'GET', url: '/v1/freight_visibility/shares?active=true' }),
      'freight_shares',
      'freight_share',
    );
    assert.deepEqual(
      list.map((s) => s.id),
      [share.id],
    );
    assert.deepEqual(
      assertList(
        await t.call({ method: 'GET', url: '/v1/freight_visibility/shares', as: shipper }),
        'freight_shares',
        'freight_share',
      ),
      [],
      'shares are the carrier’s own records',
    );
  });

  test('bad shares are refused and store nothing', async () => {
    const theirVehicle = await createVehicle(t, {}, stranger);
    const ok = { shipper_company_id: shipper.id, vehicle_ids: [v1.id], ...win(0, 5) };
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ ...ok, shipper_company_id: carrier.id }, 400, 'shipper_company_id must name another company than your own'],
      [{ ...ok, shipper_company_id: 'FP9999999' }, 404, 'shipper_company_id: company FP9999999 not found'],
      [
        { ...ok, shipper_company_id: 'nobody' },
        400,
        'shipper_company_id must be a company id (5) or company code (FP0000005), got "nobody"',
      ],
      [{ ...ok, vehicle_ids: [v1.id, theirVehicle.id] }, 404, `vehicle_ids: vehicle ${theirVehicle.id} not found`],
      [{ ...ok, vehicle_ids: [] }, 400, 'vehicle_ids must have at least 1 item'],
      [{ ...ok, ...win(5, 1) }, 400, 'end_time must be after start_time'],
      [{ ...ok, ...win(-10, -5) }, 400, 'end_time must be in the future'],
      [
        { ...ok, start_time: 'now' },
        400,
        'start_time must be an ISO-8601 datetime with a time zone, e.g. 2026-03-01T08:00:00Z, got "now"',
      ],
      [{ vehicle_ids: [v1.id], ...win(0, 5) }, 400, 'shipper_company_id is required'],
    ];
    for (const [payload, status, message] of cases)
      assertError(await t.call({ method: 'POST', url: '/v1/freight_visibility/shares', payload }), status, message);
    assert.equal((await t.call({ method: 'GET', url: '/v1/freight_visibility/shares' })).body.pagination.total, 1);
    assertError(
      await t.call({ method: 'DELETE', url: `/v1/freight_visibility/shares/${share.id}`, as: shipper }),
      404,
      `freight share ${share.id} not found`,
    );
  });

  test('companies: {"data":{"companies":[…]}} lists the carriers that share with the caller', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/freight_visibility/companies', as: shipper });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      data: {
        companies: [{ id: carrier.id, company_id: await code(carrier), name: 'Acme Freight', dot_ids: ['1234567'] }],
      },
    });
    for (const as of [stranger, carrier, loner]) {
      assert.deepEqual((await t.call({ method: 'GET', url: '/v1/freight_visibility/companies', as })).body, {
        data: { companies: [] },
      });
    }
  });

  test('subscribe: parameters in the query string (as documented) or a JSON body; 201 with tracking_subscription_id', async () => {
    const q = new URLSearchParams({
      company_id: await code(carrier),
      vehicle_id: String(v1.id),
      ...win(-1, 2),
      load_id: 'LOAD-1',
    });
    const a = await t.call({ method: 'POST', url: `/v1/freight_visibility/subscribe?${q}`, as: shipper });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.deepEqual(Object.keys(a.body), ['tracking_subscription_id']);
    assert.ok(Number.isInteger(a.body.tracking_subscription_id));
    const b = await sub({ company_id: carrier.id, vehicle_name: 'FV-2', ...win(30, 40) });
    assert.equal(b.status, 201, JSON.stringify(b.body));
    const c = await sub({ dot_id: '1234567', driver_id: driver.id, ...win(48, 50), load_details: 'Pallets' });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    // The body wins over the query string.
    const d = await t.call({
      method: 'POST',
      url: `/v1/freight_visibility/subscribe?vehicle_id=${v4.id}`,
      payload: { company_id: String(carrier.id), vehicle_id: String(v2.id), ...win(60, 62) },
      as: shipper,
    });
    assert.equal(d.status, 201, JSON.stringify(d.body));
    const listed = await t.call({
      method: 'GET',
      url: `/v1/freight_visibility/vehicle_subscriptions?company_id=${carrier.id}`,
      as: shipper,
    });
    assert.equal(listed.status, 200);
    const data = listed.body.data;
    assert.deepEqual(Object.keys(data), ['company_id', 'dot_ids', 'vehicle_subscriptions']);
    assert.deepEqual([data.company_id, data.dot_ids], [await code(carrier), ['1234567']]);
    assert.deepEqual(
      data.vehicle_subscriptions.map((v: any) => [
        v.vehicle_id,
        v.vehicle_name,
        v.subscriptions.map((x: any) => x.tracking_subscription_id),
      ]),
      [
        [String(v1.id), 'FV-1', [a.body.tracking_subscription_id, c.body.tracking_subscription_id]],
        [String(v2.id), 'FV-2', [b.body.tracking_subscription_id, d.body.tracking_subscription_id]],
      ],
    );
    assert.deepEqual(data.vehicle_subscriptions[0].subscriptions[0], {
      tracking_subscription_id: a.body.tracking_subscription_id,
      start_time: wire(q.get('start_time')!),
      end_time: wire(q.get('end_time')!),
      load_id: 'LOAD-1',
    });
    const byName = await t.call({
      method: 'GET',
      url: `/v1/freight_visibility/vehicle_subscriptions?dot_id=1234567&vehicle_name=FV-2`,
      as: shipper,
    });
    assert.deepEqual(
      byName.body.data.vehicle_subscriptions.map((v: any) => v.vehicle_id),
      [String(v2.id)],
    );
    const byId = await t.call({
      method: 'GET',
      url: `/v1/freight_visibility/vehicle_subscriptions?company_id=${carrier.id}&vehicle_id=${v1.id}`,
      as: shipper,
    });
    assert.deepEqual(
      byId.body.data.vehicle_subscriptions.map((v: any) => v.subscriptions.length),
      [2],
    );
  });

  test('subscribe refusals: a precise 400 or 404, nothing stored', async () => {
    const before = await count();
    const c = carrier.id;
    const cases: Array<[Record<string, unknown>, number, string, TestCompany?]> = [
      [{ vehicle_id: v1.id, ...win(100, 101) }, 400, 'company_id or dot_id is required'],
      [{ company_id: c, ...win(100, 101) }, 400, 'vehicle_id is required (or vehicle_name, or driver_id)'],
      [{ company_id: c, vehicle_id: v1.id }, 400, 'start_time is required'],
      [{ company_id: c, vehicle_id: v1.id, start_time: iso(hoursFromNow(100)) }, 400, 'end_time is required'],
      [
        { company_id: c, asset_id: 5, ...win(100, 101) },
        400,
        'asset_id cannot be tracked: only vehicles can be subscribed to here',
      ],
      [
        { company_id: 'FP9999999', vehicle_id: v1.id, ...win(100, 101) },
        404,
        'company_id: carrier FP9999999 not found',
      ],
      [{ company_id: loner.id, vehicle_id: v1.id, ...win(100, 101) }, 404, `company_id: carrier ${loner.id} not found`],
      [
        { dot_id: '7654321', vehicle_id: v1.id, ...win(100, 101) },
        404,
        'dot_id: carrier with DOT id 7654321 not found',
      ],
      [
        { company_id: c, dot_id: '7654321', vehicle_id: v1.id, ...win(100, 101) },
        400,
        'dot_id 7654321 is not a DOT id of carrier ' + (await code(carrier)),
      ],
      [{ company_id: c, vehicle_id: v4.id, ...win(100, 101) }, 404, `vehicle_id: vehicle ${v4.id} not found`],
      [{ company_id: c, vehicle_id: 987654, ...win(100, 101) }, 404, 'vehicle_id: vehicle 987654 not found'],
      [
        { company_id: c, vehicle_id: 'abc', ...win(100, 101) },
        400,
        'vehicle_id must be a positive integer id, got "abc"',
      ],
      [{ company_id: c, vehicle_name: 'FV-4', ...win(100, 101) }, 404, 'vehicle_name: vehicle "FV-4" not found'],
      [
        { company_id: c, vehicle_id: v3.id, ...win(100, 101) },
        400,
        `vehicle_id vehicle ${v3.id} is deactivated; only active vehicles can be tracked`,
      ],
      [{ company_id: c, vehicle_id: v1.id, ...win(101, 100) }, 400, 'end_time must be after start_time'],
      [
        {
          company_id: c,
          vehicle_id: v1.id,
          start_time: iso(hoursFromNow(100)),
          end_time: iso(new Date(hoursFromNow(100).getTime() + 30 * 60_000)),
        },
        400,
        'end_time must be at least 1 hour after start_time',
      ],
      [
        { company_id: c, vehicle_id: v1.id, ...win(100, 100 + 5 * 24 + 1) },
        400,
        'end_time must be at most 5 days after start_time',
      ],
      [
        { company_id: c, vehicle_id: v1.id, ...win(15 * 24, 15 * 24 + 2) },
        400,
        'start_time must be at most 2 weeks from now',
      ],
      [{ company_id: c, vehicle_id: v1.id, ...win(-10, -5) }, 400, 'end_time must be in the future'],
      [
        { company_id: c, vehicle_id: v1.id, start_time: '2026-13-01T00:00:00Z', end_time: iso(hoursFromNow(5)) },
        400,
        'start_time must be an ISO-8601 datetime with a time zone, e.g. 2026-03-01T08:00:00Z, got "2026-13-01T00:00:00Z"',
      ],
      [
        { company_id: c, vehicle_id: v1.id, ...win(24 * 9, 24 * 11) },
        400,
        /^end_time vehicle \d+ is not shared with your company for the whole window /.source,
      ],
      [{ company_id: c, vehicle_id: v1.id, ...win(-3, 1) }, 400, /^end_time vehicle \d+ is not shared/.source],
      [
        { company_id: c, vehicle_id: v1.id, ...win(1, 3) },
        400,
        /^start_time overlaps tracking subscription \d+ \(.+\) of the same vehicle$/.source,
      ],
      [
        { company_id: c, vehicle_id: v1.id, ...win(100, 101) },
        404,
        `company_id: carrier ${carrier.id} not found`,
        stranger,
      ],
    ];
    for (const [payload, status, message, as] of cases) {
      const res = await sub(payload, as ?? shipper);
      if (message.startsWith('^')) assertError(res, status, new RegExp(message));
      else assertError(res, status, message);
    }
    assert.equal(await count(), before, 'nothing stored');
  });

  test('PUT subscribe widens a window; everything else is refused', async () => {
    const created = await sub({ company_id: carrier.id, vehicle_id: v2.id, ...win(70, 72) });
    const id = created.body.tracking_subscription_id;
    const put = (payload: Record<string, unknown>, as = shipper) =>
      t.call({ method: 'PUT', url: '/v1/freight_visibility/subscribe', payload, as });
    const ok = await put({ tracking_subscription_id: id, end_time: iso(hoursFromNow(74)) });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body, { success: true });
    const q = await t.call({
      method: 'PUT',
      url: `/v1/freight_visibility/subscribe?tracking_subscription_id=${id}&start_time=${encodeURIComponent(iso(hoursFromNow(69)))}`,
      as: shipper,
    });
    assert.equal(q.status, 200, JSON.stringify(q.body));
    const cases: Array<[Record<string, unknown>, number, string | RegExp, TestCompany?]> = [
      [{ end_time: iso(hoursFromNow(80)) }, 400, 'tracking_subscription_id is required'],
      [{ tracking_subscription_id: id }, 400, 'start_time or end_time is required'],
      [{ tracking_subscription_id: id, end_time: iso(hoursFromNow(73)) }, 400, /^end_time can only move later than /],
      [
        { tracking_subscription_id: id, start_time: iso(hoursFromNow(70)) },
        400,
        /^start_time can only move earlier than /,
      ],
      [
        { tracking_subscription_id: id, end_time: iso(hoursFromNow(69 + 5 * 24 + 1)) },
        400,
        'end_time must be at most 5 days after start_time',
      ],
      [
        { tracking_subscription_id: id, start_time: iso(hoursFromNow(61)) },
        400,
        /^start_time overlaps tracking subscription \d+/,
      ],
      [
        { tracking_subscription_id: 987654, end_time: iso(hoursFromNow(80)) },
        404,
        'tracking subscription 987654 not found',
      ],
      [
        { tracking_subscription_id: id, end_time: iso(hoursFromNow(80)) },
        404,
        `tracking subscription ${id} not found`,
        stranger,
      ],
      [
        { tracking_subscription_id: 'x1', end_time: iso(hoursFromNow(80)) },
        400,
        'tracking_subscription_id must be a positive integer id, got "x1"',
      ],
    ];
    for (const [payload, status, message, as] of cases) assertError(await put(payload, as), status, message);
    const row = await t.db.kysely
      .selectFrom('freight_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [wire(row.start_time), wire(row.end_time)].map((x) => x.slice(0, 13)),
      [wire(hoursFromNow(69)).slice(0, 13), wire(hoursFromNow(74)).slice(0, 13)],
    );
  });

  test('DELETE subscribe cancels; a cancelled subscription cannot be changed or listed', async () => {
    const id = (await sub({ company_id: carrier.id, vehicle_id: v2.id, ...win(90, 92) })).body.tracking_subscription_id;
    assertError(
      await t.call({
        method: 'DELETE',
        url: `/v1/freight_visibility/subscribe?tracking_subscription_id=${id}`,
        as: stranger,
      }),
      404,
    );
    const res = await t.call({
      method: 'DELETE',
      url: `/v1/freight_visibility/subscribe?tracking_subscription_id=${id}`,
      as: shipper,
    });
    assert.deepEqual([res.status, res.body], [200, { success: true }]);
    assertError(
      await t.call({
        method: 'DELETE',
        url: '/v1/freight_visibility/subscribe',
        payload: { tracking_subscription_id: id },
        as: shipper,
      }),
      400,
      `tracking subscription ${id} is cancelled and cannot be cancelled`,
    );
    assertError(
      await t.call({
        method: 'PUT',
        url: '/v1/freight_visibility/subscribe',
        payload: { tracking_subscription_id: id, end_time: iso(hoursFromNow(93)) },
        as: shipper,
      }),
      400,
      `tracking subscription ${id} is cancelled and cannot be modified`,
    );
    const listed = await t.call({
      method: 'GET',
      url: `/v1/freight_visibility/vehicle_subscriptions?company_id=${carrier.id}`,
      as: shipper,
    });
    assert.ok(!JSON.stringify(listed.body).includes(`"tracking_subscription_id":${id},`));
    // The window is free again.
    assert.equal((await sub({ company_id: carrier.id, vehicle_id: v2.id, ...win(90, 92) })).status, 201);
  });

  test('vehicle_subscriptions and vehicle_association need a carrier that shares with the caller', async () => {
    for (const path of ['vehicle_subscriptions', 'vehicle_association']) {
      assertError(
        await t.call({ method: 'GET', url: `/v1/freight_visibility/${path}`, as: shipper }),
        400,
        'company_id or dot_id is required',
      );
      assertError(
        await t.call({ method: 'GET', url: `/v1/freight_visibility/${path}?company_id=${carrier.id}`, as: stranger }),
        404,
        `company_id: carrier ${carrier.id} not found`,
      );
    }
    assertError(
      await t.call({
        method: 'GET',
        url: `/v1/freight_visibility/vehicle_association?company_id=${carrier.id}&lat=41`,
        as: shipper,
      }),
      400,
      'lon is required together with the other coordinate',
    );
    assertError(
      await t.call({
        method: 'GET',
        url: `/v1/freight_visibility/vehicle_association?company_id=${carrier.id}&lat=91&lon=0`,
        as: shipper,
      }),
      400,
      'lat must be at most 90',
    );
  });

  test('vehicle_association: the active shared vehicles with their driver; distance only through a live subscription', async () => {
    await setLatestLocation(t, carrier.id, v1.id, hoursFromNow(-0.5), 41.26, -95.94);
    await setLatestLocation(t, carrier.id, v2.id, hoursFromNow(-0.5), 41.0, -96.0);
    const res = await t.call({
      method: 'GET',
      url: `/v1/freight_visibility/vehicle_association?company_id=${await code(carrier)}&lat=41.2565&lon=-95.9345`,
      as: shipper,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body.data), ['company_id', 'dot_ids', 'vehicles']);
    const [first, second] = res.body.data.vehicles;
    assert.equal(res.body.data.vehicles.length, 2, 'the deactivated and the unshared vehicles are not listed');
    assert.deepEqual(
      { ...first, distance_mi: typeof first.distance_mi },
      {
        vehicle_id: String(v1.id),
        vehicle_name: 'FV-1',
        vin: '1FUJGLDR0CL000001',
        driver: { id: driver.id, first_name: 'Carla', last_name: 'Driver' },
        distance_mi: 'number',
      },
    );
    assert.ok(first.distance_mi < 1, `live subscription on FV-1 since an hour ago: ${first.distance_mi}`);
    assert.deepEqual(second, {
      vehicle_id: String(v2.id),
      vehicle_name: 'FV-2',
      vin: null,
      driver: null,
      distance_mi: null,
    });
  });

  test('vehicle_locations: each live subscription with the vehicle, its visible location and current_driver', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/freight_visibility/vehicle_locations', as: shipper });
    const items = assertList(res, 'vehicles', 'vehicle');
    assert.equal(items.length, 1, 'only the subscription whose window holds now');
    const x = items[0];
    assertKeySet(x, [
      'id',
      'number',
      'year',
      'make',
      'model',
      'vin',
      'current_location',
      'current_driver',
      'company',
      'tracking_subscription_id',
      'start_time',
      'end_time',
      'load_id',
      'load_details',
    ]);
    assert.equal(x.id, v1.id);
    assert.equal(x.load_id, 'LOAD-1');
    assert.deepEqual(x.company, {
      id: carrier.id,
      company_id: await code(carrier),
      name: 'Acme Freight',
      dot_ids: ['1234567'],
    });
    assertKeySet(x.current_driver, USER_SUMMARY_KEYS, 'current_driver');
    assert.equal(x.current_driver.id, driver.id);
    assertKeySet(x.current_location, [
      'id',
      'lat',
      'lon',
      'description',
      'located_at',
      'bearing',
      'speed',
      'engine_hours',
      'fuel',
      'odometer',
      'type',
    ]);
    assert.deepEqual(
      [x.current_location.lat, x.current_location.lon, x.current_location.type],
      [41.26, -95.94, 'vehicle_moving'],
    );
    for (const as of [stranger, carrier]) {
      const none = await t.call({ method: 'GET', url: '/v1/freight_visibility/vehicle_locations', as });
      assert.deepEqual(assertList(none, 'vehicles', 'vehicle'), []);
      assert.equal(none.body.pagination.total, 0);
    }
  });

  test('concurrent subscriptions to one vehicle: exactly one wins, the others are refused as overlapping', async () => {
    const racer = await createVehicle(t, { number: 'FV-RACE' });
    const shared = await t.call({
      method: 'POST',
      url: '/v1/freight_visibility/shares',
      payload: { shipper_company_id: shipper.id, vehicle_ids: [racer.id], ...win(-1, 48) },
    });
    assert.equal(shared.status, 201);
    const window = win(5, 8);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => sub({ company_id: carrier.id, vehicle_id: racer.id, ...window })),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 400, 400, 400, 400, 400]);
    for (const r of results.filter((x) => x.status === 400))
      assert.match(r.body.error_message, /^start_time overlaps tracking subscription \d+/);
    const rows = await t.db.kysely
      .selectFrom('freight_subscriptions')
      .select('id')
      .where('vehicle_id', '=', racer.id)
      .execute();
    assert.equal(rows.length, 1);
  });
});
