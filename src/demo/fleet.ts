/**
 * The demo fleet as plain data: a pure function of a seed and a reference year (no clock, no database,
 * no Math.random), so every fresh demo looks the same. The year only moves dates (hire dates before
 * it, registrations expiring the year after) so that a demo seeded later still looks current.
 * seed.ts writes the fleet to the database.
 */
import { Prng, makeVin } from './random.js';
import {
  DEMO_COMPANY,
  DEMO_EMAIL_DOMAIN,
  DEMO_GROUPS,
  FIRST_NAMES,
  LAST_NAMES,
  LICENSE_FORMATS,
  STAFF,
  TERMINALS,
  TRUCK_MODELS,
  TRUCK_YEARS,
  type Terminal,
} from './data.js';

export const DEMO_SEED = 20_240_601;
export const DEMO_DRIVER_COUNT = 40;
export const DEMO_VEHICLE_COUNT = 35;
/** Vehicles without a permanent driver (spares, trucks in the shop). */
const SPARE_VEHICLES = 5;

/** User columns the demo sets (company, password and timestamps are added when inserting). */
export interface DemoUser {
  role: 'admin' | 'fleet_user' | 'driver';
  first_name: string;
  last_name: string;
  email: string | null;
  username: string | null;
  phone: string;
  phone_country_code: string;
  time_zone: string;
  group_visibility: 'all' | 'limited';
  duty_status: string;
  violation_alerts: string;
  driver_company_id: string | null;
  drivers_license_number: string | null;
  drivers_license_state: string | null;
  joined_at: string | null;
  cycle: string | null;
  carrier_name: string;
  carrier_street: string;
  carrier_city: string;
  carrier_state: string;
  carrier_zip: string;
  terminal_street: string | null;
  terminal_city: string | null;
  terminal_state: string | null;
  terminal_zip: string | null;
  /** Keys of DEMO_GROUPS this user belongs to. */
  groups: string[];
}

export interface DemoVehicle {
  number: string;
  status: 'active' | 'inactive';
  vin: string;
  make: string;
  model: string;
  year: string;
  fuel_type: 'diesel';
  license_plate_state: string;
  license_plate_number: string;
  license_plate_country_code: string;
  registration_expiry_date: string;
  notes: string | null;
  availability_status: 'in_service' | 'out_of_service';
  /** Username of the permanent / current driver, if any. */
  permanent_driver: string | null;
  current_driver: string | null;
  group: string;
}

