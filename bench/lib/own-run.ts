/**
 * The frame of a benchmark that measures its own target instead of running as a row of `npm run bench`
 * (bench/scenarios/_ingest-run.ts, _history-run.ts): a fresh database of the kind asked for, a hard
 * deadline that ends a run that hangs, and the result printed and written to
 * bench/results/<name>-<database>.json with the machine's load average at the end. The database is
 * dropped whatever happens.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresBaseUrl, postgresDatabase, sqliteDatabase, type BenchDatabase } from './databases.js';

export type OwnRunLog = (message: string) => void;

export async function ownRun(
  name: string,
  kind: 'sqlite' | 'postgres',
  budgetMs: number,
  measure: (database: BenchDatabase, log: OwnRunLog) => Promise<Record<string, unknown>>,
): Promise<void> {
  const log: OwnRunLog = (m) => process.stderr.write(`[${name}] ${m}\n`);
  const base = postgresBaseUrl();
  if (kind === 'postgres' && !base) throw new Error('set BENCH_POSTGRES_URL or TEST_POSTGRES_URL');
  const database = kind === 'sqlite' ? sqliteDatabase() : await postgresDatabase(base);
  const hard = setTimeout(() => {
    log('over the time budget; stopping');
    process.exit(2);
  }, budgetMs);
  try {
    const report = {
      ...(await measure(database, log)),
      load_average: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
    };
    console.log(JSON.stringify(report, null, 2));
    const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', `${name}-${kind}.json`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    clearTimeout(hard);
    await database.drop();
  }
}

/** Whether the module of `moduleUrl` (its `import.meta.url`) is the file node was asked to run. */
export function isEntry(moduleUrl: string): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
