/**
 * What `driver_performance_event_created` / `_updated` carry beyond the REST object (docs/reference/wire.md §7.6;
 * the members and their order are those of a real receiver's fixture of the body): camera and coaching
 * members, the behaviors, the speeds, the intensity, the vehicle and driver, the review metadata.
 * This server has no cameras and no coaching workflow, so those are null or empty; the rest comes from
 * the stored event. Choices: docs/webhooks.md, "Driver performance event bodies".
 */
import type { Selectable } from 'kysely';
import { fromJson } from '../storage/values.js';
import type { DriverPerformanceEventsTable } from '../telemetry/store/tables.js';
import { KPHPS_PER_G, round } from '../telemetry/units.js';
import { rounded } from './telemetry-common.js';
import { type Embeds } from './embeds.js';
import { speedingEvent } from './speeding-event.js';

/** The real API's name of each accelerometer event's intensity ("Braking Intensity" is the fixture's). */
const INTENSITY_NAMES: Record<string, string> = {
  hard_brake: 'Braking Intensity',
  hard_accel: 'Acceleration Intensity',
  hard_corner: 'Cornering Intensity',
};

/** The lowest speed the event holds (start, end, sampled; a speeding event's lowest), kph. */
function minSpeedKph(p: Selectable<DriverPerformanceEventsTable>): number | null {
  const s = fromJson<{ speed_kph?: number[]; stats?: { min_kph?: number | null } }>(p.samples, {});
  const known = [p.start_speed_kph, p.end_speed_kph, ...(s.speed_kph ?? []), s.stats?.min_kph ?? null].filter(
    (x): x is number => typeof x === 'number',
  );
  return known.length ? Math.min(...known) : null;
}

export function performanceWebhookMembers(p: Selectable<DriverPerformanceEventsTable>, e: Embeds) {
  const vehicle = e.vehicleAlways(p.vehicle_id);
  const driver = e.user(p.driver_id);
  const name = INTENSITY_NAMES[p.type];
  return {
    camera_media: null,
    coached_at: null,
    coachable_behaviors: [p.type],
    coached_behaviors: null,
    primary_behavior: [p.type],
    secondary_behaviors: [] as string[],
    max_speed: rounded(p.max_speed_kph),
    min_speed: rounded(minSpeedKph(p)),
    event_intensity:
      name && p.peak_g !== null
        ? { name, value: round(Math.abs(p.peak_g) * KPHPS_PER_G, 1), unit_type: 'acceleration' }
        : null,
    current_vehicle: { id: vehicle.id, number: vehicle.number },
    current_driver: driver
      ? {
          id: driver.id,
          first_name: driver.first_name,
          last_name: driver.last_name,
          email: driver.email,
          driver_company_id: driver.driver_company_id,
        }
      : null,
    metadata: {
      additional_context: null,
      annotation_tags: [] as string[],
      severity: p.type === 'speeding' ? speedingEvent(p, e).metadata.severity : null,
      trigger: p.type === 'speeding' ? 'speeding' : null,
    },
    edited_by_fm: false,
  };
}
