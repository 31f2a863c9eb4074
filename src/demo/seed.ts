/**
 * Seeds the demo company ("Demo Freight Lines") into an EMPTY database: staff, drivers, trucks, groups,
 * then an API key. The fleet itself is deterministic (fleet.ts); the password and the API key are
 * random, because a demo server may be reachable by others.
 *
 * Everything but the API key is written in one transaction, so a failed seed leaves no half company.
 * On a database that already holds a company nothing is written (`created: false`).
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Db } from '../storage/db.js';
import type { Database, UsersTable, VehiclesTable } from '../storage/schema.js';
import { json, nowIso } from '../storage/values.js';
import { hashPassword } from '../auth/secrets.js';
import { createApiKey, type CreatedApiKey } from '../auth/api-keys.js';
import { companyCode, insertCompanyRow } from '../domain/companies/service.js';
import { firstCompany, hasCompany } from '../domain/companies/refs.js';
import { insertGroupRow } from '../domain/groups/service.js';
import { AREA_SEEDERS } from './areas.js';
import { addMembers } from '../domain/groups/membership.js';
import { insertUserRows } from '../domain/users/repository.js';
import { adminCompanyByEmail } from '../domain/users/sign-in.js';
import { insertVehicleRows } from '../domain/vehicles/repository.js';
import { DEMO_ADMIN_EMAIL, DEMO_COMPANY } from './data.js';
import { demoFleet, DEMO_SEED, type DemoFleet } from './fleet.js';
import { newDemoPassword } from './credentials.js';

export interface DemoCompany {
  id: number;
  company_code: string;
  name: string;
}

export interface DemoCounts {
  admins: number;
  fleet_users: number;
  drivers: number;
  vehicles: number;
  groups: number;
}

export type DemoResult =
  | {
      created: true;
      company: DemoCompany;
      adminEmail: string;
      password: string;
      apiKey: CreatedApiKey;
      counts: DemoCounts;
    }
  /** `demo`: the company is the demo company an earlier run seeded (its admin is DEMO_ADMIN_EMAIL), not someone's own. */
  | { created: false; company: DemoCompany; demo: boolean };

export interface SeedOptions {
  /** PRNG seed of the fleet; the default gives the documented demo. */
  seed?: number;
  /** Reference year of the fleet's dates; the current year by default. */
  year?: number;
  /** Password of every demo user; random when not given. */
  password?: string;
}

/** Serializes concurrent seeders on PostgreSQL (two nodes starting with --demo at once). */
const SEED_LOCK = 0x466c7464; // "Fltd"

type Trx = Kysely<Database>;

async function insertCompany(trx: Trx, now: string): Promise<DemoCompany> {
  const id = await insertCompanyRow(
    trx,
    {
      name: DEMO_COMPANY.name,
      street: DEMO_COMPANY.street,
      city: DEMO_COMPANY.city,
      state: DEMO_COMPANY.state,
      zip: DEMO_COMPANY.zip,
      dot_ids: DEMO_COMPANY.dot_ids,
      cycle: DEMO_COMPANY.cycle,
      time_zone: DEMO_COMPANY.time_zone,
      metric_units: 0,
    },
    now,
  );
  return { id, company_code: companyCode(id), name: DEMO_COMPANY.name };
}

async function insertUsers(trx: Trx, fleet: DemoFleet, companyId: number, passwordHash: string, now: string) {
  const rows: Insertable<UsersTable>[] = fleet.users.map(({ groups: _groups, ...u }) => ({
    ...u,
    company_id: companyId,
    status: 'active',
    password_hash: passwordHash,
    metric_units: 0,
    external_ids: '[]',
    eld_mode: 'logs',
    driver_flags: u.role === 'driver' ? json({ personal_conveyance_enabled: true, yard_moves_enabled: true }) : '{}',
    created_at: now,
    updated_at: now,
  }));
  // Ids are read back by sign-in name, which is unique, rather than trusting RETURNING's row order.
  const saved = await insertUserRows(trx, companyId, rows);
  const byName = new Map<string, number>();
  for (const s of saved) byName.set(s.username ?? s.email ?? '', s.id);
  return (u: { username: string | null; email: string | null }) => byName.get(u.username ?? u.email ?? '') as number;
}

async function insertGroups(trx: Trx, fleet: DemoFleet, companyId: number, ownerId: number, now: string) {
  const ids = new Map<string, number>();
  for (const g of fleet.groups) {
    const id = await insertGroupRow(trx, {
      company_id: companyId,
      name: g.name,
      parent_id: g.parent ? (ids.get(g.parent) ?? null) : null,
      user_id: ownerId,
      created_at: now,
      updated_at: now,
    });
    ids.set(g.key, id);
  }
  return ids;
}

async function insertVehicles(
  trx: Trx,
  fleet: DemoFleet,
  companyId: number,
  userId: (username: string) => number,
  adminId: number,
  now: string,
) {
  const rows: Insertable<VehiclesTable>[] = fleet.vehicles.map(
    ({ group: _group, permanent_driver, current_driver, ...v }) => ({
      ...v,
      company_id: companyId,
      ifta: 1,
      metric_units: 0,
      prevent_auto_odometer_entry: 0,
      incab_alert_live_stream_enable: -1,
      driver_facing_camera: -1,
      incab_audio_recording: -1,
      permanent_driver_id: permanent_driver ? userId(permanent_driver) : null,
      current_driver_id: current_driver ? userId(current_driver) : null,
      availability_updated_at: now,
      availability_updated_by: adminId,
      created_at: now,
      updated_at: now,
    }),
  );
  return insertVehicleRows(trx, companyId, rows);
}

