/**
 * Fuzz of the device side, on each database: batches of the device API with broken records (every
 * record type of docs/device-protocol.md) and broken batches, credentials and bodies; and the OsmAnd
 * listener's parameters by GET and POST. Same seed, replay and size settings as api.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachDialect } from '../helper.js';
import { startOsmand, type OsmandServer } from '../../src/telemetry/osmand.js';
import { telemetryFor } from '../../src/telemetry/store/runner.js';
import { startFuzzApp, type FuzzApp } from './fixtures.js';
import { RECORD_TYPES as ACCEPTED_TYPES } from '../../src/telemetry/records.js';
import { deviceRequests, osmandRequests } from './device-arbitrary.js';
import { RECORD_TYPES } from './device-records.js';
import { apiJudge, jsonOf, RUNS, runFuzz, type Judge } from './runner.js';
import { summary } from './report.js';

/** The batch answer: one result per record, counts that add up; and only accepted records stored. */
const batchJudge: Judge = (req, res, seen) => {
  const out = apiJudge(req, res, seen);
  if (res.status !== 200) return out;
  const body = jsonOf(res);
  const sent = (() => {
    try {
      return (JSON.parse(String(req.payload)) as { records: unknown[] }).records.length;
    } catch {
      return undefined;
    }
  })();
  const results: Array<{ status: string; error_message?: unknown }> = body?.results ?? [];
  if (!Array.isArray(body?.results) || (sent !== undefined && results.length !== sent))
    return [...out, 'batch answer without one result per record'];
  const count = (s: string) => results.filter((r) => r.status === s).length;
  if (
    count('accepted') !== body.accepted ||
    count('duplicate') !== body.duplicates ||
    count('rejected') !== body.rejected ||
    results.length !== body.accepted + body.duplicates + body.rejected
  )
    out.push('batch counts do not add up');
  if (results.some((r) => r.status === 'rejected' && typeof r.error_message !== 'string'))
    out.push('rejected record without error_message');
  const rows = seen.rows('telemetry_records');
  if (rows && rows[1] - rows[0] !== body.accepted)
    out.push(`telemetry_records grew by ${rows[1] - rows[0]} for ${body.accepted} accepted`);
  if (body.accepted === 0 && seen.changed?.length)
    out.push(`a batch with nothing accepted changed ${seen.changed.join(', ')}`);
  return out;
};

/** OsmAnd answers text: no 5xx; a refusal is text/plain with a reason and stores nothing. */
const osmandJudge: Judge = (req, res, seen) => {
  const out: string[] = [];
  if (res.status >= 500) out.push('5xx');
  if (res.status >= 400 && res.status < 500) {
    if (!String(res.headers['content-type'] ?? '').startsWith('text/plain')) out.push('OsmAnd 4xx not text/plain');
    if (req.method !== 'HEAD' && !res.body.trim()) out.push('OsmAnd 4xx without a reason');
    if (seen.changed?.length) out.push(`refused position changed ${seen.changed.join(', ')}`);
  }
  return out;
};

eachDialect('fuzz: the device API and OsmAnd', (dialect) => {
  let fx: FuzzApp;
  let osmand: OsmandServer;
  before(async () => {
    fx = await startFuzzApp(dialect);
    osmand = await startOsmand(telemetryFor(fx.db, fx.app.config.telemetry), { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await osmand?.close();
    await fx?.close();
  });

  test('device batches: no 5xx, records stored whole or not at all, /healthz within a second', async (t) => {
    assert.deepEqual(Object.keys(RECORD_TYPES).sort(), [...ACCEPTED_TYPES].sort(), 'every record type is fuzzed');
    const report = await runFuzz({
      label: `device ${dialect}`,
      fx,
      arbitrary: deviceRequests(fx.device),
      numRuns: Math.ceil(RUNS / 4),
      judge: batchJudge,
    });
    const text = summary(report);
    t.diagnostic(text);
    console.log(text);
    assert.equal(report.failures.length + report.blockedBy.length, 0, text);
  });

  test('OsmAnd: no 5xx, refusals in text, refused positions store nothing, /healthz within a second', async (t) => {
    const report = await runFuzz({
      label: `osmand ${dialect}`,
      fx,
      arbitrary: osmandRequests(fx.device.identifier),
      numRuns: Math.ceil(RUNS / 6),
      judge: osmandJudge,
      mayWrite: () => true,
      send: async (req) => {
        const res = await fetch(`${osmand.url}${req.url}`, {
          method: req.method,
          headers: req.headers,
          body: req.payload as string | undefined,
        });
        return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
      },
    });
    const text = summary(report);
    t.diagnostic(text);
    console.log(text);
    assert.equal(report.failures.length + report.blockedBy.length, 0, text);
  });
});
