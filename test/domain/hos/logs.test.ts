/**
 * Log contents on both databases: vehicles and distance from odometers, certification and
 * form-and-manner errors, remarks and exception claims, cycle restarts, missing DVIRs, and days cut in
 * the driver's home-terminal zone.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertList, createVehicle } from '../../http/fixtures.js';
import { startOfDay } from '../../../src/core/time-zone.js';
import { H, at, daysAgo, driver, log } from './fixtures.js';

eachDialect('HOS logs', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  const y = daysAgo(1);
  const getLog = async (driverId: number, day = y, extra = '') => {
    const res = await t.call({
      method: 'GET',
      url: `/v1/logs?driver_ids=${driverId}&start_date=${day}&end_date=${day}${extra}`,
    });
    return assertList(res, 'logs', 'log');
  };

  before(async () => {
    t = await getApp();
  });

  test('vehicles, vehicle numbers, odometers and total miles', async () => {
    const d = await driver(t);
    const v = await createVehicle(t, { number: 'HOS-1' });
    await log(t, d.id, [
      { at: new Date(at(y, '08:00')).toISOString(), status: 'driving', vehicleId: v.id, odometerKm: 1000 },
      { at: new Date(at(y, '10:00')).toISOString(), kind: 'intermediate_log', vehicleId: v.id, odometerKm: 1100 },
      { at: new Date(at(y, '11:00')).toISOString(), status: 'on_duty', vehicleId: v.id, odometerKm: 1160.934 },
    ]);
    const [l] = await getLog(d.id);
    assert.equal(l.vehicle_numbers, 'HOS-1');
    assert.deepEqual(
      l.vehicles.map((x: any) => x.vehicle.id),
      [v.id],
    );
    assert.equal(l.total_miles, 100);
    assert.deepEqual(l.odometers, { 'HOS-1': { start_odometer: 621.4, end_odometer: 721.4 } });
    assert.deepEqual(
      l.form_and_manner_errors.map((e: any) => e.form_and_manner_error.type),
      ['log_not_certified'],
    );
    const dvir = await getLog(d.id, y, '&status=missing_dvirs');
    assert.equal(dvir.length, 1);
  });

  test('certification signs the log; a change after it asks for it again', async () => {
    const d = await driver(t);
    await log(t, d.id, [
      [at(y, '06:00'), 'on_duty'],
      [at(y, '07:00'), 'off_duty'],
    ]);
    await log(t, d.id, [{ at: new Date(at(daysAgo(0), '00:00')).toISOString(), kind: 'certification', date: y }]); // the day's end: never in the future
    let [l] = await getLog(d.id);
    assert.match(l.driver_signed_at, /Z$/);
    assert.deepEqual(l.form_and_manner_errors, []);
    assert.equal((await getLog(d.id, y, '&status=compliant')).length, 1);
    await new Promise((r) => setTimeout(r, 5));
    await log(t, d.id, [
      [at(y, '08:00'), 'on_duty'],
      [at(y, '08:30'), 'off_duty'],
    ]);
    [l] = await getLog(d.id);
    assert.deepEqual(l.form_and_manner_errors, [
      { form_and_manner_error: { type: 'log_not_certified', name: 'Log changed after certification' } },
    ]);
  });

  test('remarks and exception claims appear as remarks', async () => {
    const d = await driver(t, { exception_adverse_driving: true });
    await log(t, d.id, [
      [at(y, '06:00'), 'driving'],
      { at: new Date(at(y, '07:00')).toISOString(), kind: 'exception', exception: 'adverse_driving' },
      {
        at: new Date(at(y, '07:30')).toISOString(),
        kind: 'remark',
        notes: 'Road closed, detour',
        location: 'Reno, NV',
      },
      [at(y, '08:00'), 'off_duty'],
    ]);
    const [l] = await getLog(d.id);
    assert.deepEqual(
      l.remarks.map((r: any) => [r.remark.notes, r.remark.location, r.remark.time]),
      [
        ['Adverse driving conditions', null, `${y}T07:00:00Z`],
        ['Road closed, detour', 'Reno, NV', `${y}T07:30:00Z`],
      ],
    );
    assert.deepEqual(Object.keys(l.remarks[0].remark), ['id', 'time', 'notes', 'location']);
  });

  test('a 34-hour restart is listed on the log of the day it ends', async () => {
    const d = await driver(t);
    const d3 = daysAgo(3);
    const d2 = daysAgo(2);
    await log(t, d.id, [
      [at(d3, '06:00'), 'on_duty'],
      [at(d3, '10:00'), 'off_duty'],
      [at(d2, '20:00'), 'on_duty'],
      [at(d2, '21:00'), 'off_duty'],
    ]);
    const [l] = await getLog(d.id, d2);
    assert.deepEqual(
      l.cycle_restarts.map((r: any) => [
        r.cycle_restart.type,
        r.cycle_restart.name,
        r.cycle_restart.start_time,
        r.cycle_restart.end_time,
      ]),
      [['34_hour', '34 Hour', `${d3}T10:00:00Z`, `${d2}T20:00:00Z`]],
    );
    const at2 = await t.call({ method: 'GET', url: `/v1/available_time?driver_ids=${d.id}` });
    assert.equal(at2.body.users[0].user.last_cycle_reset.type, '34_hour');
  });

  test("days are cut in the driver's home-terminal zone", async () => {
    const d = await driver(t, { time_zone: 'Pacific Time (US & Canada)' });
    const day = daysAgo(2);
    const midnight = startOfDay(day, 'America/Los_Angeles').getTime();
    await log(t, d.id, [
      [midnight - H, 'driving'],
      [midnight + 2 * H, 'off_duty'],
    ]);
    const res = await t.call({
      method: 'GET',
      url: `/v1/hours_of_service?driver_ids=${d.id}&start_date=${day}&end_date=${day}`,
    });
    const [row] = assertList(res, 'hours_of_services', 'hours_of_service');
    assert.equal(row.driving_duration, 2 * 3600);
    assert.equal(row.off_duty_duration + row.driving_duration, 24 * 3600);
    const [l] = await getLog(d.id, day);
    assert.equal(l.time_zone, 'Pacific Time (US & Canada)');
  });
});
