/**
 * The vehicle of the /v1 and /v2 vehicle_locations lists (docs/reference/wire.md §4.4): the exact body, with
 * `fuel_type` as /v1/vehicles has it; a vehicle that has reported nothing has no location or driver.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { createVehicle } from '../http/fixtures.js';

eachDialect('vehicle_locations list vehicles', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  before(async () => {
    t = await getApp();
  });

  test('/v2 (and /v1) vehicle_locations: the vehicle carries fuel_type as /v1/vehicles does', async () => {
    const gas = await createVehicle(t, {
      number: 'LOC-G',
      year: '2021',
      make: 'Ford',
      model: 'Transit',
      vin: '1FTBW3XM5MKA00001',
      fuel_type: 'gasoline',
    });
    const bare = await createVehicle(t, { number: 'LOC-N' });
    const shown = await t.call({ method: 'GET', url: `/v1/vehicles/${gas.id}` });
    assert.equal(shown.body.vehicle.fuel_type, 'gasoline');
    for (const v of ['v2', 'v1']) {
      const res = await t.call({
        method: 'GET',
        url: `/${v}/vehicle_locations?vehicle_ids[]=${gas.id}&vehicle_ids[]=${bare.id}`,
      });
      assert.equal(res.status, 200);
      assert.equal(
        res.raw,
        JSON.stringify({
          vehicles: [
            {
              vehicle: {
                id: gas.id,
                number: 'LOC-G',
                year: '2021',
                make: 'Ford',
                model: 'Transit',
                vin: '1FTBW3XM5MKA00001',
                fuel_type: 'gasoline',
                current_location: null,
                current_driver: null,
              },
            },
            {
              vehicle: {
                id: bare.id,
                number: 'LOC-N',
                year: null,
                make: null,
                model: null,
                vin: null,
                fuel_type: bare.fuel_type,
                current_location: null,
                current_driver: null,
              },
            },
          ],
          pagination: { per_page: 25, page_no: 1, total: 2 },
        }),
        v,
      );
    }
  });
});
