// Runs every test file under test/ with node's test runner, compiled first (scripts/test-build.mjs). Files
// named on the command line run alone: test/x/y.test.ts. PostgreSQL runs too when TEST_POSTGRES_URL is set,
// Redis when TEST_REDIS_URL is; otherwise the suite says which was skipped.
//
// TEST_COVERAGE=1 also prints the line and branch coverage of src/ at the end (.ci/run sets it). V8 writes
// each process's coverage to a temporary folder (NODE_V8_COVERAGE, so servers that tests start from the test
// tree count too) and c8 adds it up by TypeScript line, through the compiled tree's inline source maps, before
// the tree is removed. Measured on 10 test files (SQLite): 7.4 s of wall time without, 8.3 s with, and about
// a second for the report. Node 20's own --experimental-test-coverage is not used: it fails on source maps
// ("Could not report code coverage", exit code 1).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestTree } from './test-build.mjs';

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
console.log(
  process.env.TEST_REDIS_URL
    ? `Redis: ${process.env.TEST_REDIS_URL}`
    : 'Redis was skipped: set TEST_REDIS_URL=redis://… to run the limits on Redis too.',
);
const coverageDir = process.env.TEST_COVERAGE ? mkdtempSync(join(tmpdir(), 'fleet-coverage-')) : null;
const tree = await buildTestTree();
console.log(`Compiled src/ and test/ into ${relative(process.cwd(), tree.dir)} in ${tree.ms} ms`);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const paths = files.map((f) => join(tree.dir, relative(ROOT, resolve(f))).replace(/\.ts$/, '.js'));
let res;
// Asked for and not printed fails the run: CI relies on the figure.
let coverageMissing = false;
try {
  res = spawnSync(
    process.execPath,
    ['--enable-source-maps', '--test', '--test-concurrency=2', '--test-reporter=spec', ...paths],
    { stdio: 'inherit', env: coverageDir ? { ...process.env, NODE_V8_COVERAGE: coverageDir } : process.env },
  );
  // While the tree is there: c8 reads the compiled files and their source maps.
  if (coverageDir) coverageMissing = !printCoverage(coverageDir, relative(ROOT, tree.dir));
} finally {
  rmSync(tree.dir, { recursive: true, force: true });
  if (coverageDir) rmSync(coverageDir, { recursive: true, force: true });
}
if (!process.env.TEST_POSTGRES_URL) console.log('PostgreSQL was skipped (TEST_POSTGRES_URL not set).');
if (!process.env.TEST_REDIS_URL)
  console.log('Redis was skipped (TEST_REDIS_URL not set): the limits ran on memory only.');
process.exit(coverageMissing ? 1 : (res.status ?? 1));

// Prints the coverage figure; false when it could not be made. Every file of src/ counts (--all: one that no test loaded counts as uncovered), except the console's
// browser script, which runs in the browser. Processes that run a build of their own (the CLI tests,
// test/cli-process.ts) are not counted: their folder is gone by now.
function printCoverage(dir, treeDir) {
  const c8 = fileURLToPath(new URL('../node_modules/c8/bin/c8.js', import.meta.url));
  const reportDir = join(dir, 'report');
  const args = ['report', '--temp-directory', dir, '--report-dir', reportDir, '--reporter=json-summary', '--all'];
  const files = [
    `--src=${treeDir}/src`,
    `--include=${treeDir}/src/**`,
    `--exclude=${treeDir}/src/http/console/assets/**`,
  ];
  const report = spawnSync(process.execPath, [c8, ...args, ...files], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (report.status !== 0) {
    console.log('Coverage: c8 could not write its report.');
    return false;
  }
  const { lines, branches } = JSON.parse(readFileSync(join(reportDir, 'coverage-summary.json'), 'utf8')).total;
  const part = (t) => `${t.pct} % (${t.covered} of ${t.total})`;
  console.log(`Coverage of src/: lines ${part(lines)}, branches ${part(branches)}`);
  return true;
}