export interface DemoFleet {
  users: DemoUser[];
  vehicles: DemoVehicle[];
  groups: typeof DEMO_GROUPS;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function phone(rng: Prng, t: Terminal): string {
  return `${t.areaCode}-555-01${rng.digits(2)}`;
}

function date(rng: Prng, fromYear: number, toYear: number): string {
  return `${rng.int(fromYear, toYear)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
}

const carrier = {
  carrier_name: DEMO_COMPANY.name,
  carrier_street: DEMO_COMPANY.street,
  carrier_city: DEMO_COMPANY.city,
  carrier_state: DEMO_COMPANY.state,
  carrier_zip: DEMO_COMPANY.zip,
};

const noDriverFields = {
  driver_company_id: null,
  drivers_license_number: null,
  drivers_license_state: null,
  joined_at: null,
  cycle: null,
  terminal_street: null,
  terminal_city: null,
  terminal_state: null,
  terminal_zip: null,
};

function staff(rng: Prng): DemoUser[] {
  const hq = TERMINALS[0];
  return STAFF.map((s) => ({
    role: s.role as DemoUser['role'],
    first_name: s.first_name,
    last_name: s.last_name,
    email: s.email,
    username: null,
    phone: phone(rng, hq),
    phone_country_code: '+1',
    time_zone: DEMO_COMPANY.time_zone,
    group_visibility: s.groups.length ? 'limited' : 'all',
    duty_status: 'off_duty',
    violation_alerts: '1_hour',
    ...noDriverFields,
    ...carrier,
    groups: s.groups,
  }));
}

function drivers(rng: Prng, year: number): DemoUser[] {
  const out: DemoUser[] = [];
  const names = new Set<string>();
  const usernames = new Set<string>();
  for (let i = 0; i < DEMO_DRIVER_COUNT; i++) {
    let first: string;
    let last: string;
    do {
      first = rng.pick(FIRST_NAMES);
      last = rng.pick(LAST_NAMES);
    } while (names.has(`${first} ${last}`));
    names.add(`${first} ${last}`);
    let username = `${first[0]}${last}`.toLowerCase();
    for (let n = 2; usernames.has(username); n++) username = `${first[0]}${last}${n}`.toLowerCase();
    usernames.add(username);
    const t = rng.weighted(TERMINALS, (x) => x.weight);
    const license = LICENSE_FORMATS[t.state];
    out.push({
      role: 'driver',
      first_name: first,
      last_name: last,
      // About one driver in four signs in with a username only.
      email: rng.next() < 0.75 ? `${first}.${last}@${DEMO_EMAIL_DOMAIN}`.toLowerCase() : null,
      username,
      phone: phone(rng, t),
      phone_country_code: '+1',
      time_zone: t.timeZone,
      group_visibility: 'all',
      duty_status: rng.weighted(
        ['off_duty', 'driving', 'on_duty', 'sleeper'],
        (s) => ({ off_duty: 4, driving: 3, on_duty: 2, sleeper: 1 })[s] ?? 0,
      ),
      violation_alerts: rng.pick(['1_hour', '1_hour', '30_minutes', '15_minutes']),
      driver_company_id: `DFL-${1001 + i}`,
      drivers_license_number: license(
        (n) => rng.digits(n),
        (n) => rng.letters(n),
        last.toUpperCase(),
      ),
      drivers_license_state: t.state,
      joined_at: date(rng, year - 12, year - 1),
      cycle: rng.next() < 0.8 ? '70_8' : '60_7',
      ...carrier,
      terminal_street: t.street,
      terminal_city: t.city,
      terminal_state: t.state,
      terminal_zip: t.zip,
      groups: [t.group],
    });
  }
  return out;
}

function terminalOf(u: DemoUser): Terminal {
  return TERMINALS.find((t) => t.city === u.terminal_city) ?? TERMINALS[0];
}

function vehicles(rng: Prng, driverList: DemoUser[], year: number): DemoVehicle[] {
  const out: DemoVehicle[] = [];
  const assigned = rng.shuffle(driverList).slice(0, DEMO_VEHICLE_COUNT - SPARE_VEHICLES);
  for (let i = 0; i < DEMO_VEHICLE_COUNT; i++) {
    const driver = assigned[i] ?? null;
    const t = driver ? terminalOf(driver) : rng.weighted(TERMINALS, (x) => x.weight);
    const m = rng.weighted(TRUCK_MODELS, (x) => x.weight);
    const modelYear = rng.pick(TRUCK_YEARS);
    const spare = driver === null;
    const inShop = spare && i % 2 === 0;
    out.push({
      number: `T-${101 + i}`,
      status: spare && i === DEMO_VEHICLE_COUNT - 1 ? 'inactive' : 'active',
      vin: makeVin(rng, m.wmi, m.descriptor, modelYear, m.plant),
      make: m.make,
      model: m.model,
      year: String(modelYear),
      fuel_type: 'diesel',
      license_plate_state: t.state,
      license_plate_number: `${rng.letters(2)}${rng.digits(5)}`,
      license_plate_country_code: 'US',
      registration_expiry_date: date(rng, year + 1, year + 1),
      notes: inShop ? 'In the shop: scheduled PM service' : spare ? 'Spare unit' : null,
      availability_status: inShop ? 'out_of_service' : 'in_service',
      permanent_driver: driver?.username ?? null,
      current_driver: driver && ['driving', 'on_duty'].includes(driver.duty_status) ? driver.username : null,
      group: t.group,
    });
  }
  return out;
}

/** The whole demo fleet for a seed: staff first, then drivers, then vehicles. */
export function demoFleet(seed = DEMO_SEED, year = 2025): DemoFleet {
  const rng = new Prng(seed);
  const staffList = staff(rng);
  const driverList = drivers(rng, year);
  return { users: [...staffList, ...driverList], vehicles: vehicles(rng, driverList, year), groups: DEMO_GROUPS };
}
