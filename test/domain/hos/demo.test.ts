/** The demo seeder gives demo drivers three days of logs through the service. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachDialect, useApp } from '../../helper.js';
import { assertList, createVehicle } from '../../http/fixtures.js';
import { seedHosDemo } from '../../../src/demo/hos.js';
import { driver } from './fixtures.js';

eachDialect('HOS demo', (dialect) => {
  const getApp = useApp(dialect);

  test('three certified-or-not days per driver, one overdriving driver, logs and available time', async () => {
    const t = await getApp();
    const drivers = [];
    for (let i = 0; i < 4; i++) drivers.push(await driver(t));
    await createVehicle(t, { permanent_driver_id: drivers[0].id });
    const out = await seedHosDemo(t.db, { companyId: t.company.id });
    assert.equal(out.drivers, 4);
    assert.ok(out.records >= 4 * 3 * 6);
    const logs = await t.call({ method: 'GET', url: `/v1/logs?driver_ids=${drivers[0].id}&per_page=10` });
    const items = assertList(logs, 'logs', 'log');
    assert.equal(items.length, 4, 'three days and today');
    assert.ok(items[0].total_miles > 0);
    assert.ok(items[0].driver_signed_at);
    assert.equal(items[2].driver_signed_at, null, 'yesterday is not certified yet');
    const v = await t.call({
      method: 'GET',
      url: `/v1/hos_violations?driver_ids=${drivers[3].id}&min_start_time=2000-01-01`,
    });
    assert.deepEqual(
      assertList(v, 'hos_violations', 'hos_violation').map((x) => x.type),
      ['driving_11'],
    );
    const at = await t.call({ method: 'GET', url: '/v1/available_time' });
    assert.equal(at.body.pagination.total, 4);
  });
});
