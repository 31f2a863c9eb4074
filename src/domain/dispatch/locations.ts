/**
 * Dispatch locations (docs/reference/wire.md §4.20): where stops are. Geocoded locations carry lat/lon (and
 * optionally arrive/depart radii, used for automatic arrival and departure); non-geocoded ones carry
 * only an address. A client names a location by its `vendor_id` (or by `id`).
 * Deleting keeps the row (stops of past dispatches still point at it) but hides it everywhere.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import type { DispatchLocationsTable } from './tables.js';
import { countOf, isUniqueViolation } from '../../storage/query.js';
import { nowIso } from '../../storage/values.js';
import { AppError, duplicate, notFound, validation } from '../../core/errors.js';
import { recordEvent } from '../../events/outbox.js';
import type { Tenant } from '../tenant.js';
import type { LocationInput } from './location-input.js';

export type LocationRow = Selectable<DispatchLocationsTable>;

export const LOCATION_TEXT_FIELDS = [
  'name',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'country',
  'phone',
] as const;
export const LOCATION_NUMBER_FIELDS = ['lat', 'lon', 'arrive_radius', 'depart_radius'] as const;
/** Required on create (docs tms-step-4). */
const REQUIRED = ['name', 'address1', 'city', 'state', 'country'] as const;

/** How a request names a location: by id, or by vendor_id. */
export type LocationRef = { id: number } | { vendor_id: string };

function live(db: Kysely<Database>, companyId: number) {
  return db.selectFrom('dispatch_locations').where('company_id', '=', companyId).where('deleted_at', 'is', null);
}

/** The client's ids (vendor_id) of dispatch locations, by id, one query. */
export async function locationVendorIds(db: Kysely<Database>, ids: number[]): Promise<Map<number, string | null>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('dispatch_locations')
    .select(['id', 'vendor_id'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((l) => [l.id, l.vendor_id]));
}

