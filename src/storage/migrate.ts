import { Migrator, sql, type Migration as KyselyMigration, type MigrationProvider, type MigrationResult } from 'kysely';
import type { Db } from './db.js';
import type { Migration } from './migrations/helpers.js';
import { core } from './migrations/0001_core.js';
import { events } from './migrations/0002_events.js';
import { dispatch } from './migrations/0003_dispatch.js';
import { oauth } from './migrations/0006_oauth.js';
import { records } from './migrations/0004_records.js';
import { assetsDevices } from './migrations/0005_assets_devices.js';
import { telemetry } from './migrations/0007_telemetry.js';
import { webhooks } from './migrations/0008_webhooks.js';
import { hos } from './migrations/0009_hos.js';
import { ifta } from './migrations/0010_ifta.js';
import { telemetryPoints } from './migrations/0011_telemetry_points.js';
import { changeNotify } from './migrations/0012_change_notify.js';
import { assetGeofences } from './migrations/0013_asset_geofences.js';
import { ingestNotify } from './migrations/0014_ingest_notify.js';
import { historyOrder } from './migrations/0015_history_order.js';
import { historyCovering } from './migrations/0016_history_covering.js';
import { ptoIdle } from './migrations/0017_pto_idle.js';
import { geofenceHoles } from './migrations/0018_geofence_holes.js';
import { vehicleAvailability } from './migrations/0019_vehicle_availability.js';
import { formIds } from './migrations/0020_form_ids.js';
import { loadDetails } from './migrations/0021_load_details.js';
import { documentFields } from './migrations/0022_document_fields.js';
import { externalIdsNotify } from './migrations/0023_external_ids_notify.js';
import { deviceActivity } from './migrations/0024_device_activity.js';
import { telemetryPartitions } from './migrations/0025_telemetry_partitions.js';
import { alerts } from './migrations/0027_alerts.js';
import { passwordLinks } from './migrations/0028_password_links.js';
import { retentionHorizons } from './migrations/0029_retention_horizons.js';
import { stateWriter } from './migrations/0030_state_writer.js';
import { beforeKeys } from './migrations/0031_before_keys.js';

/**
 * The one migration set, in order. Names are permanent: add new ones at the end, never rename.
 * Every area appends its own migration module here.
 */
export const MIGRATIONS: Array<[string, Migration]> = [
  ['0001_core', core],
  ['0002_events', events],
  ['0003_dispatch', dispatch],
  ['0004_records', records],
  ['0005_assets_devices', assetsDevices],
  ['0006_oauth', oauth],
  ['0007_telemetry', telemetry],
  ['0008_webhooks', webhooks],
  ['0009_hos', hos],
  ['0010_ifta', ifta],
  ['0011_telemetry_points', telemetryPoints],
  ['0012_change_notify', changeNotify],
  ['0013_asset_geofences', assetGeofences],
  ['0014_ingest_notify', ingestNotify],
  ['0015_history_order', historyOrder],
  ['0016_history_covering', historyCovering],
  ['0017_pto_idle', ptoIdle],
  ['0018_geofence_holes', geofenceHoles],
  ['0019_vehicle_availability', vehicleAvailability],
  ['0020_form_ids', formIds],
  ['0021_load_details', loadDetails],
  ['0022_document_fields', documentFields],
  ['0023_external_ids_notify', externalIdsNotify],
  ['0024_device_activity', deviceActivity],
  ['0025_telemetry_partitions', telemetryPartitions],
  ['0027_alerts', alerts],
  ['0028_password_links', passwordLinks],
  ['0029_retention_horizons', retentionHorizons],
  ['0030_state_writer', stateWriter],
  ['0031_before_keys', beforeKeys],
];

class InCodeProvider implements MigrationProvider {
  constructor(private readonly db: Db) {}
  async getMigrations(): Promise<Record<string, KyselyMigration>> {
    const out: Record<string, KyselyMigration> = {};
    for (const [name, m] of MIGRATIONS) out[name] = { up: (k) => m.up(k, this.db.kind) };
    return out;
  }
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
}

/**
 * Applies every pending migration. PostgreSQL serializes concurrent callers with Kysely's
 * advisory lock. SQLite has no such lock, so the whole run happens inside one `BEGIN IMMEDIATE`
 * transaction: a second process waits (busy_timeout, then retries) and then finds nothing to do, and a
 * failure leaves no migration half-applied.
 */
/** Errors of reaching a PostgreSQL server (not of what it answers once reached). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  '28P01',
  '28000',
  '3D000',
]);

/**
 * The first query of a start: a database that cannot be reached is named by DATABASE_URL's host, port
 * and database (never its password), with the driver's reason.
 */
async function currentSchema(db: Db): Promise<string> {
  try {
    return (await sql<{ s: string }>`select current_schema() as s`.execute(db.kysely)).rows[0]?.s;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (!code || !UNREACHABLE.has(code)) throw err;
    const u = new URL(db.url);
    const where = `${u.hostname || 'localhost'} port ${u.port || 5432}, database ${u.pathname.slice(1) || u.username || '(default)'}`;
    throw new Error(`cannot use the database of DATABASE_URL (PostgreSQL at ${where}): ${(err as Error).message}`, {
      cause: err,
    });
  }
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  // Kysely's bookkeeping tables live in the connection's own schema, so that several schemas of one
  // PostgreSQL database (e.g. one per tenant cluster or per test) never see each other's.
  const schema = db.kind === 'postgres' ? await currentSchema(db) : undefined;
  const migrator = new Migrator({ db: db.kysely, provider: new InCodeProvider(db), migrationTableSchema: schema });
  if (db.kind === 'postgres') {
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error;
    return applied(results);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await sql`begin immediate`.execute(db.kysely);
    } catch (err) {
      if (isBusy(err) && attempt < 50) {
        await new Promise((r) => setTimeout(r, 50 + attempt * 20));
        continue;
      }
      throw err;
    }
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      await sql`rollback`.execute(db.kysely).catch(() => {});
      throw error;
    }
    await sql`commit`.execute(db.kysely);
    return applied(results);
  }
}

function applied(results: MigrationResult[] | undefined): string[] {
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
