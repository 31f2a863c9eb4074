/**
 * GET /v1/inspection_reports and lookup_by_external_id: envelope, every field with defects nested as
 * defects[].defect, each filter (date window with its one-week default, driver_ids, vehicle_ids, status,
 * updated_after), bad input and tenant isolation (docs/reference/wire.md §4.12, §9).
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import {
  DATETIME,
  USER_SUMMARY_KEYS,
  assertError,
  assertKeySet,
  assertList,
  createUser,
  createVehicle,
  idsOf,
} from '../../http/fixtures.js';
import { localDate } from '../../../src/core/time-zone.js';
import { REPORT_KEYS, VEHICLE_SUMMARY_KEYS, submitReport, wire } from '../../http/fleet-record-fixtures.js';

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

eachDialect('inspection reports: reading', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;
  let d1: any;
  let d2: any;
  let mech: any;
  let v1: any;
  let v2: any;
  const r: Record<string, any> = {};
  let edge: Date;
  let logId: number;

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
    d1 = await createUser(t, { first_name: 'Dana', last_name: 'One', carrier_name: 'Acme Carrier' });
    d2 = await createUser(t, { first_name: 'Dev', last_name: 'Two' });
    mech = await createUser(t, { role: 'fleet_user', first_name: 'Mo', last_name: 'Mechanic' });
    v1 = await createVehicle(t, {
      number: 'IR-1',
      year: '2018',
      make: 'Volvo',
      model: 'VNL',
      vin: '4V4NC9EH0JN000001',
    });
    v2 = await createVehicle(t, { number: 'IR-2' });
    r.clean = await submitReport(t, {
      driver_id: d1.id,
      vehicle_id: v1.id,
      time: ago(2 * DAY).toISOString(),
      driver_signed_at: ago(2 * DAY).toISOString(),
      inspection_type: 'post_trip',
    });
    // A log of d1's that the report names (a log_id must be one of the driver's logs).
    const stamp = new Date().toISOString();
    logId = (
      await t.db.kysely
        .insertInto('hos_logs')
        .values({
          company_id: t.company.id,
          driver_id: d1.id,
          log_date: '2026-01-15',
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    r.defects = await submitReport(t, {
      driver_id: d1.id,
      vehicle_id: v2.id,
      time: ago(3_600_000).toISOString(),
      inspection_type: 'pre_trip',
      odometer: 123456.7,
      trailer_nums: ['T17', ' ', 'T18'],
      location: '2.1 mi NE of Omaha, NE',
      city: 'Omaha',
      state: 'NE',
      driver_signed_at: ago(3_500_000).toISOString(),
      driver_signature_url: 'https://files.example/sig/1.png',
      log_id: logId,
      defects: [
        { area: 'tractor', category: 'Mirrors' },
        { area: 'trailer', category: 'Brakes', notes: 'grinding' },
      ],
      external_ids: [{ external_id: 'DVIR-2', integration_name: 'acme_tms' }],
    });
    r.unsigned = await submitReport(t, {
      driver_id: d2.id,
      vehicle_id: v1.id,
      time: ago(3 * DAY).toISOString(),
      defects: [{ area: 'tractor', category: 'Horn' }],
    });
    r.old = await submitReport(t, {
      driver_id: d2.id,
      vehicle_id: v2.id,
      time: ago(10 * DAY).toISOString(),
      driver_signed_at: ago(10 * DAY).toISOString(),
    });
    r.harmless = await submitReport(t, {
      driver_id: d2.id,
      vehicle_id: v2.id,
      time: ago(4 * DAY).toISOString(),
      driver_signed_at: ago(4 * DAY).toISOString(),
      defects: [{ area: 'tractor', category: 'Wipers' }],
    });
    r.corrected = await submitReport(t, {
      driver_id: d1.id,
      vehicle_id: v1.id,
      time: ago(5 * DAY).toISOString(),
      driver_signed_at: ago(5 * DAY).toISOString(),
      defects: [{ area: 'tractor', category: 'Lights' }],
    });
    for (const [id, status] of [
      [r.harmless.id, 'harmless'],
      [r.corrected.id, 'corrected'],
    ] as const) {
      const res = await t.call({
        method: 'PUT',
        url: `/v1/inspection_reports/${id}`,
        payload: { status, mechanic_id: mech.id },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    // Yesterday 03:00 UTC: the day before yesterday in New York.
    edge = new Date(`${utcDay(ago(DAY))}T03:00:00Z`);
    r.edge = await submitReport(t, {
      driver_id: d2.id,
      vehicle_id: v1.id,
      time: edge.toISOString(),
      driver_signed_at: edge.toISOString(),
    });
  });

  const ids = async (q: string, headers: Record<string, string> = {}) => {
    const res = await t.call({ method: 'GET', url: `/v1/inspection_reports${q}`, headers });
    assertList(res, 'inspection_reports', 'inspection_report');
    assert.equal(res.body.pagination.total, res.body.inspection_reports.length, `${q}: total`);
    return idsOf(res.body, 'inspection_reports', 'inspection_report');
  };

  test('a report on the wire: every field, defects[].defect, summaries, log_id and external ids', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/inspection_reports?vehicle_ids=${v2.id}&status=unknown` });
    const [x] = assertList(res, 'inspection_reports', 'inspection_report');
    assertKeySet(x, REPORT_KEYS, 'inspection_report');
    const defects = x.defects.map((w: any) => {
      assert.deepEqual(Object.keys(w), ['defect']);
      assertKeySet(w.defect, ['id', 'area', 'category', 'notes']);
      return w.defect;
    });
    assert.deepEqual(
      defects.map((d: any) => [d.area, d.category, d.notes]),
      [
        ['tractor', 'Mirrors', null],
        ['trailer', 'Brakes', 'grinding'],
      ],
    );
    assert.equal(x.id, r.defects.id);
    assert.equal(x.date, localDate(Date.parse(r.defects.time), 'America/New_York'), "the company's day");
    assert.equal(x.time, wire(r.defects.time));
    assert.match(x.time, DATETIME);
    assert.equal(x.odometer, 123456.7);
    assert.equal(x.carrier_name, 'Acme Carrier', "the driver's carrier name");
    assert.equal(x.vehicle_number, 'IR-2');
    assert.deepEqual(x.trailer_nums, ['T17', 'T18']);
    assert.deepEqual([x.location, x.city, x.state], ['2.1 mi NE of Omaha, NE', 'Omaha', 'NE']);
    assert.equal(x.status, 'unknown');
    assert.equal(x.inspection_type, 'pre_trip');
    assert.deepEqual([x.mechanic, x.mechanic_signed_at, x.mechanic_signature_url], [null, null, null]);
    assert.match(x.driver_signed_at, DATETIME);
    assert.equal(x.driver_signature_url, 'https://files.example/sig/1.png');
    assertKeySet(x.vehicle, VEHICLE_SUMMARY_KEYS, 'vehicle');
    assert.equal(x.vehicle.id, v2.id);
    assertKeySet(x.driver, USER_SUMMARY_KEYS, 'driver');
    assert.deepEqual([x.driver.id, x.driver.first_name, x.driver.role], [d1.id, 'Dana', 'driver']);
    assert.equal(x.log_id, logId);
    assert.deepEqual(x.external_ids, [{ external_id: 'DVIR-2', integration_name: 'acme_tms' }]);
  });

  test("every report carries external_ids ([] when unset) and the log_id of the driver's log of that day; the company name is the default carrier", async () => {
    const res = await t.call({
      method: 'GET',
      url: `/v1/inspection_reports?driver_ids=${d2.id}&status=with_no_defects`,
    });
    const items = assertList(res, 'inspection_reports', 'inspection_report');
    assert.ok(items.length > 0);
    for (const x of items) {
      const log = await t.db.kysely
        .selectFrom('hos_logs')
        .select(['driver_id', 'log_date'])
        .where('id', '=', x.log_id)
        .executeTakeFirstOrThrow();
      assert.deepEqual([log.driver_id, log.log_date], [d2.id, x.date]);
      assert.deepEqual(x.external_ids, []);
      assert.equal(x.carrier_name, 'Acme Freight');
      assert.deepEqual(x.defects, []);
      assert.equal(x.status, 'satisfactory');
    }
  });

  test('default window: the last week; ordered by id', async () => {
    assert.deepEqual(await ids(''), [
      r.clean.id,
      r.defects.id,
      r.unsigned.id,
      r.harmless.id,
      r.corrected.id,
      r.edge.id,
    ]);
  });

  test('start_date and end_date, inclusive; end_date alone reaches back one week', async () => {
    assert.deepEqual(await ids(`?start_date=${utcDay(ago(11 * DAY))}`), [
      r.clean.id,
      r.defects.id,
      r.unsigned.id,
      r.old.id,
      r.harmless.id,
      r.corrected.id,
      r.edge.id,
    ]);
    assert.deepEqual(await ids(`?start_date=${utcDay(ago(10 * DAY))}&end_date=${utcDay(ago(10 * DAY))}`), [r.old.id]);
    assert.deepEqual(await ids(`?end_date=${utcDay(ago(9 * DAY))}`), [r.old.id]);
    assert.deepEqual(await ids(`?start_date=${utcDay(ago(30 * DAY))}&end_date=${utcDay(ago(20 * DAY))}`), []);
  });

  test('X-Time-Zone sets the day boundaries of the window', async () => {
    const y = utcDay(edge);
    const dayBefore = utcDay(new Date(edge.getTime() - DAY));
    const ny = { 'x-time-zone': 'Eastern Time (US & Canada)' };
    assert.ok((await ids(`?start_date=${y}&end_date=${y}`)).includes(r.edge.id));
    assert.ok(!(await ids(`?start_date=${y}&end_date=${y}`, ny)).includes(r.edge.id));
    assert.ok((await ids(`?start_date=${dayBefore}&end_date=${dayBefore}`, ny)).includes(r.edge.id));
  });

  test('driver_ids and vehicle_ids in any array syntax, and together', async () => {
    assert.deepEqual(await ids(`?driver_ids[]=${d1.id}`), [r.clean.id, r.defects.id, r.corrected.id]);
    assert.deepEqual(await ids(`?driver_ids=${d2.id}`), [r.unsigned.id, r.harmless.id, r.edge.id]);
    assert.deepEqual(await ids(`?driver_ids=${d1.id},${d2.id}&vehicle_ids[0]=${v2.id}`), [r.defects.id, r.harmless.id]);
    assert.deepEqual(await ids(`?vehicle_ids=${v1.id}&vehicle_ids=${v2.id}`), [
      r.clean.id,
      r.defects.id,
      r.unsigned.id,
      r.harmless.id,
      r.corrected.id,
      r.edge.id,
    ]);
    assert.deepEqual(await ids('?driver_ids=987654'), []);
  });

  test('status: all, with_defects, with_no_defects, with_signature_missing, unknown, harmless, corrected', async () => {
    const cases: Array<[string, number[]]> = [
      ['all', [r.clean.id, r.defects.id, r.unsigned.id, r.harmless.id, r.corrected.id, r.edge.id]],
      ['with_defects', [r.defects.id, r.unsigned.id, r.harmless.id, r.corrected.id]],
      ['with_no_defects', [r.clean.id, r.edge.id]],
      ['with_signature_missing', [r.defects.id, r.unsigned.id]],
      ['unknown', [r.defects.id, r.unsigned.id]],
      ['harmless', [r.harmless.id]],
      ['corrected', [r.corrected.id]],
    ];
    for (const [status, expected] of cases) assert.deepEqual(await ids(`?status=${status}`), expected, status);
  });

  test('updated_after: reports changed after an instant, without the default window', async () => {
    const all = await ids(`?updated_after=${encodeURIComponent(ago(60_000).toISOString())}`);
    assert.ok(all.includes(r.old.id), 'older than a week but created just now');
    const mark = new Date(Date.now() + 5);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const put = await t.call({
      method: 'PUT',
      url: `/v1/inspection_reports/${r.clean.id}`,
      payload: { external_ids_attributes: [{ external_id: 'C-1', integration_name: 'acme_tms' }] },
    });
    assert.equal(put.status, 200);
    assert.deepEqual(await ids(`?updated_after=${encodeURIComponent(mark.toISOString())}`), [r.clean.id]);
    assert.deepEqual(await ids(`?updated_after=${utcDay(new Date(Date.now() + DAY))}`), []);
    assert.deepEqual(await ids(`?updated_after=${encodeURIComponent(mark.toISOString())}&status=with_defects`), []);
  });

  test('lookup_by_external_id: the report, 404 on a miss, 400 without both keys', async () => {
    const hit = await t.call({
      method: 'GET',
      url: '/v1/inspection_reports/lookup_by_external_id?external_id=DVIR-2&integration_name=acme_tms',
    });
    assert.equal(hit.status, 200);
    assert.deepEqual(Object.keys(hit.body), ['inspection_report']);
    assertKeySet(hit.body.inspection_report, REPORT_KEYS);
    assert.equal(hit.body.inspection_report.id, r.defects.id);
    assertError(
      await t.call({
        method: 'GET',
        url: '/v1/inspection_reports/lookup_by_external_id?external_id=DVIR-2&integration_name=other',
      }),
      404,
      'inspection report not found',
    );
    assertError(
      await t.call({ method: 'GET', url: '/v1/inspection_reports/lookup_by_external_id?external_id=DVIR-2' }),
      400,
      'integration_name is required',
    );
    assertError(
      await t.call({ method: 'GET', url: '/v1/inspection_reports/lookup_by_external_id?integration_name=acme_tms' }),
      400,
      'external_id is required',
    );
  });

  test('bad query values are 400 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      [
        'status=open',
        'status must be one of: all, with_defects, with_no_defects, with_signature_missing, unknown, harmless, corrected',
      ],
      ['start_date=2026-13-01', 'start_date is not a valid date (2026-13-01)'],
      ['start_date=yesterday', 'start_date has an invalid format'],
      ['start_date=2026-03-05&end_date=2026-03-01', 'end_date must not be before start_date'],
      ['updated_after=soon', 'updated_after has an invalid format'],
      ['driver_ids=abc', 'driver_ids[0] must be an integer'],
      ['vehicle_ids[]=1&vehicle_ids[]=x', 'vehicle_ids[1] must be an integer'],
    ];
    for (const [q, message] of cases)
      assertError(await t.call({ method: 'GET', url: `/v1/inspection_reports?${q}` }), 400, message);
  });

  test('tenant isolation: another company sees none of these reports, nor their external ids', async () => {
    const res = await t.call({
      method: 'GET',
      url: `/v1/inspection_reports?start_date=${utcDay(ago(30 * DAY))}`,
      as: other,
    });
    assert.deepEqual(assertList(res, 'inspection_reports', 'inspection_report'), []);
    assert.equal(res.body.pagination.total, 0);
    assertError(
      await t.call({
        method: 'GET',
        url: '/v1/inspection_reports/lookup_by_external_id?external_id=DVIR-2&integration_name=acme_tms',
        as: other,
      }),
      404,
      'inspection report not found',
    );
    const theirDriver = await createUser(t, {}, other);
    const theirVehicle = await createVehicle(t, {}, other);
    const theirs = await submitReport(
      t,
      {
        driver_id: theirDriver.id,
        vehicle_id: theirVehicle.id,
        external_ids: [{ external_id: 'DVIR-2', integration_name: 'acme_tms' }],
      },
      other,
    );
    assert.deepEqual(
      idsOf(
        (await t.call({ method: 'GET', url: '/v1/inspection_reports', as: other })).body,
        'inspection_reports',
        'inspection_report',
      ),
      [theirs.id],
    );
    assert.ok(!(await ids(`?driver_ids=${theirDriver.id}`)).length);
    const mine = await t.call({
      method: 'GET',
      url: '/v1/inspection_reports/lookup_by_external_id?external_id=DVIR-2&integration_name=acme_tms',
    });
    assert.equal(mine.body.inspection_report.id, r.defects.id);
  });
});
