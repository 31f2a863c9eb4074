/** Kysely table types of geofences (migration 0004_records). Values follow storage/values.ts. */
import type { Generated } from 'kysely';

export interface GeofencesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  category: string | null;
  status: Generated<string>;
  description: string | null;
  address: string | null;
  /** `polygon` or `circle`. */
  shape: string;
  /** JSON array of `{lat, lon}`: a polygon's vertices (the ring closes back to the first); `[]` for a circle. */
  location_points: string;
  /** JSON array of a polygon's holes, each a ring like location_points; `[]` for none (migration 0018). */
  holes: Generated<string>;
  center_lat: number | null;
  center_lon: number | null;
  radius_m: number | null;
  /** Bounding box (a circle's includes its radius), so that telemetry can skip far geofences cheaply. */
  min_lat: number;
  max_lat: number;
  min_lon: number;
  max_lon: number;
  /** Set when deleted: the row stays so that past geofence events keep their geofence. */
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface GeofenceTables {
  geofences: GeofencesTable;
}
