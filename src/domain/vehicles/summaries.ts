/**
 * The vehicle summary row: the columns every embedded vehicle is drawn from, and their batch loader. Its
 * wire form is src/wire/summaries.ts.
 */
import type { Db } from '../../storage/db.js';

export interface VehicleSummaryRow {
  id: number;
  number: string;
  year: string | null;
  make: string | null;
  model: string | null;
  vin: string | null;
  metric_units: number;
}

export const VEHICLE_SUMMARY_COLUMNS = ['id', 'number', 'year', 'make', 'model', 'vin', 'metric_units'] as const;

/** The summary rows of the company's vehicles among `ids` (nulls and repeats ignored), one query. */
export async function vehicleSummaryRows(
  db: Pick<Db, 'kysely'>,
  companyId: number,
  ids: Array<number | null | undefined>,
): Promise<Map<number, VehicleSummaryRow>> {
  const wanted = [...new Set(ids.filter((x): x is number => typeof x === 'number'))];
  if (wanted.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('vehicles')
    .select([...VEHICLE_SUMMARY_COLUMNS])
    .where('company_id', '=', companyId)
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}
