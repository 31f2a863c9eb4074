/**
 * The console's IFTA page: distance by jurisdiction for a quarter as a table and a chart, the same CSV
 * as the API's, another company's figures never shown, and no report for a group-limited manager.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../helper.js';
import { PASSWORD, useOAuthApp, vehicle } from '../oauth/helper.js';
import { uniq } from '../http/fixtures.js';
import { createUser as createAccount } from '../../src/domain/users/service.js';
import { consoleBrowser, storeIftaTrack } from './helper.js';

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

    assert.equal((await b.get('/console/ifta?year=2024&quarter=5')).status, 400);
    const other = await consoleBrowser(t, t.fleet.admin.email);
    const theirs = await other.b.get('/console/ifta?year=2024&quarter=1');
    assert.match(theirs.body, /No IFTA distance in 2024 Q1/);
    assert.doesNotMatch((await other.b.get('/console/ifta.csv?year=2024&quarter=1')).body, /,IL,/);

    const email = `limited.${uniq()}@fleet.test`;
    await createAccount(
      t.db,
      { companyId: fleet.companyId },
      {
        role: 'fleet_user',
        email,
        password: PASSWORD,
        first_name: 'Lim',
        last_name: 'Ited',
        group_visibility: 'limited',
      },
    );
    const limited = await consoleBrowser(t, email);
    assert.equal((await limited.b.get('/console/ifta?year=2024&quarter=1')).status, 403);
    assert.equal((await limited.b.get('/console/ifta.csv?year=2024&quarter=1')).status, 403);
  });
});
