/**
 * The reports page in a real browser (test/http/console/browser-kit.ts): choose a report and a range with the
 * form, see the chart drawn from the table (uPlot from node_modules, same origin, no CSP violation),
 * download the CSV with the same filters, and screenshots at desktop width and 390 px.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { openConsoleBrowser, shoot, type ConsoleBrowser } from './browser-kit.js';
import { seedReportFleet } from './reports-fixtures.js';

eachDialect('fleet console reports in a real browser', (dialect) => {
  const getApp = useOAuthApp(dialect);
  let t: OAuthTestApp;
  let web: ConsoleBrowser;

  before(async () => {
    t = await getApp();
    web = await openConsoleBrowser(t);
  });

  after(async () => {
    await web?.close();
  });

  test('choose a range, see the chart, download the CSV', async () => {
    const f = await seedReportFleet(t);
    const page = await web.signedIn(f.admin, '/console/reports');
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByLabel('Report', { exact: true }).selectOption('utilization');
    await page.getByLabel('From', { exact: true }).fill(f.days[0]);
    await page.getByLabel('To', { exact: true }).fill(f.today);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/report=utilization/);
    await page.getByRole('heading', { name: /^Utilization per day/ }).waitFor();

    // The chart: a canvas as wide as its box, drawn from the table's three days.
    await page.locator('#report-chart[data-drawn="3"] canvas').waitFor();
    const size = await page
      .locator('#report-chart canvas')
      .evaluate((c: HTMLCanvasElement) => ({ w: c.getBoundingClientRect().width, h: c.height }));
    assert.ok(size.w > 600 && size.h > 0, JSON.stringify(size));
    assert.equal(await page.getByRole('region', { name: 'Utilization per day, table' }).getByRole('row').count(), 4);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const file = await download;
    assert.equal(file.suggestedFilename(), `utilization-${f.days[0]}-to-${f.today}.csv`);
    const body = readFileSync((await file.path())!, 'utf8');
    assert.match(body, /^Day,Vehicles driven,Distance \(mi\)/);
    assert.equal(body.split('\r\n').length, 5);

    await shoot(page, 'console-reports', dialect);
    // At 390 px the chart follows its box.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(
      () => document.querySelector('#report-chart canvas')!.getBoundingClientRect().width < 390,
    );
    assert.deepEqual(web.problemsOf(page), [], 'no script errors or CSP violations');
    await page.context().close();
  });
});
