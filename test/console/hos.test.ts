/**
 * The console's hours-of-service page: clocks as meters, today's log grid and violations of the
 * company's drivers, and nothing of another company's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../helper.js';
import { Browser, useOAuthApp } from '../oauth/helper.js';
import { recordDutyStatusEvents } from '../../src/domain/hos/service.js';
import { consoleBrowser } from './helper.js';

const H = 3_600_000;

eachDialect('fleet console hours of service', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('clocks, the 24-hour grid and a driving violation; another company sees none of it', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Hours Co');
    const now = Date.now();
    // Still driving now, so today's grid shows driving whatever the time of day (a drive that ended an
    // hour ago lies wholly in yesterday during the first hour after the company's midnight).
    await recordDutyStatusEvents(t.db, { companyId: fleet.companyId }, fleet.driver.id, [
      { at: now - 14 * H, status: 'on_duty' },
      { at: now - 13.5 * H, status: 'driving' },
    ]);
    const { b } = await consoleBrowser(t, fleet.manager.email);
    const page = await b.get('/console/hos');
    assert.equal(page.status, 200, page.body);
    assert.match(page.headers['content-security-policy'], /script-src 'self'/);
    assert.match(page.body, /<h2 id="driver-\d+">Pat driver/);
    for (const clock of ['Drive', 'Shift', 'Cycle', 'Break'])
      assert.match(page.body, new RegExp(`<label for="clock-\\d+-${clock.toLowerCase()}">${clock}</label>`));
    assert.match(page.body, /<meter id="clock-\d+-drive" min="0" max="39600000"/);
    assert.match(page.body, /role="img" aria-label="Log of Pat driver for \d{4}-\d{2}-\d{2}: /);
    assert.match(page.body, /class="duty driving"/);
    assert.match(page.body, /<h3>Violations, last 8 days<\/h3><ul class="violations">.*11 Hour Driving Limit/);

    const other = await consoleBrowser(t, t.fleet.admin.email);
    const theirs = await other.b.get('/console/hos');
    assert.equal(theirs.status, 200);
    assert.doesNotMatch(theirs.body, new RegExp(`driver-${fleet.driver.id}"`));
    assert.equal((await new Browser(t.app).get('/console/hos')).status, 303);
  });
});
