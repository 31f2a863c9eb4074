/** GET /v1/vehicles/:id, rotating over all 1,000 vehicle ids so no single row stays hot. */
import { defineScenario } from '../lib/scenario.js';
import { seedFleet } from '../lib/fleet.js';

export default defineScenario({
  name: 'vehicle-get',
  summary: 'GET /v1/vehicles/:id, ids rotating over 1,000 vehicles (half with a permanent driver)',
  target: 0.5,
  seed: (db, companyId) => seedFleet(db, companyId, { vehicles: 1000, drivers: 500, groups: 5 }),
  requests(fleet) {
    let i = 0;
    return () => ({ path: `/v1/vehicles/${fleet.vehicleIds[i++ % fleet.vehicleIds.length]}` });
  },
  verify(res, fleet) {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.body.vehicle?.id !== fleet.vehicleIds[0])
      throw new Error('the first request did not return the first vehicle');
    if (res.body.vehicle.permanent_driver === null) throw new Error('the first vehicle should have a permanent driver');
  },
});
