/**
 * The simulator behind `fleet serve --demo`: a few of the demo company's trucks driving through the
 * server's own device API — an hour of history caught up at 60× on start, then live — so that a
 * newcomer sees vehicles move, idle, raise faults and cross geofences. A restart goes on from where each
 * truck was last seen (no second track over the time already stored). Only the demo company is
 * simulated: the server does not start this on a database whose company someone created themselves.
 */
import type { FastifyInstance } from 'fastify';
import { releaseSimDevices, simDevices } from './devices.js';
import { Simulation } from './runner.js';

export const DEMO_SIM_VEHICLES = 8;
export const DEMO_SIM_SEED = 2024;

/** The running demo simulation; `stop` ends it and frees its trucks for the next run. */
export interface DemoSimulation {
  stop(): Promise<void>;
}

export async function startDemoSimulation(
  app: FastifyInstance,
  url: string,
  companyId: number,
  out: (text: string) => void,
): Promise<DemoSimulation | null> {
  const tenant = { companyId };
  const { devices, busy } = await simDevices(app.db, tenant, DEMO_SIM_VEHICLES);
  if (busy.length > 0)
    out(`Demo: ${busy.length} of the demo's trucks are driven by another simulator right now; left to it.\n`);
  if (devices.length === 0) return null;
  const sim = new Simulation({
    baseUrl: url,
    devices,
    seed: DEMO_SIM_SEED,
    speedup: 60,
    backfillS: 3600,
    // The hour of history goes in batches of 100 records (~20 KB: 3 units of in-flight work each, 24 for
    // the eight trucks), not 500 (12 each, 96: past the load-shedding ceiling of 64), so that the node
    // serving the demo does not refuse its first API requests while it takes the history in.
    batchMax: 100,
    log: (line) => app.log.warn(`demo simulator: ${line}`),
  });
  void sim.run().catch((err: unknown) => app.log.error({ err }, 'demo simulator stopped'));
  out(
    `Demo: ${devices.length} simulated ${devices.length === 1 ? 'truck reports' : 'trucks report'} through ${url}/device/v1/batches (an hour of history first, then live).\n`,
  );
  return {
    async stop() {
      await sim.stop();
      await releaseSimDevices(app.db, tenant, devices);
    },
  };
}
