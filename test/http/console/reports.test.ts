/**
 * The console's reports for a seeded fleet (./reports-fixtures.ts): each report's CSV exactly (times in
 * the company's zone, miles), the page's table and chart data, the 31-day range limit, and what a
 * group-limited manager gets.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { addDays } from '../../../src/core/time-zone.js';
import { consoleBrowser } from './kit.js';
import { seedReportFleet, type ReportFleet } from './reports-fixtures.js';

const lines = (...rows: string[]) => rows.map((r) => `${r}\r\n`).join('');

eachDialect('fleet console reports', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let f: ReportFleet;

  before(async () => {
    t = await getApp();
    f = await seedReportFleet(t);
  });

  test('each report as CSV, exactly, and as a table the chart reads', async () => {
    const { b } = await consoleBrowser(t, f.admin);
    const [d1, d2] = f.days;
    const range = `start_date=${d1}&end_date=${f.today}`;
    const csv = async (name: string, extra = '') => {
      const res = await b.get(`/console/reports/${name}.csv?${range}${extra}`);
      assert.equal(res.status, 200, res.body);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(res.headers['content-disposition'], `attachment; filename="${name}-${d1}-to-${f.today}.csv"`);
      return res.body;
    };
    const poteau = (mi: string) => `"${mi} mi W of Poteau, OK"`;
    assert.equal(
      await csv('trips'),
      lines(
        'Vehicle,Driver,Type,Start (America/Chicago),End (America/Chicago),Duration (min),From / at,To,Distance (mi)',
        `A-1,Dana West,Trip,${d1} 12:00,${d1} 12:09,9.5,${poteau('21.6')},${poteau('21.3')},4.0`,
        `A-1,,Stop,${d1} 12:09,${d1} 12:30,20.5,${poteau('21.3')},,`,
        `A-1,Dana West,Trip,${d1} 12:30,${d1} 12:38,8.5,${poteau('21.3')},${poteau('21.4')},1.9`,
        `B-2,Bo East,Trip,${d2} 09:00,${d2} 09:09,9.5,"6.1 mi N of Tahlequah, OK","8.5 mi N of Tahlequah, OK",2.5`,
      ),
    );
    assert.equal(
      await csv('idle'),
      lines('Vehicle,Idle events,Idle time (min),Longest idle (min),Idle fuel (gal)', 'A-1,1,7.5,7.5,0.00'),
    );
    assert.equal(
      await csv('speeding'),
      lines(
        'Vehicle,Driver,Start (America/Chicago),Duration (min),Top speed (mph),Over the limit by (mph),Severity,Location',
        `A-1,Dana West,${d1} 12:00,3.5,80.8,5.8,medium,${poteau('21.6')}`,
      ),
    );
    assert.equal(
      await csv('distance'),
      lines(
        'Vehicle,Distance (mi),Driving time (min),Idle time (min),Fuel used (gal),Utilization (%)',
        'A-1,5.9,6.0,7.5,0.00,44.4',
        'B-2,2.5,3.5,0.0,0.00,100.0',
        'C-3,0.0,0.0,0.0,0.00,0.0',
      ),
    );
    assert.equal(
      await csv('utilization'),
      lines(
        'Day,Vehicles driven,Distance (mi),Driving time (min),Idle time (min),Fuel used (gal),Utilization (%)',
        `${d1},1,5.9,6.0,7.5,0.00,44.4`,
        `${d2},1,2.5,3.5,0.0,0.00,100.0`,
        `${f.today},0,0.0,0.0,0.0,0.00,0.0`,
      ),
    );
    assert.equal(
      await csv('drivers'),
      lines(
        'Driver,Distance (mi),Hard brakes,Hard accelerations,Hard corners,Speeding,Safety score',
        'Dana West,5.9,1,0,0,1,70',
        'Bo East,2.5,0,0,0,0,100',
      ),
    );
    // The vehicle filter, and a group's vehicles.
    assert.equal(
      await csv('idle', `&vehicle=${f.vehicles.B2}`),
      lines('Vehicle,Idle events,Idle time (min),Longest idle (min),Idle fuel (gal)'),
    );
    assert.match(await csv('distance', `&group=${f.west}`), /\r\nA-1,5\.9,[^\r]*\r\n$/);

    // The page: the same rows in the company's zone, and the chart's values on the cells it reads.
    const page = await b.get(`/console/reports?report=distance&${range}`);
    assert.equal(page.status, 200, page.body);
    assert.match(page.body, /<a href="\/console\/reports" aria-current="page">Reports<\/a>/);
    assert.match(
      page.body,
      /<table class="report-table" id="report-table" data-chart="bars" data-x="0" data-y="1" data-x-kind="text" data-zone="America\/Chicago">/,
    );
    assert.match(
      page.body,
      /<tr><td data-v="">A-1<\/td><td class="num" data-v="5\.[0-9]+">5\.9<\/td><td class="num">0h 06m<\/td>/,
    );
    assert.match(
      page.body,
      new RegExp(`href="/console/reports/distance.csv\\?start_date=${d1}&amp;end_date=${f.today}" download`),
    );
    const trips = await b.get(`/console/reports?report=trips&${range}`);
    assert.match(trips.body, new RegExp(`<td class="num" data-v="\\d+">${d1} 12:00 CST</td>`));
    assert.match(
      (await b.get(`/console/reports?report=speeding&${range}`)).body,
      /Severity<\/th>[\s\S]*<td>medium<\/td>/,
    );
  });

  test('a range of at most 31 days', async () => {
    const { b } = await consoleBrowser(t, f.admin);
    const end = f.today;
    const ok = await b.get(`/console/reports?report=utilization&start_date=${addDays(end, -30)}&end_date=${end}`);
    assert.equal(ok.status, 200);
    assert.equal([...ok.body.matchAll(/<tr><td data-v="">\d{4}-\d\d-\d\d<\/td>/g)].length, 31);
    const start = addDays(end, -31);
    const message = `A report covers at most 31 days; ${start} to ${end} is 32 days.`;
    const long = await b.get(`/console/reports?report=utilization&start_date=${start}&end_date=${end}`);
    assert.equal(long.status, 400);
    assert.ok(long.body.includes(`<p class="error" role="alert">${message}</p>`), long.body);
    const file = await b.get(`/console/reports/utilization.csv?start_date=${start}&end_date=${end}`);
    assert.equal(file.status, 400);
    assert.ok(file.body.includes(message), file.body);
    const backwards = await b.get(`/console/reports?start_date=${end}&end_date=${start}`);
    assert.equal(backwards.status, 400);
    assert.match(backwards.body, /end_date must not be before start_date/);
    assert.equal((await b.get('/console/reports/nothing.csv')).status, 404);
  });

  test("a group-limited manager sees only their groups' vehicles and drivers", async () => {
    const { b } = await consoleBrowser(t, f.limited);
    const range = `start_date=${f.days[0]}&end_date=${f.today}`;
    const distance = await b.get(`/console/reports/distance.csv?${range}`);
    assert.equal(
      distance.body,
      lines(
        'Vehicle,Distance (mi),Driving time (min),Idle time (min),Fuel used (gal),Utilization (%)',
        'A-1,5.9,6.0,7.5,0.00,44.4',
      ),
    );
    const drivers = await b.get(`/console/reports/drivers.csv?${range}`);
    assert.equal(
      drivers.body,
      lines(
        'Driver,Distance (mi),Hard brakes,Hard accelerations,Hard corners,Speeding,Safety score',
        'Dana West,5.9,1,0,0,1,70',
      ),
    );
    const trips = await b.get(`/console/reports/trips.csv?${range}`);
    assert.doesNotMatch(trips.body, /B-2/);
    const page = await b.get(`/console/reports?${range}`);
    assert.match(page.body, new RegExp(`<option value="${f.vehicles.A1}">A-1</option>`));
    assert.doesNotMatch(page.body, /B-2|C-3/);
    const other = await b.get(`/console/reports?${range}&vehicle=${f.vehicles.B2}`);
    assert.equal(other.status, 400);
    assert.match(other.body, new RegExp(`vehicle ${f.vehicles.B2} is not one of your vehicles`));
    const csv = await b.get(`/console/reports/trips.csv?${range}&vehicle=${f.vehicles.B2}`);
    assert.equal(csv.status, 400);
  });
});
