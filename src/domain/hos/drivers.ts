/**
 * A driver's hours-of-service profile: the ruleset (cycle, home-terminal zone, exception flags; the
 * company's cycle and zone when the driver has none) and the fields logs and payloads show.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { fromJson } from '../../storage/values.js';
import { TIME_ZONES } from '../../core/time-zone.js';
import { USER_SUMMARY_COLUMNS, userSummaryFields, type UserSummaryRow } from '../users/summaries.js';
import { rulesetFor } from './engine/rulesets.js';
import type { Ruleset } from './engine/types.js';
import { driversQuery } from '../users/repository.js';
import { companyProfile } from '../companies/refs.js';

export interface HosDriver extends UserSummaryRow {
  duty_status: string;
  /** The Rails zone name shown on logs, and its IANA zone. */
  timeZoneName: string;
  ruleset: Ruleset;
  flags: Record<string, boolean>;
  /** Columns a log shows (carrier, terminal, eld_mode, metric_units). */
  row: Record<string, unknown>;
}

const COLUMNS = [
  ...USER_SUMMARY_COLUMNS,
  'duty_status',
  'time_zone',
  'cycle',
  'driver_flags',
  'metric_units',
  'eld_mode',
  'carrier_name',
  'carrier_street',
  'carrier_city',
  'carrier_state',
  'carrier_zip',
  'terminal_street',
  'terminal_city',
  'terminal_state',
  'terminal_zip',
] as const;

const rulesets = new Map<string, Ruleset>();
function cachedRuleset(
  cycle: string | null | undefined,
  zone: string,
  flagsJson: string,
  flags: Record<string, boolean>,
): Ruleset {
  const key = `${cycle}|${zone}|${flagsJson}`;
  let rs = rulesets.get(key);
  if (!rs) {
    if (rulesets.size > 10_000) rulesets.clear();
    rulesets.set(key, (rs = rulesetFor({ cycle, zone, flags })));
  }
  return rs;
}

/** Drivers (role driver) of the company among `ids`, with their rulesets; unknown ids are left out. */
export async function hosDrivers(
  db: Kysely<Database>,
  companyId: number,
  ids: number[],
): Promise<Map<number, HosDriver>> {
  const out = new Map<number, HosDriver>();
  if (ids.length === 0) return out;
  const company = await companyProfile(db, companyId);
  const rows = await driversQuery(db, companyId, ids)
    .select([...COLUMNS])
    .execute();
  for (const u of rows) {
    const zoneName =
      u.time_zone && TIME_ZONES[u.time_zone]
        ? u.time_zone
        : company?.time_zone && TIME_ZONES[company.time_zone]
          ? company.time_zone
          : 'UTC';
    const flags = fromJson<Record<string, boolean>>(u.driver_flags, {});
    out.set(u.id, {
      ...userSummaryFields(u),
      duty_status: u.duty_status,
      timeZoneName: zoneName,
      ruleset: cachedRuleset(u.cycle ?? company?.cycle, TIME_ZONES[zoneName]!, u.driver_flags, flags),
      flags,
      row: u,
    });
  }
  return out;
}

/** The driver block of hos_violation_upserted (docs/reference/wire.md §7.6). */
export const payloadDriver = (d: HosDriver) => ({
  id: d.id,
  first_name: d.first_name,
  last_name: d.last_name,
  driver_company_id: d.driver_company_id,
});
