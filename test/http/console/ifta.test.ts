/**
 * The console's IFTA page: distance, taxable distance, fuel purchased and fuel economy by jurisdiction
 * for a quarter with a totals row equal to the sum of the rows, the same per vehicle (adding up to the
 * same totals) and for one chosen vehicle, in the company's units; the same CSV as the API's; another
 * company's figures never shown; no report for a group-limited manager.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limitedManager } from './manage-helper.js';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, vehicle, type Fleet, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { quarterlyReport } from '../../../src/domain/ifta/quarterly.js';
import { summaryRows } from '../../../src/domain/ifta/reports.js';
import { KM_PER_MI, L_PER_GAL } from '../../../src/telemetry/units.js';
import { asCompany, consoleBrowser, metricFleet, storeIftaTrack } from './kit.js';

const fixed = (x: number, d: number) =>
  x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const mi = (km: number) => fixed(km / KM_PER_MI, 1);
const gal = (l: number) => fixed(l / L_PER_GAL, 1);
const mpg = (km: number, l: number) => fixed(km / KM_PER_MI / (l / L_PER_GAL), 2);

/** The cells of the table with this caption, row by row (header, body rows, totals row), as text. */
function table(body: string, caption: string): string[][] {
  const m = new RegExp(`<caption class="visually-hidden">${caption}</caption>([\\s\\S]*?)</table>`).exec(body);
  assert.ok(m, `a table "${caption}"`);
  return [...m[1].matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...r[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1].replace(/<[^>]+>/g, '').trim()),
  );
}
const num = (s: string) => Number(s.replace(/,/g, ''));

async function buy(t: OAuthTestApp, fleet: Fleet, vehicleId: number, jurisdiction: string, fuel: number, unit: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/fuel_purchases',
    headers: { 'x-api-key': fleet.apiKey },
    payload: { vehicle_id: vehicleId, jurisdiction, fuel, fuel_unit: unit, purchased_at: '2024-02-10T18:00:00Z' },
  });
  assert.equal(res.statusCode, 201, res.body);
}

