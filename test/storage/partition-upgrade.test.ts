/**
 * The upgrade path (docs/storage.md, Upgrading): a PostgreSQL database of the unpartitioned layout is
 * migrated while a device keeps sending batches from another connection pool (another node). Every
 * record answered `accepted` is stored exactly once, none is lost, ids keep growing from the old
 * table's sequence, and a re-send of everything is all duplicates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshDatabase, POSTGRES_URL } from '../helper.js';
import { openDb } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { stateWriter } from '../../src/storage/migrations/0030_state_writer.js';
import { isPartitioned, telemetryPartitions } from '../../src/storage/partitions/telemetry.js';
import { fixAt, migrateBefore, send, storedSeqs, vehicleWithDevice } from './partition-kit.js';

// PostgreSQL only: SQLite keeps one table, with nothing to move.
if (POSTGRES_URL)
  test('an unpartitioned database is partitioned while a device keeps reporting', async () => {
    const fresh = await freshDatabase('postgres');
    const old = openDb(fresh.url);
    const upgrading = openDb(fresh.url);
    try {
      await migrateBefore(old, '0025_telemetry_partitions');
      // The reporting node runs this version's ingestion, which also writes the state row's writer token.
      await stateWriter.up(old.kysely, 'postgres');
      assert.equal(await isPartitioned(old.kysely), false);
      const d = await vehicleWithDevice(old, 'Upgrade');
      const t0 = Date.now() - 3_600_000;
      let seq = 0;
      const accepted: number[] = [];
      const batch = async () => {
        const recs = Array.from({ length: 20 }, () => {
          seq++;
          return fixAt(seq, t0 + seq * 1000);
        });
        const statuses = await send(old, d, recs);
        statuses.forEach((s, i) => s === 'accepted' && accepted.push(recs[i].seq));
        assert.ok(statuses.every((s) => s === 'accepted'));
      };
      for (let i = 0; i < 10; i++) await batch();
      let migrating = true;
      const reporting = (async () => {
        while (migrating) await batch();
        for (let i = 0; i < 5; i++) await batch();
      })();
      await migrateToLatest(upgrading);
      migrating = false;
      await reporting;
      assert.equal(await isPartitioned(old.kysely), true);
      const stored = await storedSeqs(old, d);
      assert.deepEqual(stored, accepted, 'every accepted record once, nothing else');
      assert.deepEqual(
        stored,
        Array.from({ length: seq }, (_, i) => i + 1),
      );
      const parts = await telemetryPartitions(old.kysely);
      assert.equal(parts[0].name, 'telemetry_records_before');
      const ids = await old.kysely.selectFrom('telemetry_records').select('id').orderBy('seq').execute();
      assert.equal(new Set(ids.map((r) => Number(r.id))).size, ids.length, 'ids stay unique across the move');
      const again = await send(
        old,
        d,
        stored.slice(0, 500).map((s) => fixAt(s, t0 + s * 1000)),
      );
      assert.ok(again.every((s) => s === 'duplicate'));
    } finally {
      await old.close();
      await upgrading.close();
      await fresh.drop();
    }
  });
