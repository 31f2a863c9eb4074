/**
 * What the partition and retention tests share: a database migrated up to before migration 0025 (the
 * unpartitioned layout), a vehicle with its device, and device batches stored through the ingestion path
 * as of a given time.
 */
import { Migrator, type Migration as KyselyMigration, type MigrationProvider } from 'kysely';
import type { Db } from '../../src/storage/db.js';
import { MIGRATIONS } from '../../src/storage/migrate.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { provisionDevice, type DevicePrincipal } from '../../src/domain/devices/service.js';
import { handleBatch } from '../../src/telemetry/store/batch.js';
import { loadConfig } from '../../src/config/index.js';
import { nowIso } from '../../src/storage/values.js';

export const TELEMETRY_CFG = loadConfig({ DATABASE_URL: 'sqlite::memory:' }).telemetry;

/** Applies the migrations before `name` only (as a database of an earlier version has them). */
export async function migrateBefore(db: Db, name: string): Promise<void> {
  const upTo = MIGRATIONS.findIndex(([n]) => n === name);
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, KyselyMigration> = {};
      for (const [n, m] of MIGRATIONS.slice(0, upTo)) out[n] = { up: (k) => m.up(k, db.kind) };
      return out;
    },
  };
  const { error } = await new Migrator({ db: db.kysely, provider }).migrateToLatest();
  if (error) throw error;
}

export async function vehicleWithDevice(db: Db, name: string): Promise<DevicePrincipal> {
  const company = await createCompany(db, { name });
  const now = nowIso();
  const { id: vehicleId } = await db.kysely
    .insertInto('vehicles')
    .values({ company_id: company.id, number: `${name}-1`, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const device = await provisionDevice(db, { companyId: company.id }, { identifier: `${name}-ELD`, vehicleId });
  return {
    deviceId: device.id,
    companyId: company.id,
    kind: 'eld',
    vehicleId,
    assetId: null,
    identifier: device.identifier,
  };
}

export const fixAt = (seq: number, ms: number) => ({
  seq,
  type: 'location',
  time: new Date(ms).toISOString(),
  lat: 41.2 + seq * 1e-4,
  lon: -96 + seq * 1e-4,
  speed_kph: 50,
});

/** Stores the records as the server would at `nowMs`; their statuses in order. */
export async function send(db: Db, d: DevicePrincipal, records: unknown[], nowMs = Date.now()): Promise<string[]> {
  const r = await handleBatch(db, d, 0, records, TELEMETRY_CFG, undefined, nowMs);
  return r.summary.results.map((x) => x.status);
}

/** The seqs stored for the device, ascending. */
export async function storedSeqs(db: Db, d: DevicePrincipal): Promise<number[]> {
  const rows = await db.kysely
    .selectFrom('telemetry_records')
    .select('seq')
    .where('device_id', '=', d.deviceId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => Number(r.seq));
}
