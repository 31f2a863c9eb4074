/**
 * A speeding event on the wire (`GET /v1/speeding_events` item, and the body of the
 * speeding_event_created / _updated webhooks): the keys of the real API's sample in its order, from a
 * stored driver performance event of type `speeding` (same id). Speeds in kph, distance in km. The
 * limit is the policy maximum the event was measured against (D-13), so the "posted" limits carry it
 * and `type` is `policy`; `location` is our addition (the place description of the start).
 * Choices: docs/telemetry.md, "Speeding events and the scorecard summary".
 */
import { Type } from 'typebox';
import type { Selectable } from 'kysely';
import { fromJson, wireTime } from '../storage/values.js';
import type { DriverPerformanceEventsTable } from '../telemetry/store/tables.js';
import type { SpeedingStats } from '../telemetry/processors/types.js';
import { kphToMph } from '../telemetry/units.js';
import { DateTime, NNum, NStr } from './types.js';
import { UserSummary, VehicleSummary } from './summaries.js';
import { EldDeviceSummary, rounded } from './telemetry-common.js';
import { type Embeds } from './embeds.js';
import { Nullable } from '../core/schema.js';

export const SpeedingEvent = Type.Object({
  speeding_distance_in_km: NNum(),
  max_over_speed_in_kph: NNum(),
  avg_over_speed_in_kph: NNum(),
  min_posted_speed_limit_in_kph: NNum(),
  max_posted_speed_limit_in_kph: NNum(),
  avg_vehicle_speed: NNum(),
  min_vehicle_speed: NNum(),
  max_vehicle_speed: NNum(),
  id: Type.Integer(),
  duration: Type.Integer({ description: 'Seconds' }),
  start_lat: NNum(),
  start_lon: NNum(),
  end_lat: NNum(),
  end_lon: NNum(),
  type: Type.String({
    description: '`policy`: over the policy maximum (SPEEDING_KPH); posted limits are not known offline',
  }),
  start_time: DateTime(),
  end_time: DateTime(),
  coaching_status: Type.String(),
  status: Type.String(),
  driver: Nullable(UserSummary),
  eld_device: Nullable(EldDeviceSummary),
  vehicle: VehicleSummary,
  metadata: Type.Object({ severity: NStr(), trigger: Type.String() }),
  location: NStr(),
});

/** Severity by the largest excess over the limit (docs/reference/domain-rules.md §6.3 tiers): under 5 mph low, 5–10 medium, above high. */
export function speedingSeverity(overKph: number | null): string | null {
  if (overKph === null) return null;
  const mph = kphToMph(overKph);
  return mph < 5 ? 'low' : mph <= 10 ? 'medium' : 'high';
}

type Samples = { lat: number[]; lon: number[]; stats?: SpeedingStats };

export function speedingEvent(p: Selectable<DriverPerformanceEventsTable>, e: Embeds) {
  const s = fromJson<Samples>(p.samples, { lat: [], lon: [] });
  const st = s.stats ?? null;
  const limit = st?.limit_kph ?? null;
  const over = (kph: number | null) => (kph === null || limit === null ? null : Math.max(0, kph - limit));
  const maxOver = over(p.max_speed_kph);
  return {
    speeding_distance_in_km: rounded(st?.distance_km, 2),
    max_over_speed_in_kph: rounded(maxOver),
    avg_over_speed_in_kph: rounded(over(st?.avg_kph ?? null)),
    min_posted_speed_limit_in_kph: rounded(limit),
    max_posted_speed_limit_in_kph: rounded(limit),
    avg_vehicle_speed: rounded(st?.avg_kph),
    min_vehicle_speed: rounded(st?.min_kph),
    max_vehicle_speed: rounded(p.max_speed_kph),
    id: p.id,
    duration: Math.round((Date.parse(p.end_time) - Date.parse(p.start_time)) / 1000),
    start_lat: p.lat,
    start_lon: p.lon,
    end_lat: s.lat.at(-1) ?? null,
    end_lon: s.lon.at(-1) ?? null,
    type: 'policy',
    start_time: wireTime(p.start_time)!,
    end_time: wireTime(p.end_time)!,
    coaching_status: p.coaching_status,
    status: 'valid',
    driver: e.user(p.driver_id),
    eld_device: e.device(p.device_id),
    vehicle: e.vehicleAlways(p.vehicle_id),
    metadata: { severity: speedingSeverity(maxOver), trigger: 'speeding' },
    location: p.location,
  };
}
