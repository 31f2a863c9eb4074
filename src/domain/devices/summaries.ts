/** The device summary (the `eld_device` embedded in telemetry objects) and its batch loader. */
import type { Db } from '../../storage/db.js';

export interface DeviceSummaryRow {
  id: number;
  identifier: string;
  model: string;
}

/** The company's devices among `ids` (nulls and repeats ignored), one query. */
export async function deviceSummaryRows(
  db: Pick<Db, 'kysely'>,
  companyId: number,
  ids: Array<number | null | undefined>,
): Promise<Map<number, DeviceSummaryRow>> {
  const wanted = [...new Set(ids.filter((x): x is number => typeof x === 'number'))];
  if (wanted.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('devices')
    .select(['id', 'identifier', 'model'])
    .where('company_id', '=', companyId)
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}
