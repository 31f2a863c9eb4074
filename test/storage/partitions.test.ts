/**
 * Partitioned telemetry and retention (docs/storage.md): weekly partitions made ahead by the maintenance
 * job, three nodes running it at once, a device batch across a week's boundary, a re-sent record
 * recognised across partitions, and retention checked row by row — whole weeks dropped on PostgreSQL,
 * batched deletes on SQLite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { eachDialect, freshDatabase } from '../helper.js';
import { openDb, type Db } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { partitionTelemetry, telemetryPartitions, WEEKS_AHEAD } from '../../src/storage/partitions/telemetry.js';
import { DAY_MS, WEEK_MS, weekStart } from '../../src/storage/partitions/layout.js';
import { partitionsAhead, runMaintenance } from '../../src/storage/partitions/maintain.js';
import { applyRetention } from '../../src/storage/partitions/retention.js';
import { retentionConfig } from '../../src/config/retention.js';
import type { DevicePrincipal } from '../../src/domain/devices/service.js';
import { fixAt, migrateBefore, send, storedSeqs, vehicleWithDevice } from './partition-kit.js';

const NOW = Date.now();
/** The newest week boundary at least ten minutes past (records on both sides of it are accepted now). */
const BOUNDARY = NOW - weekStart(NOW) > 600_000 ? weekStart(NOW) : weekStart(NOW) - WEEK_MS;
const cfg = retentionConfig({}, (m) => new Error(m));

/** The partitions cover everything from MINVALUE without a gap or an overlap. */
function assertContiguous(parts: Array<{ name: string; from: number; to: number }>): void {
  assert.equal(parts[0].from, -Infinity, `${parts[0].name} starts at MINVALUE`);
  for (let i = 1; i < parts.length; i++) assert.equal(parts[i].from, parts[i - 1].to, `${parts[i].name} follows`);
}

