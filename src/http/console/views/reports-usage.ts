/**
 * The reports read from utilization and the scorecard: distance per vehicle (/v2/vehicle_utilization's
 * rollup over the range), utilization per day (the same buckets per local day,
 * vehicleUtilizationByWindow) and driver performance (/v1/scorecard_summary).
 */
import type { Db } from '../../../storage/db.js';
import { dayWindow } from '../../../core/time-zone.js';
import {
  utilizationPct,
  vehicleUtilization,
  vehicleUtilizationByWindow,
  type Totals,
} from '../../../telemetry/queries/utilization.js';
import { scorecardSummary } from '../../../telemetry/queries/scorecard.js';
import { PAGE, byNumber, chunks, type Built, type Column, type Ctx, type Value } from './reports-kit.js';
import type { ReportScope } from '../data/reports-data.js';
import type { Viewer } from '../data/data.js';

/** The utilization columns of a row: distance, driving and idle time, fuel, utilization. */
const usage = (c: Ctx, t: Totals): Value[] => [
  c.units.dist(t.distance_km),
  t.driving_s,
  t.idle_s,
  c.units.vol(t.driving_fuel_l + t.idle_fuel_l),
  utilizationPct(t),
];
const usageColumns = (c: Ctx): Column[] => [
  { label: 'Distance', kind: 'number', unit: c.units.distance, digits: 1 },
  { label: 'Driving time', kind: 'duration' },
  { label: 'Idle time', kind: 'duration' },
  { label: 'Fuel used', kind: 'number', unit: c.units.fuel, digits: 2 },
  { label: 'Utilization', kind: 'number', unit: '%', digits: 1 },
];

export async function distance(db: Db, v: Viewer, c: Ctx, s: ReportScope): Promise<Built> {
  const rows: Value[][] = [];
  for (const ids of chunks(s.vehicleIds)) {
    const { rows: got } = await vehicleUtilization(db, v, c.window, ids, ids.length, 0, c.excludePto);
    for (const { vehicle, totals } of got)
      if (vehicle.status !== 'deactivated' || totals.driving_s + totals.idle_s > 0)
        rows.push([vehicle.number, ...usage(c, totals)]);
  }
  rows.sort((a, b) => (b[1] as number) - (a[1] as number) || byNumber(a[0] as string, b[0] as string));
  return {
    columns: [{ label: 'Vehicle', kind: 'text' }, ...usageColumns(c)],
    rows,
    chart: { type: 'bars', x: 0, y: [1], label: `Distance by vehicle (${c.units.distance})` },
    note: 'Every vehicle that is not deactivated, longest distance first; utilization is driving time over engine-on time.',
  };
}

export async function utilization(db: Db, v: Viewer, c: Ctx, s: ReportScope): Promise<Built> {
  const windows = c.days.map((d) => dayWindow(d, d, c.zone.iana));
  const byDay = windows.map(() => new Map<number, Totals>());
  for (const ids of chunks(s.vehicleIds)) {
    const got = await vehicleUtilizationByWindow(db, v, windows, ids, c.excludePto);
    got.forEach((m, i) => m.forEach((t, id) => byDay[i].set(id, t)));
  }
  const rows = c.days.map((day, i): Value[] => {
    const all = [...byDay[i].values()];
    const sum = (k: keyof Totals) => all.reduce((a, t) => a + t[k], 0);
    const t: Totals = {
      driving_s: sum('driving_s'),
      idle_s: sum('idle_s'),
      driving_fuel_l: sum('driving_fuel_l'),
      idle_fuel_l: sum('idle_fuel_l'),
      distance_km: sum('distance_km'),
    };
    return [day, all.filter((x) => x.driving_s > 0).length, ...usage(c, t)];
  });
  return {
    columns: [
      { label: 'Day', kind: 'text' },
      { label: 'Vehicles driven', kind: 'number', digits: 0 },
      ...usageColumns(c),
    ],
    rows,
    chart: { type: 'lines', x: 0, y: [3, 4], label: 'Driving and idle time per day (hours)' },
    note: `The company's days (${c.zone.name}); utilization is driving time over engine-on time.`,
  };
}

export async function drivers(db: Db, v: Viewer, c: Ctx, s: ReportScope): Promise<Built> {
  const rows: Value[][] = [];
  const parts = s.driverIds === undefined ? [undefined] : chunks(s.driverIds);
  for (const ids of parts) {
    for (let offset = 0; ; offset += PAGE) {
      const page = await scorecardSummary(db, v, c.window, ids, PAGE, offset);
      for (const { driver, km, counts, score } of page.rows) {
        const events = counts.hard_brake + counts.hard_accel + counts.hard_corner + counts.speeding;
        if (km <= 0 && events === 0) continue;
        const name = `${driver.first_name} ${driver.last_name}`;
        rows.push([
          name,
          c.units.dist(km),
          counts.hard_brake,
          counts.hard_accel,
          counts.hard_corner,
          counts.speeding,
          score,
        ]);
      }
      if (page.rows.length < PAGE) break;
    }
  }
  rows.sort((a, b) => (a[6] as number) - (b[6] as number) || (a[0] as string).localeCompare(b[0] as string, 'en'));
  const n = (label: string): Column => ({ label, kind: 'number', digits: 0 });
  return {
    columns: [
      { label: 'Driver', kind: 'text' },
      { label: 'Distance', kind: 'number', unit: c.units.distance, digits: 1 },
      n('Hard brakes'),
      n('Hard accelerations'),
      n('Hard corners'),
      n('Speeding'),
      n('Safety score'),
    ],
    rows,
    chart: { type: 'bars', x: 0, y: [6], label: 'Safety score by driver (0 to 100)' },
    note: `Drivers who drove or had an event in the range, lowest score first; the score is the API's scorecard summary${
      c.filters.vehicleId === null
        ? ''
        : '. It covers their driving in every vehicle: the vehicle filter does not apply'
    }.`,
  };
}
