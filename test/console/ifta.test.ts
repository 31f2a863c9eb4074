/**
 * The console's IFTA page: distance by jurisdiction for a quarter as a table and a chart, the same CSV
 * as the API's, another company's figures never shown, and no report for a group-limited manager.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect } from '../helper.js';
import { PASSWORD, useOAuthApp, vehicle } from '../oauth/helper.js';
import { uniq } from '../http/fixtures.js';
import { provisionDevice } from '../../src/domain/devices/service.js';
import { createUser as createAccount } from '../../src/domain/users/service.js';
import { nowIso } from '../../src/storage/values.js';
import { consoleBrowser } from './helper.js';

eachDialect('fleet console IFTA', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('a quarter by jurisdiction, its CSV, and isolation', async () => {
    const t = await getApp();
    const fleet = await t.newFleet('Miles Co');
    const id = await vehicle(t, fleet);
    const device = await provisionDevice(t.db, { companyId: fleet.companyId }, { identifier: `IFTA-${uniq()}`, vehicleId: id });
    // Eastward along 40°N from Illinois into Indiana (the line is near 87.53°W), 90 km/h, a fix every 30 s.
    const t0 = Date.parse('2024-02-10T14:00:00Z');
    const kmPerDeg = 111.32 * Math.cos((40 * Math.PI) / 180);
    const rows = Array.from({ length: 110 }, (_, i) => ({
      company_id: fleet.companyId, device_id: device.id, channel: 0, seq: i + 1, vehicle_id: id, type: 'location',
      fix_time: new Date(t0 + i * 30_000).toISOString(), received_at: nowIso(), lat: 40, lon: -88 + (i * 0.75) / kmPerDeg, speed_kph: 90, odometer_km: null,
    }));
    await t.db.kysely.insertInto('telemetry_records').values(rows).execute();

    const { b } = await consoleBrowser(t, fleet.admin.email);
    const page = await b.get('/console/ifta?year=2024&quarter=1');
    assert.equal(page.status, 200, page.body);
    assert.match(page.body, /<h1>IFTA 2024 Q1<\/h1>/);
    assert.match(page.body, /<tr><th scope="row">IL<\/th>/);
    assert.match(page.body, /<tr><th scope="row">IN<\/th>/);
    assert.match(page.body, /<svg class="chart"[^>]*aria-label="Miles by jurisdiction, [^"]*IL [\d.]+, IN [\d.]+|<svg class="chart"[^>]*aria-label="Miles by jurisdiction, [^"]*IN [\d.]+, IL [\d.]+/);
    assert.match(page.body, /href="\/console\/ifta.csv\?year=2024&amp;quarter=1"/);

    const csv = await b.get('/console/ifta.csv?year=2024&quarter=1');
    assert.equal(csv.status, 200);
    assert.match(csv.headers['content-type'], /^text\/csv/);
    assert.match(csv.headers['content-disposition'], /filename="ifta-2024-q1.csv"/);
    const viaApi = await t.app.inject({ url: '/v1/ifta/quarterly_report?year=2024&quarter=1&format=csv', headers: { 'x-api-key': fleet.apiKey } });
    assert.equal(csv.body, viaApi.body);
    assert.match(csv.body, /,IL,/);

    assert.equal((await b.get('/console/ifta?year=2024&quarter=5')).status, 400);
    const other = await consoleBrowser(t, t.fleet.admin.email);
    const theirs = await other.b.get('/console/ifta?year=2024&quarter=1');
    assert.match(theirs.body, /No IFTA distance in 2024 Q1/);
    assert.doesNotMatch((await other.b.get('/console/ifta.csv?year=2024&quarter=1')).body, /,IL,/);

    const email = `limited.${uniq()}@fleet.test`;
    await createAccount(t.db, { companyId: fleet.companyId }, { role: 'fleet_user', email, password: PASSWORD, first_name: 'Lim', last_name: 'Ited', group_visibility: 'limited' });
    const limited = await consoleBrowser(t, email);
    assert.equal((await limited.b.get('/console/ifta?year=2024&quarter=1')).status, 403);
    assert.equal((await limited.b.get('/console/ifta.csv?year=2024&quarter=1')).status, 403);
  });
});
