/**
 * The six reports as tables, each read through the owner the matching API endpoint reads:
 * - trips and stops: /v1/driving_periods (telemetry/queries/derived.ts); a stop is the time between
 *   two trips of one vehicle within the range, where the first trip ended;
 * - idle time: /v1/idle_events, per vehicle (the time within the range; fuel from the events' counters);
 * - speeding: /v1/speeding_events, each event as that endpoint maps it (wire/speeding-event.ts);
 * - distance per vehicle: /v2/vehicle_utilization's rollup over the range;
 * - utilization per day: the same buckets per local day (vehicleUtilizationByWindow);
 * - driver performance: /v1/scorecard_summary (telemetry/queries/scorecard.ts).
 * Values stay raw (epoch ms, seconds, kilometres converted once to the company's units) so that the
 * page, the chart and the CSV each write them their own way (./reports.ts).
 */
import type { Db } from '../../../storage/db.js';
import { userSummaryRows } from '../../../domain/users/summaries.js';
import { listDrivingPeriods, listIdleEvents, listPerformanceEvents } from '../../../telemetry/queries/derived.js';
import { loadEmbeds } from '../../../wire/embeds.js';
import { speedingEvent } from '../../../wire/speeding-event.js';
import type { ReportContext, ReportScope } from '../data/reports-data.js';
import {
  byNumber,
  every,
  ms,
  tooMany,
  unitsOf,
  type Built,
  type Ctx,
  type ReportTable,
  type Value,
} from './reports-kit.js';
import { distance, drivers, utilization } from './reports-usage.js';

export type { Column, ReportTable, Value } from './reports-kit.js';
import type { Viewer } from '../data/data.js';
async function trips(db: Db, v: Viewer, c: Ctx, s: ReportScope): Promise<Built> {
  const periods = await every(s.vehicleIds, (vehicleIds, limit, offset) =>
    listDrivingPeriods(db, v, { window: c.window, vehicleIds }, limit, offset),
  );
  if (!periods) return tooMany('trips');
  const names = await userSummaryRows(
    db,
    v.companyId,
    periods.map((p) => p.driver_id),
  );
  const driver = (id: number | null) => {
    const u = id === null ? undefined : names.get(id);
    return u ? `${u.first_name} ${u.last_name}` : '';
  };
  const sorted = [...periods].sort(
    (a, b) =>
      byNumber(c.numbers.get(a.vehicle_id) ?? '', c.numbers.get(b.vehicle_id) ?? '') ||
      a.vehicle_id - b.vehicle_id ||
      ms(a.start_time) - ms(b.start_time),
  );
  const rows: Value[][] = [];
  sorted.forEach((p, i) => {
    const vehicle = c.numbers.get(p.vehicle_id) ?? `Vehicle ${p.vehicle_id}`;
    // As the API: a period whose end has not come yet is under way (no end, no distance).
    const done = p.end_time !== null && ms(p.end_time) <= c.now;
    const end = done ? ms(p.end_time!) : null;
    const kind = p.type === 'driving' ? 'Trip' : `Trip (${p.type.replace(/_/g, ' ')})`;
    rows.push([
      vehicle,
      driver(p.driver_id),
      kind,
      ms(p.start_time),
      end,
      ((end ?? Math.max(c.now, ms(p.start_time))) - ms(p.start_time)) / 1000,
      p.origin ?? '',
      done ? (p.destination ?? '') : '',
      done && p.distance_km !== null ? c.units.dist(p.distance_km) : null,
    ]);
    const next = sorted[i + 1];
    if (end !== null && next && next.vehicle_id === p.vehicle_id && ms(next.start_time) > end)
      rows.push([
        vehicle,
        '',
        'Stop',
        end,
        ms(next.start_time),
        (ms(next.start_time) - end) / 1000,
        p.destination ?? '',
        '',
        null,
      ]);
  });
  return {
    columns: [
      { label: 'Vehicle', kind: 'text' },
      { label: 'Driver', kind: 'text' },
      { label: 'Type', kind: 'text' },
      { label: 'Start', kind: 'time' },
      { label: 'End', kind: 'time' },
      { label: 'Duration', kind: 'duration' },
      { label: 'From / at', kind: 'text' },
      { label: 'To', kind: 'text' },
      { label: 'Distance', kind: 'number', unit: c.units.distance, digits: 1 },
    ],
    rows,
    chart: { type: 'points', x: 3, y: [8], label: `Distance of each trip (${c.units.distance})` },
    note: 'Trips that start in the range, by vehicle; a stop is the time between two of them.',
  };
}

