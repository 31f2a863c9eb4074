/** The geofence object and its request body (docs/reference/wire.md §4.23; circle members are ours, docs/records.md). */
import { Type } from 'typebox';
import { wireTime } from '../storage/values.js';
import { shapeOf, GEOFENCE_STATUSES, type GeofenceRow } from '../domain/geofences/service.js';
import { MAX_RADIUS_M } from '../domain/geofences/geometry.js';
import { DateTime, NNum, NStr, Nullable } from './types.js';

const opt = Type.Optional;

const Point = Type.Object({ lat: Type.Number(), lon: Type.Number() });
const PointIn = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lon: Type.Number({ minimum: -180, maximum: 180 }),
});

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

const Text = (maxLength = 255) => opt(Nullable(Type.String({ maxLength })));

export const GeofenceBody = Type.Object({
  name: opt(Type.String({ maxLength: 255 })),
  category: Text(),
  status: opt(Type.String({ enum: [...GEOFENCE_STATUSES] })),
  description: Text(2000),
  address: Text(),
  location_points: opt(
    Type.Array(PointIn, {
      maxItems: 1000,
      description: 'Polygon: at least 3 distinct points, not crossing itself; the last may repeat the first',
    }),
  ),
  holes: opt(
    Type.Array(Type.Array(PointIn, { maxItems: 1000 }), {
      maxItems: 100,
      description:
        'Polygon: holes, each a ring by the rules of location_points, inside it and not crossing it or another hole; [] for none',
    }),
  ),
  center: opt(
    Type.Object({ lat: PointIn.properties.lat, lon: PointIn.properties.lon }, { description: 'Circle: its center' }),
  ),
  radius_m: opt(Type.Number({ maximum: MAX_RADIUS_M, description: 'Circle: its radius in meters, greater than 0' })),
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
