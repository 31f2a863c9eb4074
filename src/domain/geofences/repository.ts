/** Tenant-scoped queries on geofences. Deleted geofences are kept (for their past events) but hidden. */
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { countOf } from '../../storage/query.js';
import type { GeofencesTable } from './tables.js';

export type GeofenceRow = Selectable<GeofencesTable>;

export interface GeofenceFilters {
  /** Exact category, compared without regard to letter case. */
  category?: string;
  status?: string;
}

function live(db: Kysely<Database>, companyId: number) {
  return db.selectFrom('geofences').where('company_id', '=', companyId).where('deleted_at', 'is', null);
}

export async function listGeofences(
  db: Kysely<Database>,
  companyId: number,
  f: GeofenceFilters,
  limit: number,
  offset: number,
) {
  let base = live(db, companyId);
  if (f.category !== undefined) base = base.where(sql`lower(category)`, '=', f.category.toLowerCase());
  if (f.status) base = base.where('status', '=', f.status);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

export function findGeofence(db: Kysely<Database>, companyId: number, id: number): Promise<GeofenceRow | undefined> {
  return live(db, companyId).selectAll().where('id', '=', id).executeTakeFirst();
}

/** Active geofences whose bounding box holds the point: the candidates telemetry tests exactly. */
export function geofencesNear(
  db: Kysely<Database>,
  companyId: number,
  lat: number,
  lon: number,
): Promise<GeofenceRow[]> {
  return live(db, companyId)
    .selectAll()
    .where('status', '=', 'active')
    .where('min_lat', '<=', lat)
    .where('max_lat', '>=', lat)
    .where('min_lon', '<=', lon)
    .where('max_lon', '>=', lon)
    .orderBy('id')
    .execute();
}

export async function insertGeofence(db: Kysely<Database>, values: Insertable<GeofencesTable>): Promise<number> {
  return (await db.insertInto('geofences').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateGeofence(
  db: Kysely<Database>,
  companyId: number,
  id: number,
  values: Updateable<GeofencesTable>,
) {
  await db.updateTable('geofences').set(values).where('company_id', '=', companyId).where('id', '=', id).execute();
}