eachDialect('fleet console IFTA', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('a quarter by jurisdiction, its CSV, and isolation', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Miles Co');
    const id = await vehicle(t, fleet);
    await storeIftaTrack(t, fleet, id);

    const { b } = await consoleBrowser(t, fleet.admin.email);
    const page = await b.get('/console/ifta?year=2024&quarter=1');
    assert.equal(page.status, 200, page.body);
    assert.match(page.body, /<h1>IFTA 2024 Q1<\/h1>/);
    assert.match(page.body, /<tr><th scope="row">IL<\/th>/);
    assert.match(page.body, /<tr><th scope="row">IN<\/th>/);
    assert.match(
      page.body,
      /<svg class="chart"[^>]*aria-label="Miles by jurisdiction, [^"]*IL [\d.]+, IN [\d.]+|<svg class="chart"[^>]*aria-label="Miles by jurisdiction, [^"]*IN [\d.]+, IL [\d.]+/,
    );
    assert.match(page.body, /href="\/console\/ifta.csv\?year=2024&amp;quarter=1"/);

    const csv = await b.get('/console/ifta.csv?year=2024&quarter=1');
    assert.equal(csv.status, 200);
    assert.match(csv.headers['content-type'], /^text\/csv/);
    assert.match(csv.headers['content-disposition'], /filename="ifta-2024-q1.csv"/);
    const viaApi = await t.app.inject({
      url: '/v1/ifta/quarterly_report?year=2024&quarter=1&format=csv',
      headers: { 'x-api-key': fleet.apiKey },
    });
    assert.equal(csv.body, viaApi.body);
    assert.match(csv.body, /,IL,/);
    assert.equal(
      (await b.get(`/console/ifta.csv?year=2024&quarter=1&vehicle=${id}`)).body,
      csv.body,
      'the CSV is the fleet',
    );

    assert.equal((await b.get('/console/ifta?year=2024&quarter=5')).status, 400);
    const other = await consoleBrowser(t, t.fleet.admin.email);
    const theirs = await other.b.get('/console/ifta?year=2024&quarter=1');
    assert.match(theirs.body, /No IFTA distance in 2024 Q1/);
    assert.doesNotMatch((await other.b.get('/console/ifta.csv?year=2024&quarter=1')).body, /,IL,/);
    const foreign = await other.b.get(`/console/ifta?year=2024&quarter=1&vehicle=${id}`);
    assert.equal(foreign.status, 400, "another company's vehicle is none of theirs");

    const { email } = await limitedManager(t, fleet, asCompany(t, fleet));
    const limited = await consoleBrowser(t, email);
    assert.equal((await limited.b.get('/console/ifta?year=2024&quarter=1')).status, 403);
    assert.equal((await limited.b.get('/console/ifta.csv?year=2024&quarter=1')).status, 403);
  });

  test('totals equal the rows; fuel and MPG from the fuel purchases; the vehicles add up to the totals', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Fuel Co');
    const v1 = await vehicle(t, fleet);
    const v2 = await vehicle(t, fleet);
    await storeIftaTrack(t, fleet, v1);
    await storeIftaTrack(t, fleet, v2);
    await buy(t, fleet, v1, 'IL', 10, 'gal');
    await buy(t, fleet, v2, 'IL', 5, 'gal');
    await buy(t, fleet, v2, 'IN', 20, 'l');
    // A purchase after the quarter counts in none of it.
    await t.app.inject({
      method: 'POST',
      url: '/v1/fuel_purchases',
      headers: { 'x-api-key': fleet.apiKey },
      payload: { vehicle_id: v1, jurisdiction: 'IN', fuel: 99, fuel_unit: 'gal', purchased_at: '2024-04-02T18:00:00Z' },
    });

    const report = await quarterlyReport(t.db, fleet.companyId, { year: 2024, quarter: 1, zone: 'America/New_York' });
    assert.equal(report.fuelTypes.length, 1);
    const ft = report.fuelTypes[0];
    const km = (code: string) => ft.lines.find((l) => l.jurisdiction === code)!.totalKm;
    const il = { km: km('IL'), l: 15 * L_PER_GAL };
    const ind = { km: km('IN'), l: 20 };
    assert.deepEqual(
      ft.lines.map((l) => l.jurisdiction),
      ['IL', 'IN'],
    );
    assert.equal(ft.unplacedKm, 0);

    const { b } = await consoleBrowser(t, fleet.admin.email);
    const page = await b.get('/console/ifta?year=2024&quarter=1');
    assert.equal(page.status, 200, page.body);
    const rows = table(page.body, 'By jurisdiction, unspecified');
    assert.deepEqual(rows, [
      ['Jurisdiction', 'Miles', 'Taxable mi', 'Fuel gal', 'MPG'],
      ['IL', mi(il.km), mi(il.km), '15.0', mpg(il.km, il.l)],
      ['IN', mi(ind.km), mi(ind.km), '5.3', mpg(ind.km, ind.l)],
      ['Total', mi(ft.totalKm), mi(ft.taxableKm), '20.3', mpg(ft.totalKm, il.l + ind.l)],
    ]);
    // The totals row is the sum of the rows (each shown to 0.1), and the fleet MPG is the report's.
    const [, ...lines] = rows;
    const total = lines.pop()!;
    for (const col of [1, 2, 3])
      assert.ok(
        Math.abs(lines.reduce((a, r) => a + num(r[col]), 0) - num(total[col])) <= 0.05 * lines.length,
        `column ${col}`,
      );
    assert.ok(Math.abs(ft.totalKm - (il.km + ind.km)) < 1e-9);
    assert.equal(num(total[4]), ft.mpg, 'the fleet MPG of the return');

    // By vehicle: each vehicle's own distance (as /v1/ifta/summary has it) and fuel; together the totals.
    const numbers = new Map<number, string>();
    for (const id of [v1, v2]) {
      const res = await t.app.inject({ url: `/v1/vehicles/${id}`, headers: { 'x-api-key': fleet.apiKey } });
      numbers.set(id, res.json().vehicle.number);
    }
    const summary = await summaryRows(t.db, fleet.companyId, { window: report.window, zone: 'America/New_York' });
    const of = (id: number) => summary.filter((r) => r.vehicleId === id).reduce((a, r) => a + r.distanceKm, 0);
    const byVehicle = table(page.body, 'By vehicle, unspecified');
    const v2l = 5 * L_PER_GAL + 20;
    assert.deepEqual(byVehicle, [
      ['Vehicle', 'Miles', 'Fuel gal', 'MPG'],
      ...[
        [numbers.get(v1)!, mi(of(v1)), '10.0', mpg(of(v1), 10 * L_PER_GAL)],
        [numbers.get(v2)!, mi(of(v2)), gal(v2l), mpg(of(v2), v2l)],
      ].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true })),
      ['Total', mi(ft.totalKm), '20.3', mpg(ft.totalKm, il.l + ind.l)],
    ]);
    assert.ok(Math.abs(of(v1) + of(v2) - ft.totalKm) < 1e-9, 'the vehicles add up to the total distance');
    assert.equal(fixed(10 + v2l / L_PER_GAL, 1), '20.3', 'and to the total fuel');
    assert.ok(
      page.body.includes(`<a href="/console/ifta?year=2024&amp;quarter=1&amp;vehicle=${v2}">${numbers.get(v2)}</a>`),
    );

    // One vehicle: its quarter by jurisdiction.
    const one = await b.get(`/console/ifta?year=2024&quarter=1&vehicle=${v2}`);
    assert.equal(one.status, 200, one.body);
    assert.ok(one.body.includes(`<h1>IFTA 2024 Q1: ${numbers.get(v2)}</h1>`));
    assert.ok(one.body.includes(`<option value="${v2}" selected>${numbers.get(v2)}</option>`));
    const mine = (code: string) => summary.find((r) => r.vehicleId === v2 && r.jurisdiction === code)!.distanceKm;
    assert.deepEqual(table(one.body, 'By jurisdiction, unspecified'), [
      ['Jurisdiction', 'Miles', 'Taxable mi', 'Fuel gal', 'MPG'],
      ['IL', mi(mine('IL')), mi(mine('IL')), '5.0', mpg(mine('IL'), 5 * L_PER_GAL)],
      ['IN', mi(mine('IN')), mi(mine('IN')), '5.3', mpg(mine('IN'), 20)],
      ['Total', mi(of(v2)), mi(of(v2)), gal(v2l), mpg(of(v2), v2l)],
    ]);
    assert.doesNotMatch(one.body, /By vehicle/);

    // v1 bought nothing in IN: its MPG there is "—".
    const first = await b.get(`/console/ifta?year=2024&quarter=1&vehicle=${v1}`);
    assert.deepEqual(table(first.body, 'By jurisdiction, unspecified')[2].slice(3), ['0.0', '—']);

    for (const bad of ['abc', '0', String(v2 + 1000)]) {
      const res = await b.get(`/console/ifta?year=2024&quarter=1&vehicle=${bad}`);
      assert.equal(res.status, 400, bad);
      assert.ok(
        res.body.includes(
          `<p class="error" role="alert">vehicle must be one of the vehicles with IFTA distance or fuel in 2024 Q1 (got &quot;${bad}&quot;)</p>`,
        ),
        bad,
      );
    }
  });

  test("a metric company's page is in kilometres and litres", async () => {
    const t = await getApp();
    const fleet = await metricFleet(t);
    const id = await vehicle(t, fleet);
    await storeIftaTrack(t, fleet, id);
    await buy(t, fleet, id, 'IN', 40, 'l');
    const report = await quarterlyReport(t.db, fleet.companyId, { year: 2024, quarter: 1, zone: 'America/New_York' });
    const ft = report.fuelTypes[0];
    const km = (code: string) => ft.lines.find((l) => l.jurisdiction === code)!.totalKm;
    const { b } = await consoleBrowser(t, fleet.admin.email);
    const page = await b.get('/console/ifta?year=2024&quarter=1');
    assert.deepEqual(table(page.body, 'By jurisdiction, unspecified'), [
      ['Jurisdiction', 'Kilometres', 'Taxable km', 'Fuel L', 'km/L'],
      ['IL', fixed(km('IL'), 1), fixed(km('IL'), 1), '0.0', '—'],
      ['IN', fixed(km('IN'), 1), fixed(km('IN'), 1), '40.0', fixed(km('IN') / 40, 2)],
      ['Total', fixed(ft.totalKm, 1), fixed(ft.taxableKm, 1), '40.0', fixed(ft.totalKm / 40, 2)],
    ]);
    assert.match(page.body, /aria-label="Kilometres by jurisdiction, unspecified: IL [\d.]+, IN [\d.]+"/);
  });
});
