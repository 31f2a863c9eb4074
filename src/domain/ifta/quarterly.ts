/**
 * The quarterly fleet report (docs/reference/domain-rules.md §3.4), per fuel type, over the IFTA vehicles:
 *
 *     fleet MPG            = total miles (every jurisdiction, non-members and unplaced included) / total gallons
 *     taxable gallons[j]   = taxable miles[j] / fleet MPG (the MPG rounded to 2 decimals, as on the return)
 *     net taxable gallons  = taxable gallons[j] − tax-paid gallons purchased in j
 *
 * Taxable miles are the miles in IFTA member jurisdictions. Fuel comes from fuel purchases (receipts,
 * fuel cards) of the IFTA vehicles dated in the quarter, never from GPS; a purchase without a fuel type
 * takes its vehicle's. A vehicle or purchase without a fuel type is reported as `unspecified`. Tax
 * rates are not applied: they change every quarter and are published by the jurisdictions.
 */
import type { Db } from '../../storage/db.js';
import { toIso } from '../../storage/values.js';
import { dayWindow } from '../../core/time-zone.js';
import { isIftaMember } from '../jurisdictions.js';
import { L_PER_GAL, KM_PER_MI } from '../../telemetry/units.js';
import { iftaVehicles, windowFragments, type ReportWindow } from './reports.js';
import { UNPLACED } from './recompute.js';
import { fuelBought } from '../fuel/repository.js';

export interface QuarterQuery {
  year: number;
  quarter: number;
  zone: string;
  fuelType?: string;
}

export interface JurisdictionLine {
  jurisdiction: string;
  iftaMember: boolean;
  totalKm: number;
  taxableKm: number;
  gapKm: number;
  taxPaidL: number;
  taxableGal: number | null;
  netTaxableGal: number | null;
}

export interface FuelTypeReport {
  fuelType: string;
  vehicleIds: number[];
  totalKm: number;
  taxableKm: number;
  unplacedKm: number;
  gapKm: number;
  fuelL: number;
  /** Rounded to 2 decimals; null without fuel or distance. */
  mpg: number | null;
  lines: JurisdictionLine[];
}

export interface QuarterlyReport {
  year: number;
  quarter: number;
  window: ReportWindow;
  dueDate: string;
  fuelTypes: FuelTypeReport[];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** First and last day of a quarter, and its filing due date (the last day of the following month). */
export function quarterDays(year: number, quarter: number): { startDay: string; endDay: string; dueDate: string } {
  const m0 = (quarter - 1) * 3;
  const startDay = `${year}-${pad(m0 + 1)}-01`;
  const endDay = new Date(Date.UTC(year, m0 + 3, 0)).toISOString().slice(0, 10);
  const dueDate = new Date(Date.UTC(year, m0 + 4, 0)).toISOString().slice(0, 10);
  return { startDay, endDay, dueDate };
}

const UNSPECIFIED = 'unspecified';

interface Acc {
  vehicles: Set<number>;
  lines: Map<string, { km: number; gapKm: number; fuelL: number }>;
}

export async function quarterlyReport(db: Db, companyId: number, q: QuarterQuery): Promise<QuarterlyReport> {
  const { startDay, endDay, dueDate } = quarterDays(q.year, q.quarter);
  const window: ReportWindow = { ...dayWindow(startDay, endDay, q.zone), startDay, endDay };
  const vehicles = await iftaVehicles(db, companyId, {});
  const ids = [...vehicles.keys()];
  const groups = new Map<string, Acc>();
  const group = (fuelType: string) => {
    let g = groups.get(fuelType);
    if (!g) groups.set(fuelType, (g = { vehicles: new Set(), lines: new Map() }));
    return g;
  };
  const line = (g: Acc, code: string) => {
    let l = g.lines.get(code);
    if (!l) g.lines.set(code, (l = { km: 0, gapKm: 0, fuelL: 0 }));
    return l;
  };
  const ofVehicle = (id: number) => vehicles.get(id) ?? UNSPECIFIED;

  for (const f of await windowFragments(db, companyId, ids, window, { unplaced: true })) {
    const g = group(ofVehicle(f.vehicle_id));
    g.vehicles.add(f.vehicle_id);
    const l = line(g, f.jurisdiction);
    l.km += f.distance_km;
    l.gapKm += f.gap_km;
  }
  const purchases = ids.length
    ? await fuelBought(db.kysely, companyId, ids, toIso(window.start), toIso(window.end))
    : [];
  for (const p of purchases) {
    const g = group(p.fuel_type ?? ofVehicle(p.vehicle_id!));
    g.vehicles.add(p.vehicle_id!);
    line(g, p.jurisdiction).fuelL += p.fuel_unit === 'l' ? p.fuel : p.fuel * L_PER_GAL;
  }

  const fuelTypes: FuelTypeReport[] = [];
  for (const [fuelType, g] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (q.fuelType && fuelType !== q.fuelType) continue;
    let totalKm = 0,
      taxableKm = 0,
      unplacedKm = 0,
      gapKm = 0,
      fuelL = 0;
    for (const [code, l] of g.lines) {
      totalKm += l.km;
      gapKm += l.gapKm;
      fuelL += l.fuelL;
      if (code === UNPLACED) unplacedKm += l.km;
      else if (isIftaMember(code)) taxableKm += l.km;
    }
    const gallons = fuelL / L_PER_GAL;
    const mpg = gallons > 0 && totalKm > 0 ? Math.round((totalKm / KM_PER_MI / gallons) * 100) / 100 : null;
    const lines: JurisdictionLine[] = [...g.lines]
      .filter(([code]) => code !== UNPLACED)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([code, l]) => {
        const member = isIftaMember(code);
        const taxableLineKm = member ? l.km : 0;
        const taxableGal = mpg ? taxableLineKm / KM_PER_MI / mpg : null;
        return {
          jurisdiction: code,
          iftaMember: member,
          totalKm: l.km,
          taxableKm: taxableLineKm,
          gapKm: l.gapKm,
          taxPaidL: l.fuelL,
          taxableGal,
          netTaxableGal: taxableGal === null ? null : taxableGal - l.fuelL / L_PER_GAL,
        };
      });
    fuelTypes.push({
      fuelType,
      vehicleIds: [...g.vehicles].sort((a, b) => a - b),
      totalKm,
      taxableKm,
      unplacedKm,
      gapKm,
      fuelL,
      mpg,
      lines,
    });
  }
  return { year: q.year, quarter: q.quarter, window, dueDate, fuelTypes };
}
