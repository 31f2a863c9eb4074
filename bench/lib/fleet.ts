/**
 * Fast seeding of a realistic fleet for one company: batched inserts in one transaction, straight
 * through Kysely (the services validate one record at a time, which is minutes for thousands of rows
 * on PostgreSQL and measures nothing the bench cares about).
 */
import type { Insertable, Kysely } from 'kysely';
import type { Db } from '../../src/storage/db.js';
import type { Database, UsersTable } from '../../src/storage/schema.js';
import { nowIso } from '../../src/storage/values.js';
import { createCompany } from '../../src/domain/companies/service.js';
import { createApiKey } from '../../src/auth/api-keys.js';

export interface FleetOptions {
  vehicles: number;
  /** Every other vehicle gets its own permanent driver, up to this many drivers. */
  drivers: number;
  groups: number;
}

export interface Fleet {
  vehicleIds: number[];
  driverIds: number[];
  groupIds: number[];
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits for ~30 columns. */
const BATCH = 200;

function chunks<T>(xs: T[], n = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

export async function benchCompany(db: Db, name: string): Promise<{ companyId: number; apiKey: string }> {
  const company = await createCompany(db, { name });
  const key = await createApiKey(db, company.id, 'bench');
  return { companyId: company.id, apiKey: key.api_key };
}

const MAKES = [
  ['Freightliner', 'Cascadia'],
  ['Volvo', 'VNL 860'],
  ['Kenworth', 'T680'],
  ['Peterbilt', '579'],
  ['International', 'LT625'],
];
const STATES = ['CA', 'TX', 'OR', 'NV', 'AZ', 'WA', 'IL', 'OH'];

/**
 * Seeds `opts.groups` groups, `opts.drivers` drivers and `opts.vehicles` vehicles. Vehicle i (0-based):
 * even i has a permanent driver (a distinct one while drivers last), every fourth is also driven by
 * that driver right now, every tenth is marked in service by a driver; each vehicle is in group
 * i % groups and every tenth also in the next group.
 */
export async function seedFleet(db: Db, companyId: number, opts: FleetOptions): Promise<Fleet> {
  const now = nowIso();
  return db.kysely.transaction().execute(async (trx: Kysely<Database>) => {
    const groupIds: number[] = [];
    for (let g = 0; g < opts.groups; g++) {
      const row = await trx
        .insertInto('groups')
        .values({
          company_id: companyId,
          name: `Terminal ${g + 1}`,
          parent_id: null,
          user_id: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      groupIds.push(row.id);
    }

    const driverIds: number[] = [];
    const drivers = Array.from({ length: opts.drivers }, (_, i): Insertable<UsersTable> => ({
      company_id: companyId,
      role: 'driver',
      status: 'active',
      first_name: `Driver${i + 1}`,
      last_name: `Bench${companyId}`,
      email: `driver${i + 1}.c${companyId}@bench.example`,
      username: `c${companyId}_driver${i + 1}`,
      driver_company_id: `D${String(i + 1).padStart(5, '0')}`,
      phone: `+1555${String(1_000_000 + i).slice(-7)}`,
      time_zone: 'Pacific Time (US & Canada)',
      metric_units: 0,
      external_ids: '[]',
      group_visibility: 'all',
      duty_status: 'off_duty',
      eld_mode: 'logs',
      violation_alerts: '1_hour',
      carrier_name: '',
      carrier_street: '',
      carrier_city: '',
      carrier_state: '',
      carrier_zip: '',
      driver_flags: '{}',
      created_at: now,
      updated_at: now,
    }));
    for (const batch of chunks(drivers)) {
      const rows = await trx.insertInto('users').values(batch).returning('id').execute();
      driverIds.push(...rows.map((r) => r.id));
    }

    const vehicles = Array.from({ length: opts.vehicles }, (_, i) => {
      const [make, model] = MAKES[i % MAKES.length]!;
      const driver = i % 2 === 0 ? (driverIds[i / 2] ?? null) : null;
      return {
        company_id: companyId,
        number: `T${String(i + 1).padStart(5, '0')}`,
        status: i % 50 === 49 ? 'inactive' : 'active',
        ifta: 1,
        metric_units: 0,
        prevent_auto_odometer_entry: 0,
        incab_alert_live_stream_enable: -1,
        driver_facing_camera: -1,
        incab_audio_recording: -1,
        vin: `1FUJGLDR${String(100_000_000 + i).slice(-9)}`,
        make,
        model,
        year: String(2015 + (i % 10)),
        license_plate_state: STATES[i % STATES.length]!,
        license_plate_number: `BN${String(10_000 + i)}`,
        license_plate_country_code: 'US',
        fuel_type: i % 7 === 0 ? 'gasoline' : 'diesel',
        notes: i % 3 === 0 ? `Seeded vehicle ${i + 1}` : null,
        permanent_driver_id: driver,
        current_driver_id: i % 4 === 0 ? driver : null,
        availability_status: i % 10 === 0 && driver ? 'in_service' : null,
        availability_updated_at: i % 10 === 0 && driver ? now : null,
        availability_updated_by: i % 10 === 0 ? driver : null,
        created_at: now,
        updated_at: now,
      };
    });
    const vehicleIds: number[] = [];
    for (const batch of chunks(vehicles)) {
      const rows = await trx.insertInto('vehicles').values(batch).returning('id').execute();
      vehicleIds.push(...rows.map((r) => r.id));
    }

    if (groupIds.length) {
      const members = vehicleIds.flatMap((id, i) => {
        const first = groupIds[i % groupIds.length]!;
        const second = groupIds[(i + 1) % groupIds.length]!;
        const rows = [{ company_id: companyId, group_id: first, member_id: id, created_at: now }];
        if (i % 10 === 0 && second !== first)
          rows.push({ company_id: companyId, group_id: second, member_id: id, created_at: now });
        return rows;
      });
      for (const batch of chunks(members, 500)) await trx.insertInto('group_vehicles').values(batch).execute();
    }
    return { vehicleIds, driverIds, groupIds };
  });
}
