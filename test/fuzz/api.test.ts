/**
 * Fuzz of every operation of the OpenAPI document (as the app serves it), on each database: schema-
 * driven bad query, path and body values, raw malformed bodies and hostile headers. Seeded: the seed is
 * printed, FUZZ_SEED replays a run, FUZZ_RUNS sets its size, FUZZ_ONLY (a regular expression on
 * "METHOD /path") narrows it to some operations.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachDialect } from '../helper.js';
import { startFuzzApp, type FuzzApp } from './fixtures.js';
import { apiRequests, operations, SKIPPED } from './openapi-arbitrary.js';
import { RUNS, runFuzz } from './runner.js';
import { summary } from './report.js';

eachDialect('fuzz: the API from its OpenAPI document', (dialect) => {
  let fx: FuzzApp;
  before(async () => {
    fx = await startFuzzApp(dialect);
  });
  after(async () => {
    await fx?.close();
  });

  test('no 5xx, every 4xx an error_message, refused writes change nothing, /healthz within a second', async (t) => {
    const doc = fx.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
    const ops = operations(doc, process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined);
    const documented = Object.values(doc.paths).reduce(
      (n, item) => n + Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).length,
      0,
    );
    if (!process.env.FUZZ_ONLY)
      assert.equal(
        ops.length + Object.keys(SKIPPED).length,
        documented,
        'every documented operation is fuzzed or skipped with a reason',
      );
    assert.ok(ops.length > 0);
    const report = await runFuzz({ label: `api ${dialect}`, fx, arbitrary: apiRequests(ops, fx.auth), numRuns: RUNS });
    const text = summary(report);
    t.diagnostic(text);
    console.log(text);
    assert.ok(
      report.probe.probes >= Math.floor(report.ms / 1000),
      `the /healthz probe ran (${report.probe.probes} probes in ${report.ms} ms)`,
    );
    assert.equal(report.failures.length + report.blockedBy.length, 0, text);
  });
});
