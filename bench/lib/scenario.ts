/**
 * The scenario contract. A scenario is one file in bench/scenarios/ whose default export is a Scenario;
 * the runner finds it by itself (files starting with `_` are skipped), so adding an area's scenario
 * touches no other file.
 *
 * Each scenario gets its own company with an API key in a database shared with the other scenarios of
 * the run. `seed` fills that company; `requests` returns a function the load generator calls for every
 * request it sends (rotate ids there); the runner adds `X-Api-Key` unless the request sets it itself.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Db } from '../../src/storage/db.js';

export interface BenchRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, e.g. `/v1/vehicles?per_page=25`. */
  path: string;
  headers?: Record<string, string>;
  /** A JSON body, already serialized. */
  body?: string;
}

export interface Scenario<S = unknown> {
  /** Kebab-case name, shown in the table and accepted by BENCH_SCENARIOS. */
  name: string;
  /** One line: what a request does. */
  summary: string;
  /**
   * Minimum throughput as a fraction of the bare-Fastify baseline (0.3 = 30 %). Leave it out for a
   * calibration scenario that is reported without a verdict (INFO).
   */
  target?: number;
  /** Seeds the scenario's company; the returned state is handed to `requests` and `verify`. */
  seed(db: Db, companyId: number): Promise<S>;
  /** Called once before the load; the returned function is called for every request sent. */
  requests(state: S): () => BenchRequest;
  /** Checks one real response before the load starts; throw to abort the scenario. */
  verify?(res: { status: number; body: any }, state: S): void;
}

/** Identity helper that keeps a scenario file's state type checked. */
export function defineScenario<S>(s: Scenario<S>): Scenario<S> {
  return s;
}

const SCENARIO_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'scenarios');

/** A scenario with the file it came from (the client processes import it to make the requests). */
export type LoadedScenario = Scenario & { file: string };

/** Every scenario in bench/scenarios/, sorted by name, optionally filtered by a comma-separated list. */
export async function loadScenarios(only?: string): Promise<LoadedScenario[]> {
  const files = readdirSync(SCENARIO_DIR)
    .filter((f) => f.endsWith('.ts') && !f.startsWith('_') && !f.endsWith('.d.ts'))
    .sort();
  const all: LoadedScenario[] = [];
  for (const f of files) {
    const file = join(SCENARIO_DIR, f);
    const mod = (await import(pathToFileURL(file).href)) as { default?: Scenario };
    if (!mod.default?.name) throw new Error(`bench/scenarios/${f} has no default-exported scenario`);
    all.push({ ...mod.default, file });
  }
  const names = new Set(all.map((s) => s.name));
  if (names.size !== all.length) throw new Error('two scenarios share a name');
  if (!only) return all;
  const wanted = only
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const w of wanted)
    if (!names.has(w)) throw new Error(`unknown scenario "${w}"; known: ${[...names].join(', ')}`);
  return all.filter((s) => wanted.includes(s.name));
}
