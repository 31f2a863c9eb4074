/**
 * Geofences (docs/reference/wire.md §4.23): named places that are either a polygon (`location_points`) or a
 * circle (`center` + `radius_m`). Geometry rules live in ./geometry.ts; telemetry reads the same
 * shapes (`shapeOf`) to detect entries and exits.
 */
import type { Kysely, Updateable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { fromJson, json, nowIso } from '../../storage/values.js';
import { AppError, badRequest, notFound, validation } from '../../core/errors.js';
import { recordEvent } from '../../events/outbox.js';
import type { Tenant } from '../tenant.js';
import { boundsOf, checkHoles, checkPolygon, circleProblem, type GeofenceShape, type LatLon } from './geometry.js';
import type { GeofencesTable } from './tables.js';
import * as repo from './repository.js';
import type { GeofenceInput } from './input.js';

export type { GeofenceRow, GeofenceFilters } from './repository.js';

export const GEOFENCE_STATUSES = ['active', 'inactive'] as const;

export type { GeofenceInput };

export function shapeOf(row: repo.GeofenceRow): GeofenceShape {
  if (row.shape === 'circle') {
    return { shape: 'circle', center: { lat: row.center_lat!, lon: row.center_lon! }, radius_m: row.radius_m! };
  }
  const holes = fromJson<LatLon[][]>(row.holes, []);
  return { shape: 'polygon', points: fromJson<LatLon[]>(row.location_points, []), ...(holes.length ? { holes } : {}) };
}

const invalid = (problem: string) => new AppError('validation_failed', problem);

/** The shape the input asks for, merged with the current one on update; null when it leaves the geometry alone. */
function shapeFrom(input: GeofenceInput, current: GeofenceShape | null, circularOnly: boolean): GeofenceShape | null {
  const polygon = input.location_points !== undefined;
  const circle = input.center !== undefined || input.radius_m !== undefined;
  if (circularOnly && polygon)
    throw validation('location_points', 'is not accepted here: a circular geofence takes center and radius_m');
  if (polygon && circle)
    throw badRequest('send location_points for a polygon, or center and radius_m for a circle, not both');
  if (input.holes !== undefined && circle)
    throw badRequest('holes belong to a polygon (location_points), not to a circle');
  if (input.holes !== undefined && !polygon && current?.shape !== 'polygon')
    throw validation('holes', 'need location_points: only a polygon has holes');
  if (polygon || input.holes !== undefined) {
    let points: LatLon[];
    if (polygon) {
      const checked = checkPolygon('location_points', input.location_points!);
      if ('problem' in checked) throw invalid(checked.problem);
      points = checked.vertices;
    } else {
      points = (current as Extract<GeofenceShape, { shape: 'polygon' }>).points;
    }
    // New points keep no old holes unless sent again: the old ones may not fit the new ring.
    const holes = input.holes ?? [];
    if (holes.length === 0) return { shape: 'polygon', points };
    const checked = checkHoles(points, holes);
    if ('problem' in checked) throw invalid(checked.problem);
    return { shape: 'polygon', points, holes: checked.holes };
  }
  if (!circle) {
    if (current) return null;
    if (circularOnly) throw validation('center', 'is required');
    throw validation('location_points', 'is required (or center and radius_m for a circular geofence)');
  }
  const was = current?.shape === 'circle' ? current : null;
  const center = input.center ?? was?.center;
  const radius = input.radius_m ?? was?.radius_m;
  if (!center) throw validation('center', 'is required');
  if (radius === undefined) throw validation('radius_m', 'is required');
  const problem = circleProblem(center, radius);
  if (problem) throw invalid(problem);
  return { shape: 'circle', center: { lat: center.lat, lon: center.lon }, radius_m: radius };
}

function geometryColumns(g: GeofenceShape) {
  return {
    shape: g.shape,
    location_points: json(g.shape === 'polygon' ? g.points : []),
    holes: json(g.shape === 'polygon' ? (g.holes ?? []) : []),
    center_lat: g.shape === 'circle' ? g.center.lat : null,
    center_lon: g.shape === 'circle' ? g.center.lon : null,
    radius_m: g.shape === 'circle' ? g.radius_m : null,
    ...boundsOf(g),
  };
}

const text = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim();

function columns(input: GeofenceInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (input.name !== undefined) {
    if (input.name.trim() === '') throw validation('name', 'must not be empty');
    out.name = input.name.trim();
  }
  for (const f of ['category', 'description', 'address'] as const) if (input[f] !== undefined) out[f] = text(input[f]);
  if (input.status !== undefined) out.status = input.status;
  return out;
}

async function announce(trx: Kysely<Database>, t: Tenant, id: number, trigger: 'created' | 'updated') {
  const data = await repo.findGeofence(trx, t.companyId, id);
  await recordEvent(trx, {
    companyId: t.companyId,
    action: 'geofence_upserted',
    trigger,
    subject: { type: 'geofence', id },
    data,
  });
}

export async function getGeofence(db: Db, t: Tenant, id: number): Promise<repo.GeofenceRow> {
  const row = await repo.findGeofence(db.kysely, t.companyId, id);
  if (!row) throw notFound(`geofence ${id}`);
  return row;
}

export function listGeofences(db: Db, t: Tenant, f: repo.GeofenceFilters, limit: number, offset: number) {
  return repo.listGeofences(db.kysely, t.companyId, f, limit, offset);
}

export async function createGeofence(db: Db, t: Tenant, input: GeofenceInput, opts: { circularOnly?: boolean } = {}) {
  if (input.name === undefined) throw validation('name', 'is required');
  const values = columns(input);
  const shape = shapeFrom(input, null, opts.circularOnly ?? false)!;
  const now = nowIso();
  const id = await db.kysely.transaction().execute(async (trx) => {
    const row = { ...values, ...geometryColumns(shape), company_id: t.companyId, created_at: now, updated_at: now };
    const id = await repo.insertGeofence(trx, row as never);
    await announce(trx, t, id, 'created');
    return id;
  });
  return getGeofence(db, t, id);
}

export async function updateGeofence(db: Db, t: Tenant, id: number, input: GeofenceInput) {
  const current = await getGeofence(db, t, id);
  const values = columns(input);
  const shape = shapeFrom(input, shapeOf(current), false);
  const set = {
    ...values,
    ...(shape ? geometryColumns(shape) : {}),
    updated_at: nowIso(),
  } as Updateable<GeofencesTable>;
  await db.kysely.transaction().execute(async (trx) => {
    await repo.updateGeofence(trx, t.companyId, id, set);
    await announce(trx, t, id, 'updated');
  });
  return getGeofence(db, t, id);
}

/** Hides the geofence; its row stays for the geofence events that name it. */
export async function deleteGeofence(db: Db, t: Tenant, id: number): Promise<void> {
  const row = await getGeofence(db, t, id);
  const now = nowIso();
  await db.kysely.transaction().execute(async (trx) => {
    await repo.updateGeofence(trx, t.companyId, id, { deleted_at: now, updated_at: now });
    await recordEvent(trx, {
      companyId: t.companyId,
      action: 'geofence_deleted',
      subject: { type: 'geofence', id },
      data: row,
    });
  });
}