/** "name, city state" of each of the company's dispatch locations among `ids` (the dispatch board's stops). */
export async function locationPlaces(
  db: Kysely<Database>,
  companyId: number,
  ids: number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('dispatch_locations')
    .select(['id', 'name', 'city', 'state'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((p) => [p.id, `${p.name}, ${p.city} ${p.state}`]));
}

export async function listLocations(db: Db, t: Tenant, limit: number, offset: number) {
  const base = live(db.kysely, t.companyId);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

function describe(ref: LocationRef): string {
  return 'id' in ref ? `dispatch location ${ref.id}` : `dispatch location with vendor_id "${ref.vendor_id}"`;
}

export async function findLocation(
  db: Kysely<Database>,
  companyId: number,
  ref: LocationRef,
): Promise<LocationRow | undefined> {
  const q = live(db, companyId).selectAll();
  return ('id' in ref ? q.where('id', '=', ref.id) : q.where('vendor_id', '=', ref.vendor_id)).executeTakeFirst();
}

export async function getLocation(db: Db, t: Tenant, ref: LocationRef): Promise<LocationRow> {
  const row = await findLocation(db.kysely, t.companyId, ref);
  if (!row) throw notFound(describe(ref));
  return row;
}

/** Text fields are trimmed; an empty optional text becomes null, an empty required one is refused. */
function columns(input: LocationInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of LOCATION_TEXT_FIELDS) {
    const v = input[f];
    if (v === undefined) continue;
    const s = v === null ? null : v.trim();
    if ((REQUIRED as readonly string[]).includes(f) && !s) throw validation(f, 'must not be empty');
    out[f] = s === '' ? null : s;
  }
  for (const f of LOCATION_NUMBER_FIELDS) if (input[f] !== undefined) out[f] = input[f];
  if (input.vendor_id !== undefined) {
    const v = input.vendor_id === null ? null : input.vendor_id.trim();
    out.vendor_id = v === '' ? null : v;
  }
  return out;
}

/** The rules that concern the location as a whole, checked on the row as it would be saved. */
function checkGeocoding(row: Record<string, unknown>): void {
  const has = (f: string) => row[f] !== null && row[f] !== undefined;
  if (has('lat') && !has('lon'))
    throw validation('lon', 'is required when lat is given (a geocoded location has both)');
  if (has('lon') && !has('lat'))
    throw validation('lat', 'is required when lon is given (a geocoded location has both)');
  for (const r of ['arrive_radius', 'depart_radius']) {
    if (has(r) && !has('lat')) throw validation(r, 'needs lat and lon: only a geocoded location has a radius');
  }
}

async function announce(trx: Kysely<Database>, t: Tenant, id: number, trigger: 'created' | 'updated') {
  const data = await trx.selectFrom('dispatch_locations').selectAll().where('id', '=', id).executeTakeFirst();
  await recordEvent(trx, {
    companyId: t.companyId,
    action: 'dispatch_location_upserted',
    trigger,
    subject: { type: 'dispatch_location', id },
    data,
  });
}

function translateUnique(err: unknown, vendorId: unknown): never {
  if (isUniqueViolation(err)) throw duplicate('vendor_id', String(vendorId));
  throw err;
}

export async function createLocation(db: Db, t: Tenant, input: LocationInput): Promise<LocationRow> {
  for (const f of REQUIRED) if (input[f] === undefined || input[f] === null) throw validation(f, 'is required');
  const values = columns(input);
  checkGeocoding(values);
  if (values.vendor_id && (await findLocation(db.kysely, t.companyId, { vendor_id: values.vendor_id as string }))) {
    throw duplicate('vendor_id', values.vendor_id as string);
  }
  const now = nowIso();
  try {
    const id = await db.kysely.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('dispatch_locations')
        .values({
          ...(values as Omit<DispatchLocationsTable, 'id'>),
          company_id: t.companyId,
          deleted_at: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await announce(trx, t, id, 'created');
      return id;
    });
    return getLocation(db, t, { id });
  } catch (err) {
    translateUnique(err, values.vendor_id);
  }
}

export async function updateLocation(db: Db, t: Tenant, ref: LocationRef, input: LocationInput): Promise<LocationRow> {
  const current = await getLocation(db, t, ref);
  const values = columns(input);
  checkGeocoding({ ...current, ...values });
  if (values.vendor_id && values.vendor_id !== current.vendor_id) {
    if (await findLocation(db.kysely, t.companyId, { vendor_id: values.vendor_id as string }))
      throw duplicate('vendor_id', values.vendor_id as string);
  }
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('dispatch_locations')
        .set({ ...values, updated_at: nowIso() })
        .where('id', '=', current.id)
        .execute();
      await announce(trx, t, current.id, 'updated');
    });
  } catch (err) {
    translateUnique(err, values.vendor_id);
  }
  return getLocation(db, t, { id: current.id });
}

/** Refused while a planned or active dispatch stops there; otherwise hidden from then on. */
export async function deleteLocation(db: Db, t: Tenant, ref: LocationRef): Promise<void> {
  const current = await getLocation(db, t, ref);
  await db.kysely.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('dispatch_stops')
      .innerJoin('dispatches', 'dispatches.id', 'dispatch_stops.dispatch_id')
      .select(['dispatches.id', 'dispatches.vendor_id'])
      .where('dispatch_stops.dispatch_location_id', '=', current.id)
      .where('dispatches.status', 'in', ['planned', 'active'])
      .orderBy('dispatches.id')
      .executeTakeFirst();
    if (user) {
      const which = user.vendor_id === null ? `dispatch ${user.id}` : `dispatch "${user.vendor_id}"`;
      throw new AppError('invalid_state', `${describe(ref)} is used by a stop of ${which}, which is planned or active`);
    }
    const now = nowIso();
    await trx
      .updateTable('dispatch_locations')
      .set({ deleted_at: now, updated_at: now })
      .where('id', '=', current.id)
      .execute();
    await recordEvent(trx, {
      companyId: t.companyId,
      action: 'dispatch_location_deleted',
      subject: { type: 'dispatch_location', id: current.id },
      data: { ...current, deleted_at: now },
    });
  });
}
