/**
 * Durability with a real server process (`fleet serve`): batches are posted while the process is
 * killed with SIGKILL; after a restart every batch is sent again. Every acknowledged record must
 * already be stored (the re-send finds only duplicates), a batch is stored whole or not at all, and no
 * record is stored twice.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { dialects, freshDatabase } from '../helper.js';
import { exited, startServer } from '../server-process.js';
import { openDb } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { provisionDevice } from '../../src/domain/devices/service.js';

const BATCHES = 40;
const PER_BATCH = 100;

for (const dialect of dialects()) {
  test(
    `SIGKILL during ingestion loses no acknowledged record and duplicates none [${dialect}]`,
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'fleet-kill-'));
      const database =
        dialect === 'sqlite'
          ? { url: `sqlite:${join(dir, 'kill.db')}`, drop: async () => {} }
          : await freshDatabase('postgres');
      const db = openDb(database.url, { poolSize: 2 });
      let child: ChildProcess | null = null;
      try {
        await migrateToLatest(db);
        const company = await createCompany(db, { name: 'Kill Co' });
        const now = new Date().toISOString();
        const { id: vehicleId } = await db.kysely
          .insertInto('vehicles')
          .values({ company_id: company.id, number: 'K1', created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const device = await provisionDevice(
          db,
          { companyId: company.id },
          { identifier: `SN-KILL-${dialect}`, vehicleId },
        );
        const t0 = Date.now() - 2 * 86_400_000;
        const batches = Array.from({ length: BATCHES }, (_, b) =>
          Array.from({ length: PER_BATCH }, (_, i) => {
            const n = b * PER_BATCH + i;
            return {
              seq: n + 1,
              type: 'location',
              time: new Date(t0 + n * 10_000).toISOString(),
              lat: 39.8 + n * 1e-5,
              lon: -89.6,
              speed_kph: 60,
            };
          }),
        );
        const env = { DATABASE_URL: database.url, TELEMETRY_REORDER_WINDOW_S: '0', TELEMETRY_SWEEP_MS: '200' };
        const postBatch = async (url: string, records: unknown[]) => {
          const res = await fetch(`${url}/device/v1/batches`, {
            method: 'POST',
            headers: { authorization: `Bearer ${device.device_token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ records }),
            signal: AbortSignal.timeout(30_000),
          });
          assert.equal(res.status, 200);
          return (await res.json()) as { results: Array<{ status: string }> };
        };

        // First life: two lanes post batches; the process is killed while requests are in flight.
        const first = await startServer(env);
        child = first.child;
        const acked = new Set<number>();
        let killed = false;
        const lane = async (parity: number) => {
          for (let b = parity; b < BATCHES && !killed; b += 2) {
            try {
              await postBatch(first.url, batches[b]);
              acked.add(b);
            } catch {
              return;
            }
          }
        };
        const lanes = Promise.all([lane(0), lane(1)]);
        const deadline = Date.now() + 20_000;
        while (acked.size < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        killed = true;
        child.kill('SIGKILL');
        await exited(child);
        await lanes;
        assert.ok(acked.size >= 8, `acknowledged before the kill: ${acked.size}`);
        assert.ok(acked.size < BATCHES, 'the kill came while batches were still being sent');

        // Second life: everything is sent again.
        const second = await startServer(env);
        child = second.child;
        for (let b = 0; b < BATCHES; b++) {
          const statuses = new Set((await postBatch(second.url, batches[b])).results.map((r) => r.status));
          if (acked.has(b))
            assert.deepEqual([...statuses], ['duplicate'], `acknowledged batch ${b} was stored before the kill`);
          else assert.equal(statuses.size, 1, `batch ${b} was stored whole or not at all: ${[...statuses]}`);
        }
        const rows = await db.kysely
          .selectFrom('telemetry_records')
          .select('seq')
          .where('device_id', '=', device.id)
          .execute();
        assert.equal(rows.length, BATCHES * PER_BATCH);
        assert.equal(new Set(rows.map((r) => Number(r.seq))).size, BATCHES * PER_BATCH);
        // Processing caught up after the restart (the sweep picks up what the killed process left).
        const until = Date.now() + 20_000;
        let horizon: string | null = null;
        while (Date.now() < until) {
          horizon =
            (
              await db.kysely
                .selectFrom('telemetry_state')
                .select('horizon')
                .where('vehicle_id', '=', vehicleId)
                .executeTakeFirst()
            )?.horizon ?? null;
          if (horizon === new Date(t0 + (BATCHES * PER_BATCH - 1) * 10_000).toISOString()) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.equal(horizon, new Date(t0 + (BATCHES * PER_BATCH - 1) * 10_000).toISOString());
        child.kill('SIGTERM');
        await exited(child);
      } finally {
        if (child && child.exitCode === null && child.signalCode === null) {
          child.kill('SIGKILL');
          await exited(child);
        }
        await db.close();
        await database.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}