eachDialect('partitioned telemetry and retention', (dialect) => {
  let db: Db;
  let drop: () => Promise<void>;
  let url: string;
  let d: DevicePrincipal;

  test('setup: a database whose telemetry was partitioned three weeks ago', async () => {
    const fresh = await freshDatabase(dialect);
    url = fresh.url;
    drop = fresh.drop;
    db = openDb(url);
    if (dialect === 'postgres') {
      await migrateBefore(db, '0025_telemetry_partitions');
      await partitionTelemetry(db.kysely, NOW - 21 * DAY_MS);
    }
    await migrateToLatest(db);
    d = await vehicleWithDevice(db, 'Parts');
  });

  if (dialect === 'postgres') {
    test('weekly partitions reach weeks ahead, and three nodes running the job at once make each once', async () => {
      // What every app does as it becomes ready (src/workers.ts), before it listens.
      await partitionsAhead(db, NOW);
      const parts = await telemetryPartitions(db.kysely);
      assertContiguous(parts);
      assert.ok(parts.at(-1)!.to > NOW + DAY_MS + WEEKS_AHEAD * WEEK_MS, 'made ahead');
      const later = NOW + 8 * WEEK_MS;
      const nodes = [openDb(url), openDb(url), openDb(url)];
      try {
        const runs = await Promise.all(
          nodes.map((n) => runMaintenance(n, cfg, { nowMs: later, dryRun: false, retention: false })),
        );
        const made = runs.flatMap((r) => r.created);
        assert.ok(
          runs.some((r) => r.ran && r.created.length > 0),
          'one node made the new weeks',
        );
        assert.equal(new Set(made).size, made.length, 'no week made twice');
        const after = await telemetryPartitions(db.kysely);
        assertContiguous(after);
        assert.deepEqual(
          after.map((p) => p.name),
          [...parts.map((p) => p.name), ...made],
        );
        assert.ok(after.at(-1)!.to > later + DAY_MS + WEEKS_AHEAD * WEEK_MS);
        const held = await sql<{ n: number }>`select count(*)::int as n from pg_locks where locktype = 'advisory'
          and objid = hashtext(current_schema() || '.fleet_maintenance')::oid`.execute(db.kysely);
        assert.equal(held.rows[0].n, 0, 'the lock is released');
      } finally {
        await Promise.all(nodes.map((n) => n.close()));
      }
    });
  }

  if (dialect === 'postgres') {
    test('no partition of telemetry_records has a foreign key, the one before the weeks included', async () => {
      const parts = await sql<{ name: string; keys: number }>`select c.relname as name,
          (select count(*) from pg_constraint k where k.conrelid = c.oid and k.contype = 'f')::int as keys
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = to_regclass('telemetry_records') order by c.relname`.execute(db.kysely);
      assert.ok(
        parts.rows.some((p) => p.name === 'telemetry_records_before'),
        'the partition before the weeks is there',
      );
      assert.deepEqual(
        parts.rows.filter((p) => p.keys > 0),
        [],
      );
    });
  }

  test('a batch across a week boundary is stored, and re-sent it is a duplicate on both sides', async () => {
    const batch = [fixAt(2, BOUNDARY - 60_000), fixAt(3, BOUNDARY + 60_000)];
    assert.deepEqual(await send(db, d, batch), ['accepted', 'accepted']);
    assert.deepEqual(await send(db, d, batch), ['duplicate', 'duplicate']);
    assert.deepEqual(await storedSeqs(db, d), [2, 3]);
    if (dialect === 'postgres') {
      const where = await sql<{ seq: number; part: string }>`select seq::int as seq, tableoid::regclass::text as part
        from telemetry_records where device_id = ${d.deviceId} order by seq`.execute(db.kysely);
      assert.notEqual(where.rows[0].part, where.rows[1].part, 'two weeks, two partitions');
    }
  });

  test('retention: a dry run says what would go, the run removes exactly that', async () => {
    // As of 150 days ago, of 30 days ahead, and of an hour before the cutoff of a run 200 days ahead.
    const runAt = NOW + 200 * DAY_MS;
    const cutoff = runAt - cfg.rawDays * DAY_MS;
    const partitionsTo = NOW + 40 * DAY_MS + DAY_MS + WEEKS_AHEAD * WEEK_MS;
    await runMaintenance(db, cfg, { nowMs: NOW + 40 * DAY_MS, dryRun: false, retention: false });
    assert.ok(dialect === 'sqlite' || (await telemetryPartitions(db.kysely)).at(-1)!.to >= partitionsTo - WEEK_MS);
    for (const [seq, at] of [
      [1, NOW - 150 * DAY_MS],
      [4, NOW + 30 * DAY_MS],
      [5, cutoff - 3_600_000],
    ]) {
      await runMaintenance(db, cfg, { nowMs: at, dryRun: false, retention: false });
      assert.deepEqual(await send(db, d, [fixAt(seq, at)], at), ['accepted'], `seq ${seq}`);
    }
    assert.deepEqual(await storedSeqs(db, d), [1, 2, 3, 4, 5]);
    const old = new Date(NOW - 60 * DAY_MS).toISOString();
    const events = [
      { subject_id: 'old-fanned', occurred_at: old, fanned_out_at: old },
      { subject_id: 'old-waiting', occurred_at: old, fanned_out_at: null },
      { subject_id: 'recent', occurred_at: new Date(runAt - DAY_MS).toISOString(), fanned_out_at: old },
    ];
    await db.kysely
      .insertInto('domain_events')
      .values(
        events.map((e) => ({
          ...e,
          company_id: d.companyId,
          action: 'test',
          subject_type: 'retention_test',
          data: '{}',
        })),
      )
      .execute();

    const dry = await applyRetention(db, cfg, { nowMs: runAt, dryRun: true });
    const raw = dry.find((l) => l.table === 'telemetry_records')!;
    // SQLite deletes every row before the cutoff; PostgreSQL drops the weeks wholly before it (less a
    // day), so the week holding the cutoff keeps seq 5 until a later run.
    const gone = dialect === 'sqlite' ? [1, 2, 3, 5] : [1, 2, 3];
    assert.equal(raw.rows, gone.length);
    if (dialect === 'postgres') {
      assert.ok(raw.partitions.includes('telemetry_records_before'));
      assert.ok(raw.partitions.every((p) => p === 'telemetry_records_before' || p.startsWith('telemetry_records_w')));
    } else assert.deepEqual(raw.partitions, []);
    assert.equal(dry.find((l) => l.table === 'domain_events')!.rows >= 1, true);
    assert.deepEqual(await storedSeqs(db, d), [1, 2, 3, 4, 5], 'a dry run deletes nothing');

    const done = await applyRetention(db, cfg, { nowMs: runAt, dryRun: false });
    assert.deepEqual(
      done.map((l) => [l.table, l.rows]),
      dry.map((l) => [l.table, l.rows]),
    );
    assert.deepEqual(
      await storedSeqs(db, d),
      [1, 2, 3, 4, 5].filter((s) => !gone.includes(s)),
    );
    const left = await db.kysely
      .selectFrom('domain_events')
      .select('subject_id')
      .where('subject_type', '=', 'retention_test')
      .orderBy('subject_id')
      .execute();
    assert.deepEqual(
      left.map((r) => r.subject_id),
      ['old-waiting', 'recent'],
    );
    if (dialect === 'postgres') {
      const parts = await telemetryPartitions(db.kysely);
      assert.ok(parts[0].from >= cutoff - DAY_MS - WEEK_MS, 'the oldest week left holds the cutoff less a day');
      assert.ok(!parts.some((p) => p.name === 'telemetry_records_before'));
    }
    // A second run finds nothing more.
    const again = await applyRetention(db, cfg, { nowMs: runAt, dryRun: false });
    assert.equal(
      again.reduce((a, l) => a + l.rows, 0),
      0,
    );
  });

  test('teardown', async () => {
    await db.close();
    await drop();
  });
});