async function insertMembers(
  trx: Trx,
  fleet: DemoFleet,
  companyId: number,
  groupIds: Map<string, number>,
  userId: (u: { username: string | null; email: string | null }) => number,
  vehicleIds: Map<string, number>,
) {
  for (const [key, groupId] of groupIds) {
    const users = fleet.users.filter((u) => u.groups.includes(key)).map(userId);
    const vehicles = fleet.vehicles.filter((v) => v.group === key).map((v) => vehicleIds.get(v.number) as number);
    await addMembers(trx, 'group_users', companyId, groupId, users);
    await addMembers(trx, 'group_vehicles', companyId, groupId, vehicles);
  }
}

function countsOf(fleet: DemoFleet): DemoCounts {
  const role = (r: string) => fleet.users.filter((u) => u.role === r).length;
  return {
    admins: role('admin'),
    fleet_users: role('fleet_user'),
    drivers: role('driver'),
    vehicles: fleet.vehicles.length,
    groups: fleet.groups.length,
  };
}

/** The demo company an earlier run seeded if there is one (found by its admin's address), else the first company. */
async function existing(db: Db): Promise<DemoResult & { created: false }> {
  const admin = await adminCompanyByEmail(db.kysely, DEMO_ADMIN_EMAIL);
  if (admin) {
    const { id, company_code, name } = admin;
    return { created: false, company: { id, company_code, name }, demo: true };
  }
  const first = await firstCompany(db.kysely);
  return { created: false, company: first, demo: false };
}

export async function seedDemo(db: Db, opts: SeedOptions = {}): Promise<DemoResult> {
  // Cheap check first (no password hashing on every restart); the transaction checks again under a lock.
  if (await hasCompany(db.kysely)) {
    return existing(db);
  }
  const fleet = demoFleet(opts.seed ?? DEMO_SEED, opts.year ?? new Date().getUTCFullYear());
  const password = opts.password ?? newDemoPassword();
  const passwordHash = await hashPassword(password);
  const now = nowIso();
  const company = await db.kysely.transaction().execute(async (trx) => {
    if (db.kind === 'postgres') await sql`select pg_advisory_xact_lock(${SEED_LOCK})`.execute(trx);
    if (await hasCompany(trx)) return null;
    const company = await insertCompany(trx, now);
    const userId = await insertUsers(trx, fleet, company.id, passwordHash, now);
    const adminId = userId({ username: null, email: DEMO_ADMIN_EMAIL });
    const groupIds = await insertGroups(trx, fleet, company.id, adminId, now);
    const vehicleIds = await insertVehicles(
      trx,
      fleet,
      company.id,
      (u) => userId({ username: u, email: null }),
      adminId,
      now,
    );
    await insertMembers(trx, fleet, company.id, groupIds, userId, vehicleIds);
    return company;
  });
  if (!company) return existing(db);
  for (const area of AREA_SEEDERS) await area.seed(db, { companyId: company.id });
  const apiKey = await createApiKey(db, company.id, 'demo');
  return { created: true, company, adminEmail: DEMO_ADMIN_EMAIL, password, apiKey, counts: countsOf(fleet) };
}

/** How to get in again when the banner with the password and the key is gone. */
const LOST =
  '  Lost the password or the key?  npm run -s fleet -- demo credentials   (a new admin password and a new API key)';

/** What `fleet serve --demo` prints once the server listens on `url`: every start names the way in. */
export function demoBanner(result: DemoResult, url: string): string {
  const c = result.company;
  const where = [
    `  Console:   ${url}/console   (admins and fleet managers sign in here)`,
    `  API:       ${url}   (docs: ${url}/docs)`,
  ];
  if (!result.created && !result.demo) {
    return [
      `Demo: this database already has data the demo did not create (company ${c.id} ${c.company_code} "${c.name}"); nothing was seeded`,
      'and no truck is simulated on it. To drive simulated trucks there, run (with the server running):',
      `  npm run -s fleet -- simulate --company ${c.id} --vehicles 3 --speedup 60`,
      '',
    ].join('\n');
  }
  if (!result.created) {
    return [
      `Demo: this database already has the demo company (company ${c.id} ${c.company_code} "${c.name}"); nothing was seeded.`,
      ...where,
      `  Admin:     ${DEMO_ADMIN_EMAIL}`,
      '  The password and the API key were printed when the demo was created (they are stored only hashed).',
      LOST,
      '',
    ].join('\n');
  }
  const n = result.counts;
  const key = result.apiKey.api_key;
  return [
    `Demo: created "${c.name}" (company ${c.id}, ${c.company_code}) with ${n.admins} admin, ${n.fleet_users} fleet users, ` +
      `${n.drivers} drivers, ${n.vehicles} vehicles and ${n.groups} groups.`,
    ...where,
    `  Admin:     ${result.adminEmail}`,
    `  Password:  ${result.password}   (every demo user has it)`,
    `  API key:   ${key}   (shown only this once; stored hashed)`,
    LOST,
    '  Try it:',
    `    curl -H "X-Api-Key: ${key}" ${url}/v1/vehicles`,
    '',
  ].join('\n');
}