async function idle(db: Db, v: Viewer, c: Ctx, s: ReportScope): Promise<Built> {
  const events = await every(s.vehicleIds, (vehicleIds, limit, offset) =>
    listIdleEvents(db, v, { window: c.window, vehicleIds, excludePto: c.excludePto }, limit, offset),
  );
  if (!events) return tooMany('idle events');
  const per = new Map<number, { n: number; s: number; longest: number; fuelL: number }>();
  const [from, to] = [c.window.start.getTime(), c.window.end.getTime()];
  for (const e of events) {
    const x = per.get(e.vehicle_id) ?? { n: 0, s: 0, longest: 0, fuelL: 0 };
    per.set(e.vehicle_id, x);
    const secs = (Math.min(ms(e.end_time), to) - Math.max(ms(e.start_time), from)) / 1000;
    x.n++;
    x.s += secs;
    x.longest = Math.max(x.longest, secs);
    if (e.fuel_start_l !== null && e.fuel_end_l !== null && e.fuel_end_l >= e.fuel_start_l)
      x.fuelL += e.fuel_end_l - e.fuel_start_l;
  }
  const rows = [...per]
    .map(([id, x]): Value[] => [c.numbers.get(id) ?? `Vehicle ${id}`, x.n, x.s, x.longest, c.units.vol(x.fuelL)])
    .sort((a, b) => (b[2] as number) - (a[2] as number) || byNumber(a[0] as string, b[0] as string));
  return {
    columns: [
      { label: 'Vehicle', kind: 'text' },
      { label: 'Idle events', kind: 'number', digits: 0 },
      { label: 'Idle time', kind: 'duration' },
      { label: 'Longest idle', kind: 'duration' },
      { label: 'Idle fuel', kind: 'number', unit: c.units.fuel, digits: 2 },
    ],
    rows,
    chart: { type: 'bars', x: 0, y: [2], label: 'Idle time by vehicle (hours)' },
    note: `Vehicles that idled, most idle time first; the time within the range${c.excludePto ? ', without idling with the power take-off engaged' : ''}.`,
  };
}

async function speeding(db: Db, v: Viewer, c: Ctx, s: ReportScope): Promise<Built> {
  const found = await every(s.vehicleIds, (vehicleIds, limit, offset) =>
    listPerformanceEvents(db, v, { window: c.window, vehicleIds, types: ['speeding'] }, limit, offset),
  );
  if (!found) return tooMany('speeding events');
  const e = await loadEmbeds(db, v.companyId, {
    users: found.map((r) => r.driver_id),
    vehicles: found.map((r) => r.vehicle_id),
    devices: found.map((r) => r.device_id),
  });
  const speed = (kph: number | null) => (kph === null ? null : c.units.spd(kph));
  const rows = found
    .map((r) => speedingEvent(r, e))
    .sort((a, b) => ms(a.start_time) - ms(b.start_time) || a.id - b.id)
    .map((x): Value[] => [
      x.vehicle.number,
      x.driver ? `${x.driver.first_name} ${x.driver.last_name}` : '',
      ms(x.start_time),
      x.duration,
      speed(x.max_vehicle_speed),
      speed(x.max_over_speed_in_kph),
      x.metadata.severity ?? '',
      x.location ?? '',
    ]);
  return {
    columns: [
      { label: 'Vehicle', kind: 'text' },
      { label: 'Driver', kind: 'text' },
      { label: 'Start', kind: 'time' },
      { label: 'Duration', kind: 'duration' },
      { label: 'Top speed', kind: 'number', unit: c.units.speed, digits: 1 },
      { label: 'Over the limit by', kind: 'number', unit: c.units.speed, digits: 1 },
      { label: 'Severity', kind: 'text' },
      { label: 'Location', kind: 'text' },
    ],
    rows,
    chart: { type: 'points', x: 2, y: [5], label: `Speed over the limit (${c.units.speed})` },
    note: 'Speeding events that start in the range, oldest first; the limit is the company policy maximum.',
  };
}

const BUILDERS = { trips, idle, speeding, distance, utilization, drivers };

/** The table of the context's report for the scope. */
export async function buildReport(
  db: Db,
  v: Viewer,
  ctx: ReportContext & { numbers: Map<number, string> },
  scope: ReportScope,
): Promise<Built> {
  // An empty scope reads nothing: every owner call is made per chunk of ids, and there are none.
  return BUILDERS[ctx.filters.report](db, v, { ...ctx, units: unitsOf(ctx.metric) }, scope);
}
