/**
 * The pending records a node keeps in memory from one batch to the next
 * (src/telemetry/store/pending-memory.ts): its next batch reads no stored record back, and a batch that
 * another node stored in between makes it read them from the database again, so that no record goes
 * unprocessed. Two database handles on one database stand for two nodes; batches go through the batch
 * handler the device API uses, one record each.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';
import { derivedSnapshot, rig, settle, track, vehicleDay, type Rig } from './fixtures.js';
import { authenticateDevice } from '../../src/domain/devices/service.js';
import { handleBatch } from '../../src/telemetry/store/batch.js';
import { openDb, type Db } from '../../src/storage/db.js';

const WINDOW_S = 30;

eachDialect('pending records kept in memory', (dialect) => {
  // Two handles need a database both can open: on SQLite a file rather than the tests' in-memory one.
  const dir = dialect === 'sqlite' ? mkdtempSync(join(tmpdir(), 'fleet-pending-')) : null;
  const getApp = useApp(dialect, {
    ...(dir ? { DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}` } : {}),
    TELEMETRY_REORDER_WINDOW_S: String(WINDOW_S),
    TELEMETRY_SWEEP_MS: '0',
  });
  let t: TestApp;
  let otherNode: Db;
  before(async () => {
    t = await getApp();
    otherNode = openDb(t.app.config.databaseUrl);
  });
  after(async () => {
    await otherNode?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Stores one record through `db`; returns how many records its batch processed. */
  const ingest = async (db: Db, r: Rig, record: Record<string, unknown>) => {
    const device = (await authenticateDevice(db, r.device.device_token))!;
    const cfg = t.app.config.telemetry;
    const options = { thresholds: cfg.thresholds, reorderWindowS: WINDOW_S, flush: false };
    const out = await handleBatch(db, device, 0, [{ seq: ++r.seq, ...record }], cfg, options);
    assert.deepEqual(
      out.summary.results.map((x) => x.status),
      ['accepted'],
    );
    return out.inBatch && 'processed' in out.inBatch ? out.inBatch.processed : 0;
  };
  /** How many times the test's node (t.db) reads stored records while `fn` runs. */
  const readsBack = async (fn: () => Promise<unknown>) => {
    let n = 0;
    const off = t.db.observeQueries((e) => {
      if (/^select/i.test(e.query.sql) && e.query.sql.includes('from "telemetry_records"')) n++;
    });
    try {
      await fn();
    } finally {
      off();
    }
    return n;
  };

  test("a node's next batch reads no stored record back; after another node's batch it reads them", async () => {
    const r = await rig(t);
    const fixes = track({ fromS: 0, toS: 150, kph: 60 });
    let processed = 0;
    const reads: number[] = [];
    for (const [i, node] of [
      'A',
      'A',
      'A',
      'A',
      'B',
      'A',
      'A',
      'B',
      'B',
      'A',
      'A',
      'A',
      'A',
      'A',
      'A',
      'A',
    ].entries()) {
      if (node === 'B') processed += await ingest(otherNode, r, fixes[i]);
      else reads.push(await readsBack(async () => (processed += await ingest(t.db, r, fixes[i]))));
    }
    // Node A's batches, in order: after the first, each reads nothing back, except the first after a
    // batch of node B.
    assert.deepEqual(reads, [0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0], JSON.stringify(reads));
    // Fixes 10 s apart, 16 of them: all but the last three (inside the 30 s window) are processed, each once.
    assert.equal(processed, 13);
  });

  test('a write of the state row by code that knows no token (an earlier version) clears the token', async () => {
    const r = await rig(t);
    const fixes = track({ fromS: 0, toS: 40, kph: 60 });
    for (const f of fixes.slice(0, 3)) await ingest(t.db, r, f);
    const subject = `v:${r.vehicle.id}`;
    const writer = async () =>
      (
        await t.db.kysely
          .selectFrom('telemetry_state')
          .select('writer')
          .where('subject', '=', subject)
          .executeTakeFirstOrThrow()
      ).writer;
    assert.ok(await writer(), 'the last batch left its token');
    await otherNode.kysely
      .updateTable('telemetry_state')
      .set({ updated_at: new Date().toISOString() })
      .where('subject', '=', subject)
      .execute();
    assert.equal(await writer(), null);
    assert.equal(await readsBack(() => ingest(t.db, r, fixes[3])), 1, 'the next batch reads the pending records back');
    assert.equal(await readsBack(() => ingest(t.db, r, fixes[4])), 0);
  });

  test('a day sent one record a batch, alternating between two nodes, derives what one node derives', async () => {
    const one = await rig(t);
    const two = await rig(t);
    const pattern = 'AABABBBAABAAAB';
    for (const record of vehicleDay(one.driver.id)) await ingest(t.db, one, record);
    for (const [i, record] of vehicleDay(two.driver.id).entries())
      await ingest(pattern[i % pattern.length] === 'A' ? t.db : otherNode, two, record);
    await settle(t);
    const alike = async (r: Rig) => {
      const snap = await derivedSnapshot(t.db, r.vehicle.id);
      for (const rows of Object.values(snap))
        for (const row of rows as Array<Record<string, unknown>>) {
          delete row.vehicle_id;
          delete row.device_id;
          delete row.eld_device_id;
          if (row.driver_id === r.driver.id) row.driver_id = 'the driver';
          if (row.start_driver_id === r.driver.id) row.start_driver_id = 'the driver';
          if (row.end_driver_id === r.driver.id) row.end_driver_id = 'the driver';
        }
      return snap;
    };
    const single = await alike(one);
    assert.ok((single.driving_periods as unknown[]).length > 0 && (single.utilization_buckets as unknown[]).length > 0);
    assert.deepEqual(await alike(two), single);
  });
});
