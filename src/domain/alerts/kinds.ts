/**
 * The kinds of alert and how each is made from a domain event, the same event a webhook announces
 * (docs/webhooks.md, Event catalogue): pure functions of the event's snapshot.
 *
 *   hos_violation        hos_violation_upserted, trigger `created`; a withdrawal (a log edited so that
 *                        the violation no longer stands) marks its alert withdrawn, and a change is no alert
 *   speeding             speeding_event_created (once the event has lasted SPEEDING_MIN_S)
 *   geofence_entry/exit  vehicle_geofence_event, trigger `entered` / `exited`
 *   fault_code           fault_code_opened (a code that was not already open)
 *   gateway_disconnect   vehicle_gateway_disconnected
 */
export { ALERT_ACTIONS } from '../../storage/migrations/0027_alerts.js';

export const ALERT_KINDS = [
  'hos_violation',
  'speeding',
  'geofence_entry',
  'geofence_exit',
  'fault_code',
  'gateway_disconnect',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** What the preferences form and the feed's filter call each kind. */
export const KIND_LABELS: Record<AlertKind, string> = {
  hos_violation: 'Hours-of-service violations',
  speeding: 'Speeding',
  geofence_entry: 'Geofence entries',
  geofence_exit: 'Geofence exits',
  fault_code: 'New fault codes',
  gateway_disconnect: 'Gateway disconnects',
};

export const isAlertKind = (k: string): k is AlertKind => (ALERT_KINDS as readonly string[]).includes(k);

/** The few facts an alert shows, copied from the event's snapshot (the snapshot itself is the webhook's). */
export interface AlertFacts {
  vehicle?: string | null;
  driver?: string | null;
  /** A place as the API describes it ("7.6 mi E of Springfield, IL"). */
  place?: string | null;
  /** speeding: the highest speed and the posted limit, km/h */
  speed_kph?: number | null;
  limit_kph?: number | null;
  severity?: string | null;
  /** hos_violation: the rule's name ("11 Hour Driving Limit") */
  rule?: string | null;
  /** geofence_*: its id (the name is looked up when the alert is made) and, on exit, seconds inside */
  geofence_id?: number | null;
  geofence?: string | null;
  duration_s?: number | null;
  /** fault_code */
  code?: string | null;
  description?: string | null;
  /** hos_violation: the violation was withdrawn after the alert. */
  withdrawn?: boolean;
}

export interface AlertDraft {
  kind: AlertKind;
  subject: string;
  vehicleId: number | null;
  driverId: number | null;
  occurredAt: string;
  facts: AlertFacts;
}

export interface EventLike {
  action: string;
  trigger: string | null;
  subject_type: string;
  subject_id: string;
  /** The parsed snapshot. */
  data: any;
  occurred_at: string;
}

const name = (u: any): string | null => (u ? `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim() || null : null);
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const id = (x: unknown): number | null => (typeof x === 'number' && Number.isInteger(x) ? x : null);
const str = (x: unknown): string | null => (typeof x === 'string' && x !== '' ? x : null);

/** The alert an event makes, the alert it withdraws, or null (another action, a violation's update …). */
export function alertOfEvent(e: EventLike): AlertDraft | { withdraw: string } | null {
  const d = e.data ?? {};
  const at = (x: unknown) => str(x) ?? e.occurred_at;
  const subject = `${e.subject_type}:${e.subject_id}`;
  switch (e.action) {
    case 'hos_violation_upserted':
      if (d.withdrawn) return { withdraw: subject };
      if (e.trigger !== 'created') return null;
      return {
        subject,
        kind: 'hos_violation',
        vehicleId: null,
        driverId: id(d.driver?.id),
        occurredAt: at(d.start_time),
        facts: { driver: name(d.driver), rule: str(d.name) ?? str(d.type) },
      };
    case 'speeding_event_created':
      return {
        kind: 'speeding',
        subject,
        vehicleId: id(d.vehicle_id ?? d.vehicle?.id),
        driverId: id(d.driver_id ?? d.driver?.id),
        occurredAt: at(d.start_time),
        facts: {
          vehicle: str(d.vehicle?.number),
          driver: name(d.driver),
          place: str(d.location),
          speed_kph: num(d.max_vehicle_speed),
          limit_kph: num(d.max_posted_speed_limit_in_kph),
          severity: str(d.metadata?.severity),
        },
      };
    case 'vehicle_geofence_event': {
      if (e.trigger !== 'entered' && e.trigger !== 'exited') return null;
      const entered = e.trigger === 'entered';
      const driver = entered ? d.start_driver : (d.end_driver ?? d.start_driver);
      return {
        kind: entered ? 'geofence_entry' : 'geofence_exit',
        subject,
        vehicleId: id(d.vehicle?.id),
        driverId: id(driver?.id),
        occurredAt: at(entered ? d.start_time : d.end_time),
        facts: {
          vehicle: str(d.vehicle?.number),
          driver: name(driver),
          geofence_id: id(d.geofence_id),
          duration_s: entered ? null : num(d.duration),
        },
      };
    }
    case 'fault_code_opened':
      return {
        kind: 'fault_code',
        subject,
        vehicleId: id(d.vehicle?.id),
        driverId: null,
        occurredAt: at(d.first_observed_at),
        facts: {
          vehicle: str(d.vehicle?.number),
          code: str(d.code_label) ?? str(d.code),
          description: str(d.code_description),
          severity: str(d.dtc_severity),
        },
      };
    case 'vehicle_gateway_disconnected':
      return {
        kind: 'gateway_disconnect',
        subject,
        vehicleId: id(d.vehicle_id ?? d.vehicle?.id),
        driverId: id(d.driver_id ?? d.driver?.id),
        occurredAt: at(d.disconnected_at),
        facts: { vehicle: str(d.vehicle?.number), driver: name(d.driver), place: str(d.location) },
      };
    default:
      return null;
  }
}
