/** The members driver_performance_event_* bodies add to the REST object (src/wire/performance-webhook.ts), as a test expects them. */
import type { Rig } from '../../telemetry/fixtures.js';

export interface Expected {
  type: string;
  max: number | null;
  min: number | null;
  /** Speeding events: the severity of their largest excess. */
  severity?: string | null;
  intensity?: { name: string; value: number; unit_type: string } | null;
}

/** The lowest speed a REST item shows: start, end and sampled. */
export const lowestSpeed = (item: { start_speed: number; end_speed: number; m_gps_spd: number[] }) =>
  Math.min(item.start_speed, item.end_speed, ...item.m_gps_spd);

export function performanceMembers(v: Rig, x: Expected) {
  const speeding = x.type === 'speeding';
  return {
    driver_id: v.driver.id,
    vehicle_id: v.vehicle.id,
    eld_device_id: v.device.id,
    camera_media: null,
    coached_at: null,
    coachable_behaviors: [x.type],
    coached_behaviors: null,
    primary_behavior: [x.type],
    secondary_behaviors: [],
    max_speed: x.max,
    min_speed: x.min,
    event_intensity: x.intensity ?? null,
    current_vehicle: { id: v.vehicle.id, number: v.vehicle.number },
    current_driver: {
      id: v.driver.id,
      first_name: v.driver.first_name,
      last_name: v.driver.last_name,
      email: v.driver.email,
      driver_company_id: v.driver.driver_company_id,
    },
    metadata: {
      additional_context: null,
      annotation_tags: [],
      severity: speeding ? (x.severity ?? null) : null,
      trigger: speeding ? 'speeding' : null,
    },
    edited_by_fm: false,
  };
}
