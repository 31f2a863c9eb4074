/**
 * The quarterly IFTA report on the wire (beyond the real API): JSON `{"ifta_quarterly_report": {...}}`
 * and the same figures as CSV, one line per fuel type and jurisdiction plus a TOTAL line (and an
 * UNPLACED line when some distance could not be placed) per fuel type. Miles and US gallons with their
 * metric twins; MPG to 2 decimals, gallons to 3, distances to 2.
 */
import { Type } from 'typebox';
import { L_PER_GAL, kmToMi } from '../telemetry/units.js';
import type { FuelTypeReport, QuarterlyReport } from '../domain/ifta/quarterly.js';
import { csvCell } from './csv.js';
import { Nullable } from '../core/schema.js';

const NNum = () => Nullable(Type.Number());

const Line = Type.Object({
  jurisdiction: Type.String(),
  ifta_member: Type.Boolean(),
  total_miles: Type.Number(),
  taxable_miles: Type.Number(),
  total_km: Type.Number(),
  taxable_km: Type.Number(),
  gap_miles: Type.Number({
    description: 'Part of total_miles that crossed a data gap (placed by the gap rule): review it',
  }),
  tax_paid_gallons: Type.Number(),
  tax_paid_liters: Type.Number(),
  taxable_gallons: NNum(),
  net_taxable_gallons: NNum(),
});

const FuelType = Type.Object({
  fuel_type: Type.String(),
  vehicle_ids: Type.Array(Type.Integer()),
  total_miles: Type.Number(),
  total_km: Type.Number(),
  taxable_miles: Type.Number(),
  taxable_km: Type.Number(),
  unplaced_miles: Type.Number({ description: 'Distance no jurisdiction could be found for (counted in total_miles)' }),
  gap_miles: Type.Number(),
  fuel_gallons: Type.Number(),
  fuel_liters: Type.Number(),
  fleet_mpg: NNum(),
  jurisdictions: Type.Array(Line),
});

export const QuarterlyReportSchema = Type.Object({
  ifta_quarterly_report: Type.Object({
    year: Type.Integer(),
    quarter: Type.Integer(),
    start_date: Type.String(),
    end_date: Type.String(),
    due_date: Type.String({ description: 'Filing due date: the last day of the month after the quarter' }),
    time_zone: Type.String(),
    fuel_types: Type.Array(FuelType),
  }),
});

const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
const mi = (km: number) => r(kmToMi(km), 2);
const km2 = (km: number) => r(km, 2);
const gal = (l: number) => r(l / L_PER_GAL, 3);
const nr = (x: number | null, d: number) => (x === null ? null : r(x, d));

function fuelTypeWire(f: FuelTypeReport) {
  return {
    fuel_type: f.fuelType,
    vehicle_ids: f.vehicleIds,
    total_miles: mi(f.totalKm),
    total_km: km2(f.totalKm),
    taxable_miles: mi(f.taxableKm),
    taxable_km: km2(f.taxableKm),
    unplaced_miles: mi(f.unplacedKm),
    gap_miles: mi(f.gapKm),
    fuel_gallons: gal(f.fuelL),
    fuel_liters: r(f.fuelL, 3),
    fleet_mpg: f.mpg,
    jurisdictions: f.lines.map((l) => ({
      jurisdiction: l.jurisdiction,
      ifta_member: l.iftaMember,
      total_miles: mi(l.totalKm),
      taxable_miles: mi(l.taxableKm),
      total_km: km2(l.totalKm),
      taxable_km: km2(l.taxableKm),
      gap_miles: mi(l.gapKm),
      tax_paid_gallons: gal(l.taxPaidL),
      tax_paid_liters: r(l.taxPaidL, 3),
      taxable_gallons: nr(l.taxableGal, 3),
      net_taxable_gallons: nr(l.netTaxableGal, 3),
    })),
  };
}

export function quarterlyReportWire(rep: QuarterlyReport, timeZone: string) {
  return {
    ifta_quarterly_report: {
      year: rep.year,
      quarter: rep.quarter,
      start_date: rep.window.startDay,
      end_date: rep.window.endDay,
      due_date: rep.dueDate,
      time_zone: timeZone,
      fuel_types: rep.fuelTypes.map(fuelTypeWire),
    },
  };
}

export const CSV_COLUMNS = [
  'year',
  'quarter',
  'fuel_type',
  'jurisdiction',
  'ifta_member',
  'total_miles',
  'taxable_miles',
  'total_km',
  'taxable_km',
  'gap_miles',
  'tax_paid_gallons',
  'tax_paid_liters',
  'taxable_gallons',
  'net_taxable_gallons',
  'fleet_mpg',
] as const;

/** The report as CSV (RFC 4180, CRLF line ends, a header line first). */
export function quarterlyReportCsv(rep: QuarterlyReport): string {
  const lines: string[] = [CSV_COLUMNS.join(',')];
  const row = (values: Record<(typeof CSV_COLUMNS)[number], unknown>) =>
    lines.push(CSV_COLUMNS.map((c) => csvCell(values[c])).join(','));
  for (const ft of rep.fuelTypes) {
    const w = fuelTypeWire(ft);
    const base = { year: rep.year, quarter: rep.quarter, fuel_type: ft.fuelType, fleet_mpg: w.fleet_mpg };
    for (const l of w.jurisdictions) row({ ...base, ...l, ifta_member: l.ifta_member ? 'Y' : 'N' });
    if (ft.unplacedKm > 0) {
      row({
        ...base,
        jurisdiction: 'UNPLACED',
        ifta_member: '',
        total_miles: w.unplaced_miles,
        taxable_miles: 0,
        total_km: km2(ft.unplacedKm),
        taxable_km: 0,
        gap_miles: '',
        tax_paid_gallons: '',
        tax_paid_liters: '',
        taxable_gallons: '',
        net_taxable_gallons: '',
      });
    }
    const taxable = w.jurisdictions.reduce((s, l) => s + (l.taxable_gallons ?? 0), 0);
    const net = w.jurisdictions.reduce((s, l) => s + (l.net_taxable_gallons ?? 0), 0);
    row({
      ...base,
      jurisdiction: 'TOTAL',
      ifta_member: '',
      total_miles: w.total_miles,
      taxable_miles: w.taxable_miles,
      total_km: w.total_km,
      taxable_km: w.taxable_km,
      gap_miles: w.gap_miles,
      tax_paid_gallons: w.fuel_gallons,
      tax_paid_liters: w.fuel_liters,
      taxable_gallons: w.fleet_mpg === null ? '' : r(taxable, 3),
      net_taxable_gallons: w.fleet_mpg === null ? '' : r(net, 3),
    });
  }
  return lines.join('\r\n') + '\r\n';
}
