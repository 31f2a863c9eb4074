/**
 * Each driver is judged on the history its own rules need, and on nothing else (docs/hos.md, "History
 * each rule needs"): a Canadian cycle-1 driver without 24 consecutive hours off in 14 days is in violation
 * of SOR/2005-313 s.25 (it looks 14 days back, twice the cycle), one with a 24-hour break on day 10 is not;
 * and every HOS endpoint that evaluates many drivers gives a driver the same answer alone, with a cycle-2
 * driver (the longest history) beside it, and one per page. Records arrive a day at a time, as they would.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertList } from '../../http/fixtures.js';
import { at, daysAgo, driver, log } from './fixtures.js';

/** A working day: 4 h driving from 08:00, 1 h on duty, then off duty until the next one (19 h: no 24 h off). */
const workDay = (date: string): Array<[number, string]> => [
  [at(date, '08:00'), 'driving'],
  [at(date, '12:00'), 'on_duty'],
  [at(date, '13:00'), 'off_duty'],
];

async function workDays(t: TestApp, id: number, days: number[]) {
  for (const n of days) await log(t, id, workDay(daysAgo(n)));
}
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => from - i);

eachDialect('HOS history per driver', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let noBreak: any;
  let withBreak: any;
  let cycle2: any;
  let weekend: any;

  before(async () => {
    t = await getApp();
    noBreak = await driver(t, { first_name: 'NoBreak', cycle: 'canada_7day' });
    withBreak = await driver(t, { first_name: 'WithBreak', cycle: 'canada_7day' });
    cycle2 = await driver(t, { first_name: 'CycleTwo', cycle: 'canada_14day' });
    weekend = await driver(t, { first_name: 'Weekend', cycle: '70_8' });
    await workDays(t, noBreak.id, range(16, 1));
    // On duty again for an hour ending 12 h before now: the rest going on now is a fresh shift (over 10 h)
    // and never 24 h off, whatever the time of day this runs (yesterday's 13:00 alone is 24 h old at 13:00).
    // Run between 00:00 and 01:00 UTC that hour would fall in yesterday's driving (08:00–12:00), which then
    // is the recent work itself (it ended 11–12 h ago): the hour is left out.
    const now = Date.now();
    const start = now - 13 * 3_600_000;
    const inYesterdaysDriving =
      new Date(start).toISOString().slice(0, 10) !== new Date(now).toISOString().slice(0, 10) &&
      (start % 86_400_000) / 3_600_000 > 7 &&
      (start % 86_400_000) / 3_600_000 < 12;
    if (!inYesterdaysDriving)
      await log(t, noBreak.id, [
        [start, 'on_duty'],
        [now - 12 * 3_600_000, 'off_duty'],
      ]);
    // No work 10 days ago: off from 11 days ago 13:00 to 9 days ago 08:00 (43 h).
    await workDays(
      t,
      withBreak.id,
      range(16, 1).filter((n) => n !== 10),
    );
    await workDays(t, cycle2.id, range(3, 1));
    // A 67-hour weekend: off from 6 days ago 13:00 to 3 days ago 08:00, a 34-hour restart ending 3 days ago.
    await workDays(t, weekend.id, [...range(9, 6), ...range(3, 1)]);
    // Busy again at 22:00 yesterday, so that the rest going on now is never a restart, whenever this runs.
    await log(t, weekend.id, [
      [at(daysAgo(1), '22:00'), 'on_duty'],
      [at(daysAgo(1), '23:00'), 'off_duty'],
    ]);
  });

  test('Canada cycle 1: no 24 consecutive hours off in 14 days is canada_off_24 from day 14 on, and no cycle time left', async () => {
    const since = encodeURIComponent(new Date(at(daysAgo(20), '00:00')).toISOString());
    const res = await t.call({
      method: 'GET',
      url: `/v1/hos_violations?driver_ids[]=${noBreak.id}&min_start_time=${since}`,
    });
    const items = assertList(res, 'hos_violations', 'hos_violation');
    // The last 24 h off: before the first record (16 days ago 08:00); driving from 13 days later breaks the rule.
    const want = [3, 2, 1].map((n) => ({ start: `${daysAgo(n)}T08:00:00Z`, end: `${daysAgo(n)}T12:00:00Z` }));
    assert.deepEqual(
      items.map((v) => [v.type, v.name, v.start_time, v.end_time]),
      want.map((w) => ['canada_off_24', '24 Consecutive Hours Off In 14 Days', w.start, w.end]),
    );
    const avail = await t.call({ method: 'GET', url: `/v1/available_time?driver_ids[]=${noBreak.id}` });
    const u = assertList(avail, 'users', 'user')[0];
    // No cycle time left, so no driving; what is left of the day's 14 on-duty hours depends on whether the
    // hour on duty 12 h ago fell on today, that is on the time of day this runs.
    const { shift, ...rest } = u.available_time;
    assert.deepEqual(rest, { drive: 0, cycle: 0, break: 0 });
    assert.ok(shift >= 13 * 3600 && shift <= 14 * 3600, `shift ${shift}`);
  });

  test('Canada cycle 1: a 43-hour break on day 10 is the 24 hours off; no violation, 40 h of the cycle left', async () => {
    const since = encodeURIComponent(new Date(at(daysAgo(20), '00:00')).toISOString());
    const res = await t.call({
      method: 'GET',
      url: `/v1/hos_violations?driver_ids[]=${withBreak.id}&min_start_time=${since}`,
    });
    assert.deepEqual(assertList(res, 'hos_violations', 'hos_violation'), []);
    const avail = await t.call({ method: 'GET', url: `/v1/available_time?driver_ids[]=${withBreak.id}` });
    const u = assertList(avail, 'users', 'user')[0];
    // 70 h less 5 h on each of the last 6 days; 13 h of driving in the shift and in the day.
    assert.deepEqual(u.available_time, { drive: 13 * 3600, shift: 14 * 3600, cycle: 40 * 3600, break: 13 * 3600 });
  });

  /** A driver's entry of a list endpoint: alone, with the cycle-2 driver, in the whole list, and paged one per page. */
  async function sameEverywhere(
    path: string,
    list: string,
    item: string,
    query: string,
    pick: (x: any) => boolean,
    ids: number[],
  ) {
    const get = async (q: string) => {
      const res = await t.call({ method: 'GET', url: `${path}?${query}${q}` });
      return assertList(res, list, item).filter(pick);
    };
    const alone = await get(ids.map((id) => `&driver_ids[]=${id}`).join(''));
    assert.ok(alone.length > 0, `${path}: nothing to compare`);
    assert.deepEqual(
      await get([...ids, cycle2.id].map((id) => `&driver_ids[]=${id}`).join('')),
      alone,
      `${path} with a cycle-2 driver`,
    );
    assert.deepEqual(await get('&per_page=100'), alone, `${path} for every driver`);
    const paged: any[] = [];
    const total = (await t.call({ method: 'GET', url: `${path}?${query}&per_page=1` })).body.pagination.total;
    for (let page = 1; page <= total; page++) paged.push(...(await get(`&per_page=1&page_no=${page}`)));
    assert.deepEqual(paged, alone, `${path} one per page`);
  }

  test('available_time: each driver gets the same numbers alone, beside a cycle-2 driver, and one per page', async () => {
    for (const d of [noBreak, withBreak, weekend]) {
      await sameEverywhere('/v1/available_time', 'users', 'user', '', (u) => u.id === d.id, [d.id]);
    }
  });

  test('hos_violations, hours_of_service and logs: the same rows whatever else is on the page', async () => {
    const since = encodeURIComponent(new Date(at(daysAgo(20), '00:00')).toISOString());
    const days = `start_date=${daysAgo(9)}&end_date=${daysAgo(1)}`;
    const mine = (d: any) => (x: any) => x.user?.id === d.id || x.driver?.id === d.id;
    await sameEverywhere(
      '/v1/hos_violations',
      'hos_violations',
      'hos_violation',
      `min_start_time=${since}`,
      mine(noBreak),
      [noBreak.id],
    );
    for (const d of [noBreak, weekend]) {
      await sameEverywhere('/v1/hours_of_service', 'hours_of_services', 'hours_of_service', days, mine(d), [d.id]);
      await sameEverywhere('/v1/logs', 'logs', 'log', days, mine(d), [d.id]);
    }
  });

  test('logs: the 67-hour weekend is the cycle restart of the day it ends, alone or among the other days', async () => {
    const day = daysAgo(3);
    const restart = [
      {
        cycle_restart: {
          start_time: `${daysAgo(6)}T13:00:00Z`,
          end_time: `${day}T08:00:00Z`,
          type: '34_hour',
          name: '34 Hour',
        },
      },
    ];
    const strip = (l: any) =>
      l.cycle_restarts.map(({ cycle_restart: { id: _id, ...r } }: any) => ({ cycle_restart: r }));
    const only = await t.call({
      method: 'GET',
      url: `/v1/logs?driver_ids[]=${weekend.id}&start_date=${day}&end_date=${day}`,
    });
    const [log3] = assertList(only, 'logs', 'log');
    assert.deepEqual(strip(log3), restart);
    const all = await t.call({
      method: 'GET',
      url: `/v1/logs?driver_ids[]=${weekend.id}&start_date=${daysAgo(9)}&end_date=${daysAgo(1)}&per_page=50`,
    });
    const logs = assertList(all, 'logs', 'log');
    assert.deepEqual(
      logs.filter((l) => l.cycle_restarts.length > 0).map((l) => l.date),
      [day],
    );
    const avail = await t.call({ method: 'GET', url: `/v1/available_time?driver_ids[]=${weekend.id}` });
    const u = assertList(avail, 'users', 'user')[0];
    assert.deepEqual(u.last_cycle_reset, {
      type: '34_hour',
      start_time: `${daysAgo(6)}T13:00:00Z`,
      end_time: `${day}T08:00:00Z`,
    });
  });
});
