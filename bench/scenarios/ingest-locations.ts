/**
 * Device ingestion: POST /device/v1/batches with 500 location records per batch, every processor on
 * (current location, history, driving periods, idle, utilization, faults, performance, geofences with
 * 10 geofences in the company). Each request is a fresh batch (new sequence numbers) of one of 8
 * devices, so nothing is a duplicate.
 *
 * In `npm run bench` this is an INFO row (requests/s of 500-record batches against the hello-world
 * baseline). Its own targets — ≥ 50,000 records/s and ≥ 25 % of a raw bulk insert of the same rows
 * into the same database in the same run, and the p99 batch latency — are measured by running the
 * file itself:
 *
 *   npx tsx bench/scenarios/ingest-locations.ts [sqlite|postgres]   (INGEST_SECONDS=10, INGEST_CONNECTIONS=4)
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineScenario } from '../lib/scenario.js';
import { BATCH, nextBatch, runIngestBench, seedIngest, type IngestState } from './_ingest-run.js';

export default defineScenario<IngestState>({
  name: 'ingest-locations',
  summary:
    'POST /device/v1/batches, 500 location records per batch, 8 devices, every processor on (see the file for records/s)',
  seed: (db, companyId) => seedIngest(db, companyId),
  requests: (s) => {
    let i = 0;
    return () => {
      i = (i + 1) % s.devices.length;
      return {
        method: 'POST',
        path: '/device/v1/batches',
        headers: { authorization: `Bearer ${s.devices[i].token}`, 'content-type': 'application/json' },
        body: nextBatch(s, i),
      };
    };
  },
  verify(res) {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.body.accepted !== BATCH)
      throw new Error(`expected ${BATCH} accepted, got ${JSON.stringify(res.body).slice(0, 300)}`);
  },
});

function isEntry(): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) await runIngestBench(process.argv[2] === 'postgres' ? 'postgres' : 'sqlite');
