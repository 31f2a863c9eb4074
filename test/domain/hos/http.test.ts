/**
 * The HOS endpoints on both databases: /v1/available_time, /v1/hos_violations, /v1/hours_of_service and
 * /v1/logs — wire keys and wrappers, filters, defaults, pagination and tenancy. Records are fed through
 * the service, times relative to now.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { DATETIME, USER_SUMMARY_KEYS, assertError, assertKeySet, assertList } from '../../http/fixtures.js';
import {
  AVAILABLE_TIME_KEYS,
  H,
  HOS_KEYS,
  LOG_KEYS,
  MINUTE,
  VIOLATION_KEYS,
  at,
  daysAgo,
  driver,
  log,
} from './fixtures.js';

const near = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= 60, `${what}: ${actual} ≉ ${expected}`);

eachDialect('HOS endpoints', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;
  let fresh: any;
  let busy: any;
  let violator: any;
  let past: any;
  const now = Date.now();

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
    fresh = await driver(t, { first_name: 'Fresh' });
    busy = await driver(t, { first_name: 'Busy' });
    violator = await driver(t, { first_name: 'Violator' });
    past = await driver(t, { first_name: 'Past' });
    await log(t, busy.id, [
      [now - 6 * H, 'on_duty'],
      [now - 5 * H, 'driving'],
    ]);
    await log(t, violator.id, [
      [now - 13 * H, 'driving'],
      [now - 1 * H, 'off_duty'],
    ]);
    const y = daysAgo(1);
    await log(t, past.id, [
      [at(y, '06:00'), 'on_duty'],
      [at(y, '08:00'), 'driving'],
      [at(y, '12:00'), 'off_duty'],
    ]);
  });

  test('available_time: users[].user with available_time, recap, last status; a fresh driver has 11/14/70/8 hours', async () => {
    const res = await t.call({
      method: 'GET',
      url: `/v1/available_time?driver_ids[]=${fresh.id}&driver_ids[]=${busy.id}`,
    });
    const users = assertList(res, 'users', 'user');
    assert.equal(res.body.pagination.total, 2);
    for (const u of users) assertKeySet(u, AVAILABLE_TIME_KEYS, 'available time user');
    const f = users.find((u) => u.id === fresh.id);
    assert.deepEqual(f.available_time, { drive: 39600, shift: 50400, cycle: 252000, break: 28800 });
    assert.equal(f.last_hos_status, null);
    assert.equal(f.last_cycle_reset, null);
    assert.equal(f.recap.on_duty_duration.length, 8);
    assert.deepEqual(Object.keys(f.recap.on_duty_duration[0]), ['date', 'duration']);
    const b = users.find((u) => u.id === busy.id);
    near(b.available_time.drive, 6 * 3600, 'drive');
    near(b.available_time.shift, 8 * 3600, 'shift');
    near(b.available_time.cycle, 64 * 3600, 'cycle');
    near(b.available_time.break, 3 * 3600, 'break');
    assert.equal(b.duty_status, 'driving');
    assert.equal(b.last_hos_status.status, 'driving');
    assert.match(b.last_hos_status.time, DATETIME);
  });

  test('available_time: every active driver by default, paginated; another company sees none of them', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/available_time?per_page=2&page_no=2' });
    assertList(res, 'users', 'user');
    assert.equal(res.body.pagination.total, 4);
    assert.equal(res.body.users.length, 2);
    const theirs = await t.call({ method: 'GET', url: `/v1/available_time?driver_ids=${fresh.id}`, as: other });
    assert.equal(theirs.body.pagination.total, 0);
  });

  test('available_time: each user has the status of /v1/users (a TMS keeps the active ones): the exact body', async () => {
    const retired = await driver(t, {
      first_name: 'Retired',
      last_name: 'Driver',
      driver_company_id: 'R-9',
      status: 'deactivated',
    });
    const res = await t.call({
      method: 'GET',
      url: `/v1/available_time?driver_ids[]=${fresh.id}&driver_ids[]=${retired.id}`,
    });
    assert.equal(res.status, 200);
    const days = [7, 6, 5, 4, 3, 2, 1, 0].map(daysAgo);
    const idle = (u: any, status: string) => ({
      user: {
        id: u.id,
        first_name: u.first_name,
        last_name: u.last_name,
        driver_company_id: u.driver_company_id,
        status,
        duty_status: 'off_duty',
        available_time: { drive: 39600, shift: 50400, cycle: 252000, break: 28800 },
        recap: {
          on_duty_duration: days.map((date) => ({ date, duration: 0 })),
          driving_duration: days.map((date) => ({ date, duration: 0 })),
          cycle_tomorrow: 252000,
        },
        last_hos_status: null,
        last_cycle_reset: null,
      },
    });
    assert.deepEqual(res.body, {
      users: [idle(fresh, 'active'), idle(retired, 'deactivated')],
      pagination: { per_page: 25, page_no: 1, total: 2 },
    });
  });

  test('hos_violations: the last 24 hours by default, with the driver as user', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/hos_violations?driver_ids[]=${violator.id}` });
    const items = assertList(res, 'hos_violations', 'hos_violation');
    assert.deepEqual(
      items.map((v) => v.type),
      ['break_30', 'driving_11'],
    );
    for (const v of items) {
      assertKeySet(v, VIOLATION_KEYS, 'hos_violation');
      assertKeySet(v.user, USER_SUMMARY_KEYS, 'user');
      assert.match(v.start_time, DATETIME);
    }
    const d11 = items[1];
    assert.equal(d11.name, '11 Hour Driving Limit');
    near(Date.parse(d11.start_time) / 1000, (now - 2 * H) / 1000, 'driving_11 start');
    near(Date.parse(d11.end_time) / 1000, (now - 1 * H) / 1000, 'driving_11 end');
    near(Date.parse(items[0].start_time) / 1000, (now - 5 * H) / 1000, 'break_30 start');
  });

  test('hos_violations: violation_types, min/max_start_time and driver filters', async () => {
    const only = await t.call({
      method: 'GET',
      url: `/v1/hos_violations?driver_ids=${violator.id}&violation_types[]=driving_11`,
    });
    assert.deepEqual(
      assertList(only, 'hos_violations', 'hos_violation').map((v) => v.type),
      ['driving_11'],
    );
    const later = new Date(now - 3 * H).toISOString();
    const min = await t.call({
      method: 'GET',
      url: `/v1/hos_violations?driver_ids=${violator.id}&min_start_time=${encodeURIComponent(later)}`,
    });
    assert.deepEqual(
      assertList(min, 'hos_violations', 'hos_violation').map((v) => v.type),
      ['driving_11'],
    );
    const max = await t.call({
      method: 'GET',
      url: `/v1/hos_violations?driver_ids=${violator.id}&max_start_time=${encodeURIComponent(later)}`,
    });
    assert.deepEqual(
      assertList(max, 'hos_violations', 'hos_violation').map((v) => v.type),
      ['break_30'],
    );
    const old = await t.call({
      method: 'GET',
      url: `/v1/hos_violations?min_start_time=2000-01-01&max_start_time=2000-01-02`,
    });
    assert.equal(old.body.pagination.total, 0);
    const none = await t.call({ method: 'GET', url: `/v1/hos_violations?driver_ids=${violator.id}`, as: other });
    assert.equal(none.body.pagination.total, 0);
    assertError(
      await t.call({ method: 'GET', url: '/v1/hos_violations?min_start_time=yesterday' }),
      400,
      /min_start_time/,
    );
  });

  test('an ongoing violation has end_time null', async () => {
    const d = await driver(t, { first_name: 'Ongoing' });
    await log(t, d.id, [[now - 12 * H, 'driving']]);
    const res = await t.call({
      method: 'GET',
      url: `/v1/hos_violations?driver_ids=${d.id}&violation_types=driving_11`,
    });
    const [v] = assertList(res, 'hos_violations', 'hos_violation');
    assert.equal(v.end_time, null);
    near(Date.parse(v.start_time) / 1000, (now - 1 * H) / 1000, 'start');
  });

  test('hours_of_service: hours_of_services[].hours_of_service per driver and day', async () => {
    const y = daysAgo(1);
    const res = await t.call({
      method: 'GET',
      url: `/v1/hours_of_service?driver_ids=${past.id}&start_date=${y}&end_date=${y}`,
    });
    const [row] = assertList(res, 'hours_of_services', 'hours_of_service');
    assertKeySet(row, HOS_KEYS, 'hours_of_service');
    assertKeySet(row.driver, USER_SUMMARY_KEYS, 'driver');
    assert.deepEqual(
      [
        row.date,
        row.off_duty_duration,
        row.on_duty_duration,
        row.sleeper_duration,
        row.driving_duration,
        row.waiting_duration,
      ],
      [y, 18 * 3600, 2 * 3600, 0, 4 * 3600, 0],
    );
    const logs = await t.call({ method: 'GET', url: `/v1/logs?driver_ids=${past.id}&start_date=${y}&end_date=${y}` });
    assert.equal(assertList(logs, 'logs', 'log')[0].id, row.id, 'a day has one id in both lists');
  });

  test('hours_of_service: days from the first record through today, the last 7 by default', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/hours_of_service?driver_ids=${past.id}` });
    const rows = assertList(res, 'hours_of_services', 'hours_of_service');
    assert.deepEqual(
      rows.map((r) => r.date),
      [daysAgo(1), daysAgo(0)],
    );
    const all = await t.call({ method: 'GET', url: '/v1/hours_of_service?per_page=100' });
    assert.equal(all.body.pagination.total, assertList(all, 'hours_of_services', 'hours_of_service').length);
    assertError(await t.call({ method: 'GET', url: '/v1/hours_of_service?start_date=2024-02-30' }), 400, /start_date/);
    assertError(
      await t.call({ method: 'GET', url: '/v1/hours_of_service?start_date=2024-03-02&end_date=2024-03-01' }),
      400,
      /end_date/,
    );
  });

  test('logs: every field, events, and the status filter', async () => {
    const y = daysAgo(1);
    const res = await t.call({ method: 'GET', url: `/v1/logs?driver_ids=${past.id}&start_date=${y}&end_date=${y}` });
    const [l] = assertList(res, 'logs', 'log');
    assertKeySet(l, LOG_KEYS, 'log');
    assert.equal(l.time_zone, 'UTC');
    assert.equal(l.cycle, '70_8');
    assert.deepEqual(
      l.events.map((e: any) => [e.event.type, e.event.start_time]),
      [
        ['on_duty', `${y}T06:00:00Z`],
        ['driving', `${y}T08:00:00Z`],
        ['off_duty', `${y}T12:00:00Z`],
      ],
    );
    assert.equal(l.events[1].event.end_time, `${y}T12:00:00Z`);
    assert.equal(l.events[2].event.end_time, null, 'the status still in effect has no end');
    assert.deepEqual(l.form_and_manner_errors, [
      { form_and_manner_error: { type: 'log_not_certified', name: 'Log not certified' } },
      { form_and_manner_error: { type: 'no_vehicle', name: 'Driving without a vehicle' } },
    ]);
    const fm = await t.call({
      method: 'GET',
      url: `/v1/logs?driver_ids=${past.id}&start_date=${y}&end_date=${y}&status=form_and_manner`,
    });
    assert.equal(fm.body.pagination.total, 1);
    const hos = await t.call({
      method: 'GET',
      url: `/v1/logs?driver_ids=${past.id}&start_date=${y}&end_date=${y}&status=hos`,
    });
    assert.equal(hos.body.pagination.total, 0);
    const viol = await t.call({ method: 'GET', url: `/v1/logs?driver_ids=${violator.id}&status=hos` });
    const [vl] = assertList(viol, 'logs', 'log');
    assert.ok(vl.hos_violations.length >= 1);
    assert.deepEqual(Object.keys(vl.hos_violations[0]), ['hos_violation']);
    assertError(await t.call({ method: 'GET', url: '/v1/logs?status=bogus' }), 400, /status/);
  });
});
