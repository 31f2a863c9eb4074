/**
 * The geography indexes that device data needs — the IFTA jurisdiction grid and the place names —
 * are built once and kept for the life of the process. Building them is about a second of CPU (more
 * on a busy host) in one synchronous stretch. A server has them built on a worker thread while its
 * own thread loads modules and compiles routes, and waits for them before it listens: the first
 * device batch after a start then does not hold the event loop (and every other request, the health
 * probes included) for that long, and the build adds nothing to the time until listening on a host
 * with a second core. Anything else builds them on first use, on its own thread.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { installJurisdictionGrid, jurisdictionIndex } from '../../domain/ifta/boundaries.js';
import type { GridParts } from '../../domain/ifta/grid-index.js';
import { describe, installPlaces, type PlacesData } from './places.js';

/**
 * The worker, with none of this process's Node options (which need not suit a worker: `--input-type`
 * fails one). From the sources it registers tsx first: Node 20 does not apply an `--import` hook to
 * a worker's own entry module.
 */
function geographyWorker(): Worker {
  const ext = extname(fileURLToPath(import.meta.url));
  const entry = new URL(`./geography-worker${ext}`, import.meta.url);
  if (ext !== '.ts') return new Worker(entry, { execArgv: [] });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, execArgv: [] });
}

/** Builds both indexes on this thread. */
export function warmGeographyHere(): void {
  jurisdictionIndex();
  describe(0, 0);
}

/**
 * Builds both indexes on a worker thread and installs them here. The worker runs this module's
 * sibling: compiled JavaScript in a build, TypeScript through tsx otherwise. If the worker cannot run,
 * they are built here.
 * Says where they were built.
 */
export async function warmGeography(): Promise<'worker' | 'here'> {
  try {
    const built = await new Promise<{ grid: GridParts; places: PlacesData }>((resolve, reject) => {
      const worker = geographyWorker();
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`geography worker exited with code ${code}`)));
    });
    installJurisdictionGrid(built.grid);
    installPlaces(built.places);
    return 'worker';
  } catch {
    warmGeographyHere();
    return 'here';
  }
}
