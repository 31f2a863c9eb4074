/**
 * Overload: device batches of 500 fixes and vehicle pages, half and half. In `npm run bench` an INFO
 * row at the run's connections. Its own target — at 500 connections, far past what one node serves,
 * every request answered (2xx, 429 or 503) within 2 s, none unanswered, /healthz and /readyz never
 * silent — is measured by running the file itself (bench/scenarios/_overload-run.ts):
 *
 *   npx tsx bench/scenarios/overload.ts [sqlite|postgres]   (OVERLOAD_SECONDS=20, OVERLOAD_CONNECTIONS=500)
 */
import { defineScenario, type BenchRequest } from '../lib/scenario.js';
import { seedFleet } from '../lib/fleet.js';
import { isEntry } from '../lib/own-run.js';
import { nextBatch, seedIngest, type IngestState } from './_ingest-run.js';
import { runOverloadBench } from './_overload-run.js';

interface OverloadState {
  ingest: IngestState;
  n: number;
}

export default defineScenario<OverloadState>({
  name: 'overload',
  summary:
    'half POST /device/v1/batches of 500 fixes (8 devices), half GET /v1/vehicles pages (see the file for the 500-connection target)',
  async seed(db, companyId) {
    await seedFleet(db, companyId, { vehicles: 1000, drivers: 500, groups: 5 });
    return { ingest: await seedIngest(db, companyId, 8, 'OVL'), n: 0 };
  },
  requests(s) {
    return (): BenchRequest => {
      const i = s.n++;
      if (i % 2 === 1) return { path: `/v1/vehicles?per_page=25&page_no=${1 + (i % 40)}` };
      const d = (i / 2) % s.ingest.devices.length;
      return {
        method: 'POST',
        path: '/device/v1/batches',
        body: nextBatch(s.ingest, d),
        headers: { authorization: `Bearer ${s.ingest.devices[d].token}`, 'content-type': 'application/json' },
      };
    };
  },
  verify(res) {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  },
});

if (isEntry(import.meta.url)) await runOverloadBench(process.argv[2] === 'postgres' ? 'postgres' : 'sqlite');
