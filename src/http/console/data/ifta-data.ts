/**
 * What the IFTA page shows for a quarter: the quarterly report of src/domain/ifta/quarterly.ts (the same
 * figures as GET /v1/ifta/quarterly_report and its CSV) by fuel type and jurisdiction, with a row for
 * distance no jurisdiction could be found for so that the rows add up to the totals; and the same quarter
 * per vehicle, from the same fragments (windowFragments) and the same fuel purchases (the fuel service),
 * grouped by fuel type as the report groups them. The report covers the whole company, so a fleet
 * manager limited to their groups does not get it.
 */
import type { Db } from '../../../storage/db.js';
import { fromBool } from '../../../storage/values.js';
import { localDate } from '../../../core/time-zone.js';
import { getCompany } from '../../../domain/companies/service.js';
import { quarterlyReport, type QuarterlyReport } from '../../../domain/ifta/quarterly.js';
import { iftaVehicles, windowFragments, type ReportWindow } from '../../../domain/ifta/reports.js';
import { UNPLACED } from '../../../domain/ifta/recompute.js';
import { isIftaMember } from '../../../domain/jurisdictions.js';
import { listFuelPurchases } from '../../../domain/fuel/service.js';
import { vehicleSummaryRows } from '../../../domain/vehicles/summaries.js';
import { reportZone } from '../../../domain/companies/date-zone.js';
import { L_PER_GAL } from '../../../telemetry/units.js';
import type { Viewer } from './data.js';

export interface Quarter {
  year: number;
  quarter: number;
}

/** The query as given (strings from the URL), before checking. */
export interface IftaQueryText {
  year?: string;
  quarter?: string;
  vehicle?: string;
}

/** One row of a table: a jurisdiction, a vehicle, or the total. */
export interface IftaLine {
  key: string;
  label: string;
  km: number;
  taxableKm: number;
  fuelL: number;
}

export interface IftaSection {
  fuelType: string;
  vehicleCount: number;
  /** By jurisdiction, then "not placed" when some distance has no jurisdiction. */
  lines: IftaLine[];
  total: IftaLine;
  /** By vehicle (the whole fleet's view only). */
  vehicles: IftaLine[];
}

export interface IftaReportResult {
  status: number;
  error?: string;
  quarter: Quarter;
  report: QuarterlyReport | null;
}

export interface IftaView extends IftaReportResult {
  /** Whether the company measures in kilometres and litres (`metric_units`). */
  metric: boolean;
  /** Vehicles with IFTA distance or fuel in the quarter, by number. */
  vehicleOptions: Array<{ id: number; number: string }>;
  vehicle: { id: number; number: string } | null;
  sections: IftaSection[];
}

/** As src/domain/ifta/quarterly.ts names a vehicle or purchase without a fuel type. */
const UNSPECIFIED = 'unspecified';
export const NOT_PLACED = 'Not placed';
const PAGE = 1000;

/** The quarter asked for, else the current one in the company's zone; null when the query names no real quarter. */
export function quarterOf(q: { year?: string; quarter?: string }, today: string): Quarter | null {
  if (q.year === undefined && q.quarter === undefined)
    return { year: Number(today.slice(0, 4)), quarter: Math.floor((Number(today.slice(5, 7)) - 1) / 3) + 1 };
  const year = Number(q.year);
  if (!/^\d{4}$/.test(q.year ?? '') || !/^[1-4]$/.test(q.quarter ?? '') || year < 2000 || year > 2100) return null;
  return { year, quarter: Number(q.quarter) };
}

/** The company's quarterly report, or why the viewer gets none (the CSV and the page share it). */
export async function iftaReport(db: Db, v: Viewer, q: IftaQueryText, now = Date.now()): Promise<IftaReportResult> {
  const { zone } = await reportZone({ headers: {} }, db, v.companyId);
  const today = localDate(now, zone);
  const quarter = quarterOf(q, today);
  if (!quarter)
    return {
      status: 400,
      error: 'Choose a year and a quarter (1 to 4).',
      quarter: quarterOf({}, today)!,
      report: null,
    };
  if (v.vehicleIds !== null)
    return {
      status: 403,
      error: 'IFTA reports cover the whole company; your account sees only some groups.',
      quarter,
      report: null,
    };
  return { status: 200, quarter, report: await quarterlyReport(db, v.companyId, { ...quarter, zone }) };
}

