/** GET /v1/vehicles?per_page=25: one page of a 1,000-vehicle fleet with embedded drivers and group ids. */
import { defineScenario } from '../lib/scenario.js';
import { seedFleet } from '../lib/fleet.js';

export default defineScenario({
  name: 'vehicles-list',
  summary: 'GET /v1/vehicles?per_page=25, first page of 1,000 vehicles (500 with a permanent driver, 5 groups)',
  target: 0.3,
  seed: (db, companyId) => seedFleet(db, companyId, { vehicles: 1000, drivers: 500, groups: 5 }),
  requests: () => () => ({ path: '/v1/vehicles?per_page=25' }),
  verify(res, fleet) {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
    const page = res.body.vehicles as Array<{ vehicle: { permanent_driver: unknown; group_ids: number[] } }>;
    if (page.length !== 25) throw new Error(`expected 25 vehicles, got ${page.length}`);
    if (res.body.pagination.total !== fleet.vehicleIds.length)
      throw new Error(`expected total ${fleet.vehicleIds.length}`);
    if (!page.some((v) => v.vehicle.permanent_driver !== null))
      throw new Error('no embedded permanent_driver on the page');
    if (!page.every((v) => v.vehicle.group_ids.length > 0)) throw new Error('a vehicle on the page has no group_ids');
  },
});
