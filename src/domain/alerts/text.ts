/**
 * What an alert says, in the feed and in its email: a title and a line of detail, in the company's
 * units (mph, or km/h for a company with metric_units) and with every time in the company's zone,
 * the zone named ("2026-11-21 14:05 CST").
 */
import { zonedParts } from '../../core/time-zone.js';
import { kphToMph } from '../../telemetry/units.js';
import type { AlertFacts, AlertKind } from './kinds.js';

export interface AlertView {
  kind: AlertKind;
  occurredAt: string;
  facts: AlertFacts;
}

export interface TextOptions {
  metric: boolean;
  /** IANA zone of the company. */
  zone: string;
}

/** "2026-11-21 14:05 CST": an instant in the zone, the zone named. */
export function zonedStamp(iso: string, zone: string): string {
  const p = zonedParts(Date.parse(iso), zone);
  return `${p.date} ${p.time} ${p.abbr}`;
}

function speed(kph: number | null | undefined, metric: boolean): string | null {
  if (kph === null || kph === undefined) return null;
  return metric ? `${Math.round(kph)} km/h` : `${Math.round(kphToMph(kph))} mph`;
}

function duration(s: number | null | undefined): string | null {
  if (s === null || s === undefined) return null;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.round(s / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

const join = (...parts: Array<string | null | undefined | false>) => parts.filter(Boolean).join(' · ');
const driverOf = (f: AlertFacts) => (f.driver ? `Driver ${f.driver}` : null);

/** The alert's title ("T-101 entered Yard North") and its detail line. */
export function alertText(a: AlertView, o: TextOptions): { title: string; detail: string } {
  const f = a.facts;
  const vehicle = f.vehicle ?? 'A vehicle';
  const geofence = f.geofence ?? 'a geofence';
  switch (a.kind) {
    case 'hos_violation':
      return {
        title: `${f.driver ?? 'A driver'}: ${f.rule ?? 'hours-of-service violation'}`,
        detail: f.withdrawn ? 'Withdrawn: the log no longer shows this violation' : 'HOS violation',
      };
    case 'speeding': {
      const top = speed(f.speed_kph, o.metric);
      const limit = speed(f.limit_kph, o.metric);
      return {
        title: `${vehicle} speeding${top ? ` at ${top}` : ''}`,
        detail: join(limit && `limit ${limit}`, f.severity && `${f.severity} severity`, f.place, driverOf(f)),
      };
    }
    case 'geofence_entry':
      return { title: `${vehicle} entered ${geofence}`, detail: join(driverOf(f)) };
    case 'geofence_exit': {
      const inside = duration(f.duration_s);
      return { title: `${vehicle} left ${geofence}`, detail: join(inside && `after ${inside} inside`, driverOf(f)) };
    }
    case 'fault_code':
      return {
        title: `${vehicle}: fault code ${f.code ?? ''}`.trim(),
        detail: join(f.description, f.severity && `severity ${f.severity}`),
      };
    case 'gateway_disconnect':
      return { title: `${vehicle}: gateway disconnected`, detail: join(f.place, driverOf(f)) };
  }
}

/** The email of an alert: subject and plain-text body. */
export function alertEmail(
  a: AlertView,
  o: TextOptions & { companyName: string; /** The server's public origin. */ publicUrl: string },
): { subject: string; body: string } {
  const { title, detail } = alertText(a, o);
  const lines = [
    title,
    ...(detail ? [detail] : []),
    `When: ${zonedStamp(a.occurredAt, o.zone)}`,
    '',
    `All alerts: ${o.publicUrl}/console/alerts`,
    `Which alerts you get, and how: ${o.publicUrl}/console/alerts/preferences`,
  ];
  return { subject: `[${o.companyName}] ${title}`, body: `${lines.join('\n')}\n` };
}
