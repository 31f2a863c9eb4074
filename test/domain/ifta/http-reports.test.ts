/**
 * Odometer calibrations and the quarterly report over HTTP, on both databases: calibrated odometers,
 * an ECM replacement whose gap distance appears once it is calibrated and goes again when the
 * calibration is deleted, offsets from a dashboard reading, errors and tenancy; the quarterly report
 * as JSON and CSV with fuel from fuel purchases, fleet MPG and taxable gallons per jurisdiction.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError } from '../../http/fixtures.js';
import { along } from './tracks.js';
import { get, items, mi, near, store, unit, type Unit } from './http-fixtures.js';
import { KM_PER_MI } from '../../../src/telemetry/units.js';

eachDialect('ifta calibrations and quarterly report', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let v4: Unit, v5: Unit, v6: Unit;
  let a: ReturnType<typeof along>, b: ReturnType<typeof along>, c: ReturnType<typeof along>;
  const summary = async (vehicleId: number) =>
    items(await get(t, `/v1/ifta/summary?start_date=2024-01-01&end_date=2024-03-31&vehicle_ids=${vehicleId}`));
  const calibrate = (payload: Record<string, unknown>) =>
    t.call({ method: 'POST', url: '/v1/ifta/odometer_calibrations', payload });

  before(async () => {
    t = await getApp();
    v4 = await unit(t, { fuel_type: 'diesel' });
    v5 = await unit(t, { fuel_type: 'diesel' });
    v6 = await unit(t, { fuel_type: 'diesel' });
    // v4 in Kansas: a drive, two hours in the shop where the ECM is replaced (new ECM reads 0 at 11:00Z,
    // then 12 km to where the next drive starts), and a second drive.
    a = along(
      [
        [38.8, -99.0],
        [38.8, -98.7],
      ],
      { t0: Date.parse('2024-02-10T10:00:00Z'), odo0: 500_000 },
    );
    b = along(
      [
        [38.8, -98.55],
        [38.8, -98.25],
      ],
      { t0: Date.parse('2024-02-10T12:20:00Z'), odo0: 12 },
    );
    await store(t, v4, a.track);
    await store(t, v4, b.track);
    // v5: Colorado into Wyoming; v6: a drive in Washington, DC the next day.
    c = along(
      [
        [40.9, -104.5],
        [41.1, -104.5],
      ],
      { t0: Date.parse('2024-02-10T15:00:00Z'), odo0: 300_000 },
    );
    await store(t, v5, c.track);
    await store(
      t,
      v6,
      along(
        [
          [38.9, -77.06],
          [38.9, -76.96],
        ],
        { t0: Date.parse('2024-02-11T14:00:00Z'), kph: 40, odo0: 300_100 },
      ).track,
    );
  });

  test('an offset for the whole history: calibrated odometers are the ECM odometers plus the offset, distances unchanged', async () => {
    const before = items(
      await get(t, `/v1/ifta/trips?start_date=2024-02-10&end_date=2024-02-10&vehicle_ids=${v5.vehicle.id}`),
    );
    const res = await calibrate({ vehicle_id: v5.vehicle.id, offset: 100, note: 'dashboard reads 100 mi more' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const cal = res.body.odometer_calibration;
    assert.deepEqual(Object.keys(cal).sort(), [
      'created_at',
      'effective_from',
      'id',
      'note',
      'offset_km',
      'offset_mi',
      'updated_at',
      'vehicle_id',
    ]);
    assert.equal(cal.effective_from, null);
    assert.equal(cal.offset_mi, 100);
    near(cal.offset_km, 160.934, 0.0001);
    const after = items(
      await get(t, `/v1/ifta/trips?start_date=2024-02-10&end_date=2024-02-10&vehicle_ids=${v5.vehicle.id}`),
    );
    assert.deepEqual(
      after.map((r) => r.distance),
      before.map((r) => r.distance),
    );
    for (const r of after) {
      near(r.calibrated_start_odometer, r.start_odometer + 100, 0.00001);
      near(r.calibrated_end_odometer, r.end_odometer + 100, 0.00001);
    }
    const list = await get(t, `/v1/ifta/odometer_calibrations?vehicle_ids=${v5.vehicle.id}`);
    assert.deepEqual(
      list.odometer_calibrations.map((w: any) => w.odometer_calibration.id),
      [cal.id],
    );
  });

  test('an ECM replacement: the gap distance counts once it is calibrated, and not after the calibration is deleted', async () => {
    const total = async () => (await summary(v4.vehicle.id)).reduce((s, r) => s + r.distance, 0);
    const plain = await total();
    near(plain, mi(a.km + b.km), 0.001);
    const res = await calibrate({
      vehicle_id: v4.vehicle.id,
      effective_from: '2024-02-10T11:00:00Z',
      offset: 500_000 + a.km,
      unit: 'km',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    near(await total(), mi(a.km + b.km + 12), 0.001);
    const [row] = items(
      await get(t, `/v1/ifta/trips?start_date=2024-02-10&end_date=2024-02-10&vehicle_ids=${v4.vehicle.id}`, {
        'X-Time-Zone': 'UTC',
      }),
    );
    assert.equal(row.calibrated_start_odometer, null, 'no calibration in force at 10:00Z');
    near(row.calibrated_end_odometer, mi(500_000 + a.km + b.track.odo[b.track.n - 1]), 0.000001);
    near(row.end_odometer, mi(b.track.odo[b.track.n - 1]), 0.0001);
    const del = await t.call({
      method: 'DELETE',
      url: `/v1/ifta/odometer_calibrations/${res.body.odometer_calibration.id}`,
    });
    assert.deepEqual(del.body, { success: true });
    near(await total(), plain, 0.0001);
  });

  test('an offset from the dashboard reading; refused inputs', async () => {
    const at = new Date(c.track.t[50]).toISOString();
    const res = await calibrate({ vehicle_id: v5.vehicle.id, effective_from: at, dashboard_odometer: 200_000 });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    near(res.body.odometer_calibration.offset_km, 200_000 * KM_PER_MI - c.track.odo[50], 1e-9);
    assertError(
      await calibrate({ vehicle_id: v5.vehicle.id, effective_from: at, dashboard_odometer: 1 }),
      400,
      /effective_from/,
    );
    assertError(await calibrate({ vehicle_id: v5.vehicle.id, offset: 1, dashboard_odometer: 1 }), 400, /exactly one/);
    assertError(await calibrate({ vehicle_id: v5.vehicle.id }), 400, /exactly one/);
    assertError(
      await calibrate({ vehicle_id: v5.vehicle.id, effective_from: '2023-01-01T00:00:00Z', dashboard_odometer: 5 }),
      400,
      /dashboard_odometer/,
    );
    const other = await t.newCompany('Elsewhere');
    assertError(
      await t.call({
        method: 'POST',
        url: '/v1/ifta/odometer_calibrations',
        payload: { vehicle_id: v5.vehicle.id, offset: 1 },
        as: other,
      }),
      404,
    );
    assertError(
      await t.call({
        method: 'DELETE',
        url: `/v1/ifta/odometer_calibrations/${res.body.odometer_calibration.id}`,
        as: other,
      }),
      404,
    );
    assert.equal((await get(t, '/v1/ifta/odometer_calibrations', {}, other)).pagination.total, 0);
    assert.equal(
      (await t.call({ method: 'DELETE', url: `/v1/ifta/odometer_calibrations/${res.body.odometer_calibration.id}` }))
        .status,
      200,
    );
  });

  test('the quarterly report: distance per jurisdiction, fuel purchased, fleet MPG, taxable and net taxable gallons', async () => {
    for (const [jurisdiction, fuel] of [
      ['CO', 20],
      ['WY', 10],
      ['NE', 5],
    ] as const) {
      const r = await t.call({
        method: 'POST',
        url: '/v1/fuel_purchases',
        payload: {
          vehicle_id: v5.vehicle.id,
          jurisdiction,
          fuel,
          fuel_unit: 'gal',
          purchased_at: '2024-02-10T18:00:00Z',
        },
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    await t.call({
      method: 'POST',
      url: '/v1/fuel_purchases',
      payload: {
        vehicle_id: v4.vehicle.id,
        jurisdiction: 'KS',
        fuel: 37.854,
        fuel_unit: 'l',
        purchased_at: '2024-02-10T18:00:00Z',
      },
    });
    await t.call({
      method: 'POST',
      url: '/v1/fuel_purchases',
      payload: { vehicle_id: v4.vehicle.id, jurisdiction: 'KS', fuel: 99, purchased_at: '2024-04-02T18:00:00Z' },
    });
    const body = await get(t, '/v1/ifta/quarterly_report?year=2024&quarter=1');
    const rep = body.ifta_quarterly_report;
    assert.deepEqual(
      [rep.start_date, rep.end_date, rep.due_date, rep.time_zone],
      ['2024-01-01', '2024-03-31', '2024-04-30', 'Eastern Time (US & Canada)'],
    );
    assert.deepEqual(
      rep.fuel_types.map((f: any) => f.fuel_type),
      ['diesel'],
    );
    const d = rep.fuel_types[0];
    assert.deepEqual(d.vehicle_ids, [v4.vehicle.id, v5.vehicle.id, v6.vehicle.id]);
    const miles = [
      ...(await summary(v4.vehicle.id)),
      ...(await summary(v5.vehicle.id)),
      ...(await summary(v6.vehicle.id)),
    ];
    const by = (j: string) => d.jurisdictions.find((l: any) => l.jurisdiction === j);
    assert.deepEqual(
      d.jurisdictions.map((l: any) => l.jurisdiction),
      ['CO', 'DC', 'KS', 'NE', 'WY'],
    );
    near(
      d.total_miles,
      miles.reduce((s, r) => s + r.distance, 0),
      0.0005,
    );
    near(d.fuel_gallons, 45, 0.0001);
    assert.equal(d.fleet_mpg, Math.round((d.total_miles / 45) * 100) / 100);
    assert.equal(by('DC').ifta_member, false);
    assert.equal(by('DC').taxable_miles, 0);
    assert.ok(by('DC').total_miles > 0);
    near(d.taxable_miles, d.total_miles - by('DC').total_miles, 0.0005);
    near(by('CO').taxable_gallons, by('CO').taxable_miles / d.fleet_mpg, 0.001);
    near(by('CO').net_taxable_gallons, by('CO').taxable_gallons - 20, 0.001);
    assert.equal(by('NE').total_miles, 0);
    assert.equal(by('NE').net_taxable_gallons, -5);
    near(by('KS').tax_paid_gallons, 10, 0.001);
    near(by('KS').total_km, a.km + b.km, 0.001);
  });

  test('the quarterly report as CSV, by format=csv or Accept: text/csv; bad parameters are a 400', async () => {
    const res = await t.app.inject({
      url: '/v1/ifta/quarterly_report?year=2024&quarter=1&format=csv',
      headers: t.company.headers,
    });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.match(String(res.headers['content-disposition']), /ifta-2024-q1\.csv/);
    const lines = res.body.trimEnd().split('\r\n');
    assert.equal(
      lines[0],
      'year,quarter,fuel_type,jurisdiction,ifta_member,total_miles,taxable_miles,total_km,taxable_km,gap_miles,tax_paid_gallons,tax_paid_liters,taxable_gallons,net_taxable_gallons,fleet_mpg',
    );
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',').slice(2, 5).join(',')),
      ['diesel,CO,Y', 'diesel,DC,N', 'diesel,KS,Y', 'diesel,NE,Y', 'diesel,WY,Y', 'diesel,TOTAL,'],
    );
    const json = (await get(t, '/v1/ifta/quarterly_report?year=2024&quarter=1')).ifta_quarterly_report.fuel_types[0];
    assert.equal(Number(lines[6].split(',')[5]), json.total_miles);
    const viaAccept = await t.app.inject({
      url: '/v1/ifta/quarterly_report?year=2024&quarter=1',
      headers: { ...t.company.headers, accept: 'text/csv' },
    });
    assert.equal(viaAccept.body, res.body);
    assert.equal(
      (await get(t, '/v1/ifta/quarterly_report?year=2024&quarter=2&fuel_type=gasoline')).ifta_quarterly_report
        .fuel_types.length,
      0,
    );
    assertError(await t.call({ method: 'GET', url: '/v1/ifta/quarterly_report?year=2024&quarter=5' }), 400);
    assertError(await t.call({ method: 'GET', url: '/v1/ifta/quarterly_report?quarter=1' }), 400);
  });

  test('the gap across the shop visit is in the report as distance to review once calibrated', async () => {
    const res = await calibrate({
      vehicle_id: v4.vehicle.id,
      effective_from: '2024-02-10T11:00:00Z',
      offset: 500_000 + a.km,
      unit: 'km',
    });
    assert.equal(res.status, 201);
    const d = (await get(t, '/v1/ifta/quarterly_report?year=2024&quarter=1')).ifta_quarterly_report.fuel_types[0];
    near(d.gap_miles, mi(12), 0.001);
  });
});
