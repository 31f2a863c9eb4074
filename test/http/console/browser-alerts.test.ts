/**
 * Alerts in a real browser: with the alert worker running as on a serving node, a drive reported
 * through the device API appears in the open feed within seconds (no reload) and in the header's
 * unread count; the settings form turns speeding off and the next drive's speeding stays out of the
 * feed (the fault is still open and the gateway still unplugged: nothing new of those). The feed and the settings are photographed at desktop width and at 390 px under test-results/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { useOAuthApp, type OAuthTestApp } from '../../auth/oauth/flows.js';
import { openConsoleBrowser, shoot, type ConsoleBrowser } from './browser-kit.js';
import { ALERT_ENV, drive, scene } from '../../domain/alerts/scene.js';

const later = (records: Array<Record<string, unknown>>, s: number) =>
  records.map((r) => ({ ...r, time: new Date(Date.parse(String(r.time)) + s * 1000).toISOString() }));

eachDialect('alerts in a real browser', (dialect) => {
  const getApp = useOAuthApp(dialect, { ...ALERT_ENV, ALERT_POLL_MS: '100' });
  let t: OAuthTestApp;
  let web: ConsoleBrowser;

  before(async () => {
    t = await getApp();
    web = await openConsoleBrowser(t);
    t.app.alertWorker.start();
  });

  after(async () => {
    await web?.close();
  });

  test('a reported event appears live in the feed; the settings form hides a kind', async () => {
    const s = await scene(t, 'Live Alerts Co');
    const page = await web.signedIn(s.fleet.admin.email, '/console/alerts');
    await page.getByRole('heading', { name: 'Alerts', exact: true }).waitFor();
    await page.getByText('No alerts yet.').waitFor();
    const badge = page.locator('#alerts-link .alerts-count');
    assert.equal(await badge.isHidden(), true);

    await s.send(drive(s, s.fleet.driver.id));
    const feed = page.getByRole('list', { name: 'Alerts' });
    await feed.getByText(`${s.number} speeding at 78 mph`).waitFor({ timeout: 15_000 });
    await feed.getByText(`${s.number} entered ${s.geofence}`).waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Alerts, 5 unread' }).waitFor({ timeout: 15_000 });
    assert.equal(await badge.textContent(), '5');
    assert.equal(await feed.getByRole('listitem').count(), 5);
    await shoot(page, 'alerts', dialect);

    await page.getByRole('link', { name: 'Alert settings' }).click();
    await page.getByRole('heading', { name: 'Alert settings' }).waitFor();
    await page.getByLabel('Speeding in the console').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your alert settings were saved.').waitFor();
    assert.equal(await page.getByLabel('Speeding in the console').isChecked(), false);
    await shoot(page, 'alert-settings', dialect);

    await page.getByRole('link', { name: 'Back to alerts' }).click();
    await feed.getByRole('listitem').first().waitFor();
    await s.send(later(drive(s, s.fleet.driver.id), 900));
    await page.getByRole('link', { name: 'Alerts, 7 unread' }).waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => document.querySelectorAll('#alert-feed > li').length === 7, null, {
      timeout: 15_000,
    });
    assert.equal(await feed.getByText(`${s.number} speeding at 78 mph`).count(), 1, 'only the first drive');
    assert.equal(await feed.getByText(`${s.number} entered ${s.geofence}`).count(), 2);

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByText('Marked as read.').waitFor();
    assert.equal(await badge.isHidden(), true);
    assert.deepEqual(web.problemsOf(page), []);
  });
});
