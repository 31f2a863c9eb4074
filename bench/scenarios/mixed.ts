/**
 * A mixed workload, as a fleet's integrations and trucks produce it together: out of every 20 requests,
 * 12 GET /v1/vehicles/:id (rotating over 1,000 vehicles), 2 GET /v1/vehicles pages, 2 PUT
 * /v1/vehicles/:id (a note changes, so cached vehicle reads go stale), 1 GET /v1/vehicle_locations
 * and 3 device batches of 50 location fixes (every processor on). INFO row: no target of its own.
 */
import { defineScenario, type BenchRequest } from '../lib/scenario.js';
import { seedFleet, type Fleet } from '../lib/fleet.js';
import { nextBatch, seedIngest, type IngestState } from './_ingest-run.js';

interface MixedState {
  fleet: Fleet;
  ingest: IngestState;
  n: number;
}

const PLAN = [
  'get',
  'get',
  'batch',
  'get',
  'list',
  'get',
  'put',
  'get',
  'get',
  'batch',
  'get',
  'locations',
  'get',
  'get',
  'put',
  'get',
  'batch',
  'get',
  'list',
  'get',
] as const;

export default defineScenario<MixedState>({
  name: 'mixed',
  summary:
    '60 % vehicle GETs, 10 % vehicle pages, 10 % vehicle PUTs, 5 % current locations, 15 % device batches of 50 fixes',
  async seed(db, companyId) {
    const fleet = await seedFleet(db, companyId, { vehicles: 1000, drivers: 500, groups: 5 });
    const ingest = await seedIngest(db, companyId, 8, 'MIX');
    return { fleet, ingest, n: 0 };
  },
  requests(s) {
    return (): BenchRequest => {
      const i = s.n++;
      const vehicle = s.fleet.vehicleIds[(i * 7) % s.fleet.vehicleIds.length];
      switch (PLAN[i % PLAN.length]) {
        case 'get':
          return { path: `/v1/vehicles/${vehicle}` };
        case 'list':
          return { path: `/v1/vehicles?per_page=25&page_no=${1 + (i % 4)}` };
        case 'put':
          return {
            method: 'PUT',
            path: `/v1/vehicles/${vehicle}`,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ notes: `checked ${i}` }),
          };
        case 'locations':
          return { path: '/v1/vehicle_locations?per_page=25' };
        case 'batch': {
          const d = i % s.ingest.devices.length;
          return {
            method: 'POST',
            path: '/device/v1/batches',
            body: nextBatch(s.ingest, d, 50),
            headers: { authorization: `Bearer ${s.ingest.devices[d].token}`, 'content-type': 'application/json' },
          };
        }
      }
    };
  },
  verify(res) {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  },
});
