/**
 * What a client may send to create or change a geofence: the body of `POST` and `PUT /v1/geofences`, which
 * the console's geofence forms are checked against too (src/http/console/geofences.ts). A polygon
 * (location_points, holes) or a circle (center, radius_m); the shape rules are the service's.
 */
import { Type, type Static } from 'typebox';
import { GEOFENCE_STATUSES } from './service.js';
import { MAX_RADIUS_M } from './geometry.js';

const opt = Type.Optional;

const PointIn = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lon: Type.Number({ minimum: -180, maximum: 180 }),
});

const Text = (maxLength = 255) => opt(Type.Union([Type.String({ maxLength }), Type.Null()]));

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

export type GeofenceInput = Static<typeof GeofenceBody>;
