// Runs every test file under test/ with node's test runner (through tsx for TypeScript).
// PostgreSQL runs too when TEST_POSTGRES_URL is set, Redis when TEST_REDIS_URL is; otherwise the suite says
// which was skipped.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return find(p);
    return p.endsWith('.test.ts') ? [p] : [];
  });
}

const only = process.argv.slice(2);
const files = only.length ? only : find('test').sort();
if (process.env.TEST_POSTGRES_URL) {
  console.log(`Databases: SQLite and PostgreSQL (${process.env.TEST_POSTGRES_URL.replace(/\/\/[^@]*@/, '//')})`);
} else {
  console.log('Databases: SQLite only. PostgreSQL was skipped: set TEST_POSTGRES_URL=postgres://… to run it too.');
}
console.log(process.env.TEST_REDIS_URL ? `Redis: ${process.env.TEST_REDIS_URL}` : 'Redis was skipped: set TEST_REDIS_URL=redis://… to run the limits on Redis too.');
const res = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: process.env },
);
if (!process.env.TEST_POSTGRES_URL) console.log('PostgreSQL was skipped (TEST_POSTGRES_URL not set).');
if (!process.env.TEST_REDIS_URL) console.log('Redis was skipped (TEST_REDIS_URL not set): the limits ran on memory only.');
process.exit(res.status ?? 1);
