/** /v1/forms, /v1 and /v2 form_entries with their filters, recordFormEntry and auto_complete_forms. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { DATETIME, assertError, assertKeySet, assertList } from '../../http/fixtures.js';
import { createDispatch, current, events, put, scoped, world, type World } from './fixtures.js';
import { createForm, recordFormEntry } from '../../../src/domain/dispatch/forms.js';
import { AppError } from '../../../src/core/errors.js';

const ENTRY_KEYS = [
  'id',
  'form_id',
  'form_version',
  'dispatch_id',
  'vendor_dispatch_id',
  'vendor_stop_id',
  'driver_id',
  'vehicle_id',
  'entry',
  'submitted_at',
  'created_at',
];
const ENTRY_V1_KEYS = [
  'id',
  'form_id',
  'driver_id',
  'vehicle_id',
  'dispatch_id',
  'dispatch_stop_id',
  'dispatch_trip_id',
  'bearing',
  'city',
  'created_at',
  'entered_at',
  'lat',
  'lon',
  'odometer',
  'rg_brg',
  'form_version',
  'vendor_dispatch_id',
  'vendor_stop_id',
  'entry',
  'submitted_at',
];

eachDialect('forms and form entries', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let w: World;
  let bol: any;
  let weight: any;

  before(async () => {
    t = await getApp();
    w = await world(t);
    const tenant = { companyId: t.company.id };
    bol = await createForm(t.db, tenant, {
      name: 'Bill of lading',
      external_ids: [{ external_id: 'BOL-7', integration_name: 'acme_tms' }],
      fields: [{ name: 'bol', label: 'BOL number', type: 'text', required: true }],
    });
    weight = await createForm(t.db, tenant, {
      name: 'Weight',
      fields: [{ name: 'weight', label: 'Weight (lb)', type: 'number', required: false }],
    });
  });

  const entry = (fields: Record<string, unknown>) =>
    recordFormEntry(t.db, { companyId: t.company.id }, fields as never);

  test('GET /v1/forms answers the documented form: integer id, UUID form_id, title, definition', async () => {
    const forms = assertList(await t.call({ method: 'GET', url: '/v1/forms' }), 'forms', 'form');
    const f = forms.find((x) => x.form_id === bol.id);
    assert.match(f.created_at, DATETIME);
    assert.deepEqual(f, {
      id: bol.seq,
      form_id: bol.id,
      version: 1,
      title: 'Bill of lading',
      name: 'Bill of lading',
      available_for_driver: false,
      definition: [
        {
          label: 'BOL number',
          name: 'bol',
          position: 1,
          type: 'text',
          length: null,
          required: true,
          default_value: null,
        },
      ],
      external_ids: [{ external_id: 'BOL-7', integration_name: 'acme_tms' }],
      form_fields: [{ form_field: { name: 'bol', label: 'BOL number', type: 'text', required: true } }],
      created_at: f.created_at,
      updated_at: f.updated_at,
    });
    assert.ok(Number.isInteger(bol.seq) && weight.seq > bol.seq, 'integer ids in creation order');
    const other = await t.newCompany('Other');
    assert.deepEqual((await t.call({ method: 'GET', url: '/v1/forms', as: other })).body.forms, []);
  });

  test('form entries: recorded by the service, listed with every key, filtered in any array syntax', async () => {
    const d1 = await createDispatch(t, w);
    const d2 = await createDispatch(t, w, { driver_id: w.driver2.id, vehicle_id: w.vehicle2.id });
    const e1 = await entry({
      form_id: bol.id,
      driver_id: w.driver.id,
      dispatch_id: d1.id,
      vendor_stop_id: d1.vendor_shipper_id,
      entry: { bol: 'B1' },
    });
    const e2 = await entry({
      form_id: weight.id,
      driver_id: w.driver2.id,
      vendor_dispatch_id: d2.vendor_id,
      entry: { weight: 40000 },
    });
    const e3 = await entry({ form_id: weight.id, driver_id: w.driver.id, vehicle_id: w.vehicle2.id, entry: {} });
    const ids = async (q: string, v = 1) =>
      assertList(await t.call({ method: 'GET', url: `/v${v}/form_entries?${q}` }), 'form_entries', 'form_entry').map(
        (e) => e.id,
      );
    const listed = async (v: number) =>
      assertList(await t.call({ method: 'GET', url: `/v${v}/form_entries` }), 'form_entries', 'form_entry').find(
        (e) => e.id === e1.id,
      );
    const v2 = await listed(2);
    assertKeySet(v2, ENTRY_KEYS, 'form_entry');
    assert.match(v2.submitted_at, DATETIME);
    assert.deepEqual(v2, {
      id: e1.id,
      form_id: bol.id,
      form_version: 1,
      dispatch_id: d1.id,
      vendor_dispatch_id: d1.vendor_id,
      vendor_stop_id: d1.vendor_shipper_id,
      driver_id: w.driver.id,
      vehicle_id: w.vehicle.id,
      entry: { bol: 'B1' },
      submitted_at: v2.submitted_at,
      created_at: v2.created_at,
    });
    const v1 = await listed(1);
    assertKeySet(v1, ENTRY_V1_KEYS, 'form_entry');
    const stop = await t.db.kysely
      .selectFrom('dispatch_stops')
      .select(['id', 'trip_id'])
      .where('id', '=', e1.dispatch_stop_id!)
      .executeTakeFirstOrThrow();
    assert.deepEqual(v1, {
      id: e1.id,
      form_id: bol.seq,
      driver_id: w.driver.id,
      vehicle_id: w.vehicle.id,
      dispatch_id: d1.id,
      dispatch_stop_id: stop.id,
      dispatch_trip_id: stop.trip_id,
      bearing: null,
      city: null,
      created_at: v2.created_at,
      entered_at: v2.submitted_at,
      lat: null,
      lon: null,
      odometer: null,
      rg_brg: null,
      form_version: 1,
      vendor_dispatch_id: d1.vendor_id,
      vendor_stop_id: d1.vendor_shipper_id,
      entry: { bol: 'B1' },
      submitted_at: v2.submitted_at,
    });
    const e2v1 = assertList(
      await t.call({ method: 'GET', url: '/v1/form_entries?per_page=100' }),
      'form_entries',
      'form_entry',
    ).find((e) => e.id === e2.id);
    assert.deepEqual(
      [e2v1.form_id, e2v1.dispatch_stop_id, e2v1.dispatch_trip_id],
      [weight.seq, null, null],
      'no stop: no trip',
    );
    assert.deepEqual(await ids(`dispatch_ids[]=${d1.id}&dispatch_ids[]=${d2.id}`), [e1.id, e2.id]);
    assert.deepEqual(await ids(`dispatch_ids=${d2.id}`), [e2.id]);
    assert.deepEqual(await ids(`driver_ids=${w.driver.id}`), [e1.id, e3.id]);
    assert.deepEqual(await ids(`driver_ids[0]=${w.driver2.id}`), [e2.id]);
    assert.deepEqual(await ids(`vehicle_ids=${w.vehicle2.id},999999`), [e2.id, e3.id]);
    assert.deepEqual(await ids(`driver_ids=${w.driver.id}&vehicle_ids=${w.vehicle2.id}`), [e3.id]);
    assert.deepEqual(await ids(`dispatch_ids=${d1.id}`, 2), [e1.id], 'v2 filters the same way');
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual(await ids(`start_date=${today}&end_date=${today}&driver_ids=${w.driver2.id}`), [e2.id]);
    assert.deepEqual(await ids('start_date=2001-01-01&end_date=2001-03-01'), []);
  });

  test('form entries: date ranges over 3 months and bad dates → 400', async () => {
    for (const v of [1, 2]) {
      assertError(
        await t.call({ method: 'GET', url: `/v${v}/form_entries?start_date=2024-01-01&end_date=2024-04-02` }),
        400,
        'Date range cannot be greater than 3 months',
      );
    }
    assert.equal(
      (await t.call({ method: 'GET', url: '/v1/form_entries?start_date=2024-01-01&end_date=2024-04-01' })).status,
      200,
    );
    assertError(
      await t.call({ method: 'GET', url: '/v1/form_entries?start_date=2024-02-30' }),
      400,
      'start_date is not a valid date (2024-02-30)',
    );
    assertError(
      await t.call({ method: 'GET', url: '/v1/form_entries?start_date=2024-03-01&end_date=2024-02-01' }),
      400,
      'end_date must not be before start_date',
    );
  });

  test('recordFormEntry refuses bad references with the member named', async () => {
    const d = await createDispatch(t, w);
    const tries: Array<[Record<string, unknown>, string]> = [
      [
        { form_id: '00000000-0000-4000-8000-000000000000', driver_id: w.driver.id, entry: {} },
        'form_id names no form of this company ("00000000-0000-4000-8000-000000000000")',
      ],
      [{ form_id: bol.id, driver_id: w.driver.id, entry: {} }, `entry.bol is required by form "Bill of lading"`],
      [{ form_id: weight.id, driver_id: 999999, entry: {} }, 'driver_id names no user of this company (999999)'],
      [
        { form_id: weight.id, driver_id: w.driver.id, dispatch_id: 999999, entry: {} },
        'dispatch_id names no dispatch of this company (999999)',
      ],
      [
        { form_id: weight.id, driver_id: w.driver.id, dispatch_id: d.id, vendor_stop_id: 'NOPE', entry: {} },
        'vendor_stop_id names no stop of the dispatch ("NOPE")',
      ],
      [
        { form_id: weight.id, driver_id: w.driver.id, vendor_stop_id: 'S', entry: {} },
        'vendor_stop_id needs dispatch_id or vendor_dispatch_id',
      ],
    ];
    const before = (await t.call({ method: 'GET', url: '/v1/form_entries?per_page=100' })).body;
    for (const [input, message] of tries) {
      await assert.rejects(
        entry(input),
        (e: unknown) => e instanceof AppError && e.status === 400 && e.message === message,
        message,
      );
    }
    assert.deepEqual((await t.call({ method: 'GET', url: '/v1/form_entries?per_page=100' })).body, before);
  });

  test('auto_complete_forms: a stop departs once all its forms have entries; the consignee completes the dispatch', async () => {
    const d = await createDispatch(
      t,
      w,
      {
        auto_complete_forms: true,
        driver_id: w.driver2.id,
        shipper_form_ids: [bol.id, weight.id],
        consignee_form_ids: [bol.id],
      },
      1,
    );
    const at = (stop: string, form: string, answers: Record<string, unknown>) =>
      entry({ form_id: form, driver_id: w.driver2.id, dispatch_id: d.id, vendor_stop_id: stop, entry: answers });
    await at(d.vendor_shipper_id, bol.id, { bol: 'X' });
    assert.equal((await current(t, d.vendor_id)).shipper_status, 'available', 'a planned dispatch does not progress');
    await put(t, { vendor_id: d.vendor_id, status: 'active' });
    await at(d.vendor_shipper_id, bol.id, { bol: 'X' });
    assert.equal((await current(t, d.vendor_id)).shipper_status, 'available', 'one of two forms');
    await at(d.vendor_shipper_id, weight.id, { weight: 1 });
    assert.equal((await current(t, d.vendor_id)).shipper_status, 'departed', 'both forms: the shipper departs');
    await at(`${d.vendor_id}-M1`, weight.id, {});
    assert.equal(
      (await current(t, d.vendor_id)).dispatch_stops[0].dispatch_stop.status,
      'departed',
      'a stop without forms departs on its first entry',
    );
    await at(d.vendor_consignee_id, bol.id, { bol: 'Y' });
    const done = await current(t, d.vendor_id);
    assert.deepEqual([done.consignee_status, done.status], ['departed', 'completed']);
    const tail = (await events(t)).slice(-2);
    assert.deepEqual(tail, [
      ['dispatch_upserted', 'updated'],
      ['dispatch_status_changed', 'completed'],
    ]);
    assert.ok((await events(t, 'form_entry')).every(([a]) => a === 'form_entry_created'));
  });

  test('without auto_complete_forms entries complete nothing', async () => {
    const d = await createDispatch(
      t,
      w,
      { status: 'active', driver_id: w.driver.id, consignee_form_ids: [weight.id] },
      0,
    );
    await entry({
      form_id: weight.id,
      driver_id: w.driver.id,
      dispatch_id: d.id,
      vendor_stop_id: d.vendor_consignee_id,
      entry: {},
    });
    const now = await current(t, d.vendor_id);
    assert.deepEqual([now.consignee_status, now.status], ['available', 'active']);
    await put(t, { vendor_id: d.vendor_id, status: 'cancelled' });
  });

  test('scopes: forms.read and form_entries.read', async () => {
    assert.equal((await t.call({ method: 'GET', url: '/v1/forms', as: scoped(t.company, 'forms.read') })).status, 200);
    assertError(
      await t.call({ method: 'GET', url: '/v1/forms', as: scoped(t.company, 'form_entries.read') }),
      403,
      /forms\.read/,
    );
    for (const v of [1, 2]) {
      assert.equal(
        (await t.call({ method: 'GET', url: `/v${v}/form_entries`, as: scoped(t.company, 'form_entries.read') }))
          .status,
        200,
      );
      assertError(
        await t.call({ method: 'GET', url: `/v${v}/form_entries`, as: scoped(t.company, 'forms.read') }),
        403,
        /form_entries\.read/,
      );
    }
  });
});
