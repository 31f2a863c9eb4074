/**
 * The geofence object (docs/reference/wire.md §4.23; circle members are ours, docs/records.md); its request
 * body is the area's (src/domain/geofences/input.ts).
 */
import { Type } from 'typebox';
import { wireTime } from '../storage/values.js';
import { shapeOf, GEOFENCE_STATUSES, type GeofenceRow } from '../domain/geofences/service.js';
import { DateTime, NNum, NStr } from './types.js';
import { Nullable } from '../core/schema.js';

const Point = Type.Object({ lat: Type.Number(), lon: Type.Number() });

export const Geofence = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  category: NStr(),
  status: Type.String({ enum: [...GEOFENCE_STATUSES] }),
  description: NStr(),
  address: NStr(),
  shape: Type.String({ enum: ['polygon', 'circle'] }),
  location_points: Type.Array(Point, {
    description: "A polygon's vertices (the ring closes back to the first); [] for a circle",
  }),
  holes: Type.Array(Type.Array(Point), {
    description: "Ours: a polygon's holes, rings like location_points (a point in one is outside); [] for none",
  }),
  center: Nullable(Point),
  radius_m: NNum(),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export function geofenceWire(row: GeofenceRow) {
  const g = shapeOf(row);
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    status: row.status,
    description: row.description,
    address: row.address,
    shape: g.shape,
    location_points: g.shape === 'polygon' ? g.points : [],
    holes: g.shape === 'polygon' ? (g.holes ?? []) : [],
    center: g.shape === 'circle' ? g.center : null,
    radius_m: g.shape === 'circle' ? g.radius_m : null,
    created_at: wireTime(row.created_at)!,
    updated_at: wireTime(row.updated_at)!,
  };
}
