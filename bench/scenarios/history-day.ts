/**
 * One vehicle-day of location history: GET /v1/vehicle_locations/:id?date= over 8,640 points (one fix
 * every 10 s, stored through the ingestion path among the same day of HISTORY_NEIGHBOURS other vehicles,
 * default 9), unpaginated. Target: p99 under 50 ms.
 *
 * In `npm run bench` it is an INFO row (its latency percentiles are in the table). Running the file
 * measures the target itself, with one request at a time (HISTORY_REQUESTS, default 200):
 *
 *   npx tsx bench/scenarios/history-day.ts [sqlite|postgres]
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineScenario } from '../lib/scenario.js';
import { historyNeighbours, POINTS, runHistoryBench, seedHistory, type HistoryState } from './_history-run.js';

const path = (s: HistoryState) => `/v1/vehicle_locations/${s.vehicleId}?date=${s.day}`;

export default defineScenario<HistoryState>({
  name: 'history-day',
  summary:
    'GET /v1/vehicle_locations/:id?date= — one vehicle-day of 8,640 points, unpaginated (target p99 < 50 ms; see the file)',
  seed: (db, companyId) => seedHistory(db, companyId, historyNeighbours()),
  requests: (s) => () => ({ path: path(s), headers: { 'x-time-zone': 'UTC' } }),
  verify(res) {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}`);
    if (res.body.vehicle_locations.length !== POINTS)
      throw new Error(`expected ${POINTS} points, got ${res.body.vehicle_locations.length}`);
  },
});

function isEntry(): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) await runHistoryBench(process.argv[2] === 'postgres' ? 'postgres' : 'sqlite');