export async function iftaView(db: Db, v: Viewer, q: IftaQueryText, now = Date.now()): Promise<IftaView> {
  const base = await iftaReport(db, v, q, now);
  const company = await getCompany(db, v.companyId);
  const view: IftaView = {
    ...base,
    metric: fromBool(company.metric_units),
    vehicleOptions: [],
    vehicle: null,
    sections: [],
  };
  if (!base.report) return view;
  const cells = await breakdown(db, v, base.report.window);
  const ids = [...new Set(base.report.fuelTypes.flatMap((f) => f.vehicleIds))];
  const numbers = await vehicleSummaryRows(db, v.companyId, ids);
  const numberOf = (id: number) => numbers.get(id)?.number ?? `Vehicle ${id}`;
  view.vehicleOptions = ids
    .map((id) => ({ id, number: numberOf(id) }))
    .sort((a, b) => a.number.localeCompare(b.number, 'en', { numeric: true }) || a.id - b.id);

  if (q.vehicle) {
    const chosen = /^\d{1,12}$/.test(q.vehicle) ? view.vehicleOptions.find((o) => o.id === Number(q.vehicle)) : null;
    if (!chosen) {
      const { year, quarter } = base.quarter;
      return {
        ...view,
        status: 400,
        error: `vehicle must be one of the vehicles with IFTA distance or fuel in ${year} Q${quarter} (got "${q.vehicle}")`,
      };
    }
    view.vehicle = chosen;
    for (const [fuelType, byVehicle] of cells) {
      const mine = byVehicle.get(chosen.id);
      if (!mine) continue;
      const lines = jurisdictionLines(mine);
      view.sections.push({ fuelType, vehicleCount: 1, lines, total: sum('total', 'Total', lines), vehicles: [] });
    }
    return view;
  }

  for (const f of base.report.fuelTypes) {
    const lines: IftaLine[] = f.lines
      .filter((l) => l.totalKm > 0 || l.taxPaidL > 0)
      .map((l) => ({
        key: l.jurisdiction,
        label: l.jurisdiction,
        km: l.totalKm,
        taxableKm: l.taxableKm,
        fuelL: l.taxPaidL,
      }));
    if (f.unplacedKm > 0) lines.push({ key: UNPLACED, label: NOT_PLACED, km: f.unplacedKm, taxableKm: 0, fuelL: 0 });
    const vehicles = [...(cells.get(f.fuelType) ?? new Map<number, Map<string, Cell>>())]
      .map(([id, byCode]) => sum(String(id), numberOf(id), jurisdictionLines(byCode)))
      .sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }));
    view.sections.push({
      fuelType: f.fuelType,
      vehicleCount: f.vehicleIds.length,
      lines,
      total: { key: 'total', label: 'Total', km: f.totalKm, taxableKm: f.taxableKm, fuelL: f.fuelL },
      vehicles,
    });
  }
  return view;
}

interface Cell {
  km: number;
  fuelL: number;
}
/** fuel type → vehicle → jurisdiction (UNPLACED for distance without one) → distance and fuel. */
type Breakdown = Map<string, Map<number, Map<string, Cell>>>;

/**
 * The quarter per vehicle, grouped as the report groups it: a vehicle's distance under its fuel type,
 * a purchase under its own fuel type or else its vehicle's. test/http/console/ifta.test.ts checks that these
 * add up to the report's totals.
 */
async function breakdown(db: Db, v: Viewer, window: ReportWindow): Promise<Breakdown> {
  const vehicles = await iftaVehicles(db, v.companyId, {});
  const ids = [...vehicles.keys()];
  const out: Breakdown = new Map();
  if (ids.length === 0) return out;
  const fuelOf = (id: number) => vehicles.get(id) ?? UNSPECIFIED;
  const cell = (fuelType: string, id: number, code: string) => {
    const byVehicle = out.get(fuelType) ?? new Map<number, Map<string, Cell>>();
    out.set(fuelType, byVehicle);
    const byCode = byVehicle.get(id) ?? new Map<string, Cell>();
    byVehicle.set(id, byCode);
    const c = byCode.get(code) ?? { km: 0, fuelL: 0 };
    byCode.set(code, c);
    return c;
  };
  for (const f of await windowFragments(db, v.companyId, ids, window, { unplaced: true }))
    cell(fuelOf(f.vehicle_id), f.vehicle_id, f.jurisdiction).km += f.distance_km;
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await listFuelPurchases(db, v, { window, vehicle_ids: ids }, PAGE, offset);
    for (const p of rows) {
      const c = cell(p.fuel_type ?? fuelOf(p.vehicle_id!), p.vehicle_id!, p.jurisdiction);
      c.fuelL += p.fuel_unit === 'l' ? p.fuel : p.fuel * L_PER_GAL;
    }
    if (rows.length < PAGE) break;
  }
  return out;
}

/** One vehicle's cells as rows by jurisdiction, "not placed" last. */
function jurisdictionLines(byCode: Map<string, Cell>): IftaLine[] {
  return [...byCode]
    .sort(([a], [b]) => (a === UNPLACED ? 1 : b === UNPLACED ? -1 : a < b ? -1 : 1))
    .map(([code, c]) => ({
      key: code,
      label: code === UNPLACED ? NOT_PLACED : code,
      km: c.km,
      taxableKm: code !== UNPLACED && isIftaMember(code) ? c.km : 0,
      fuelL: c.fuelL,
    }));
}

function sum(key: string, label: string, lines: IftaLine[]): IftaLine {
  return {
    key,
    label,
    km: lines.reduce((a, l) => a + l.km, 0),
    taxableKm: lines.reduce((a, l) => a + l.taxableKm, 0),
    fuelL: lines.reduce((a, l) => a + l.fuelL, 0),
  };
}
