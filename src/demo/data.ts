/** Reference data for the demo fleet: names, terminals, truck models. Plain constants, no logic. */

export const DEMO_COMPANY = {
  name: 'Demo Freight Lines',
  street: '1200 Commerce Pkwy',
  city: 'Columbus',
  state: 'OH',
  zip: '43215',
  dot_ids: ['3141592'],
  cycle: '70_8',
  time_zone: 'Eastern Time (US & Canada)',
};

export const DEMO_EMAIL_DOMAIN = 'demo.fleet';
export const DEMO_ADMIN_EMAIL = `admin@${DEMO_EMAIL_DOMAIN}`;

/** Groups: regions, some with a yard nested under them. `key` links terminals to their group. */
export const DEMO_GROUPS: Array<{ key: string; name: string; parent?: string }> = [
  { key: 'northeast', name: 'Northeast' },
  { key: 'midwest', name: 'Midwest' },
  { key: 'south', name: 'South' },
  { key: 'west', name: 'West' },
  { key: 'chicago', name: 'Chicago Yard', parent: 'midwest' },
  { key: 'phoenix', name: 'Phoenix Yard', parent: 'west' },
];

export interface Terminal {
  street: string;
  city: string;
  state: string;
  zip: string;
  /** Rails time-zone name (src/domain/users/fields.ts). */
  timeZone: string;
  areaCode: string;
  group: string;
  /** Relative share of drivers and trucks based here. */
  weight: number;
}

export const TERMINALS: Terminal[] = [
  {
    street: '1200 Commerce Pkwy',
    city: 'Columbus',
    state: 'OH',
    zip: '43215',
    timeZone: 'Eastern Time (US & Canada)',
    areaCode: '614',
    group: 'midwest',
    weight: 6,
  },
  {
    street: '7850 Zionsville Rd',
    city: 'Indianapolis',
    state: 'IN',
    zip: '46268',
    timeZone: 'Indiana (East)',
    areaCode: '317',
    group: 'midwest',
    weight: 3,
  },
  {
    street: '4200 S Cicero Ave',
    city: 'Chicago',
    state: 'IL',
    zip: '60632',
    timeZone: 'Central Time (US & Canada)',
    areaCode: '773',
    group: 'chicago',
    weight: 5,
  },
  {
    street: '145 Railroad Ave',
    city: 'Albany',
    state: 'NY',
    zip: '12205',
    timeZone: 'Eastern Time (US & Canada)',
    areaCode: '518',
    group: 'northeast',
    weight: 3,
  },
  {
    street: '88 Distribution Way',
    city: 'Worcester',
    state: 'MA',
    zip: '01605',
    timeZone: 'Eastern Time (US & Canada)',
    areaCode: '508',
    group: 'northeast',
    weight: 2,
  },
  {
    street: '3300 Fulton Industrial Blvd',
    city: 'Atlanta',
    state: 'GA',
    zip: '30336',
    timeZone: 'Eastern Time (US & Canada)',
    areaCode: '404',
    group: 'south',
    weight: 4,
  },
  {
    street: '9600 Ambassador Row',
    city: 'Dallas',
    state: 'TX',
    zip: '75247',
    timeZone: 'Central Time (US & Canada)',
    areaCode: '214',
    group: 'south',
    weight: 4,
  },
  {
    street: '5100 Brighton Blvd',
    city: 'Denver',
    state: 'CO',
    zip: '80216',
    timeZone: 'Mountain Time (US & Canada)',
    areaCode: '303',
    group: 'west',
    weight: 2,
  },
  {
    street: '2450 S 51st Ave',
    city: 'Phoenix',
    state: 'AZ',
    zip: '85043',
    timeZone: 'Arizona',
    areaCode: '602',
    group: 'phoenix',
    weight: 3,
  },
  {
    street: '8200 Power Inn Rd',
    city: 'Sacramento',
    state: 'CA',
    zip: '95828',
    timeZone: 'Pacific Time (US & Canada)',
    areaCode: '916',
    group: 'west',
    weight: 2,
  },
];

export const FIRST_NAMES = [
  'James',
  'Robert',
  'Michael',
  'William',
  'David',
  'Richard',
  'Joseph',
  'Thomas',
  'Charles',
  'Daniel',
  'Matthew',
  'Anthony',
  'Mark',
  'Steven',
  'Paul',
  'Andrew',
  'Joshua',
  'Kevin',
  'Brian',
  'George',
  'Timothy',
  'Ronald',
  'Jason',
  'Jeffrey',
  'Ryan',
  'Jacob',
  'Gary',
  'Eric',
  'Jose',
  'Luis',
  'Carlos',
  'Miguel',
  'Terrell',
  'Darnell',
  'Andre',
  'Dmitri',
  'Tyrone',
  'Wesley',
  'Dale',
  'Curtis',
  'Mary',
  'Patricia',
  'Jennifer',
  'Linda',
  'Maria',
  'Sandra',
  'Angela',
  'Tanya',
  'Rosa',
  'Keisha',
];

export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Kowalski',
  'Novak',
  'Okafor',
  'Petrov',
  'Schultz',
  'Brennan',
  'Dubois',
  'Yazzie',
];

/** Office staff: the admin and the fleet users (dispatch, safety). */
export const STAFF = [
  { role: 'admin', first_name: 'Alex', last_name: 'Morgan', email: DEMO_ADMIN_EMAIL, groups: [] as string[] },
  {
    role: 'fleet_user',
    first_name: 'Dana',
    last_name: 'Whitfield',
    email: `dana.whitfield@${DEMO_EMAIL_DOMAIN}`,
    groups: ['northeast', 'midwest', 'chicago'],
  },
  {
    role: 'fleet_user',
    first_name: 'Marcus',
    last_name: 'Reyes',
    email: `marcus.reyes@${DEMO_EMAIL_DOMAIN}`,
    groups: ['south', 'west', 'phoenix'],
  },
];

export interface TruckModel {
  make: string;
  model: string;
  /** World manufacturer identifier, VIN positions 1–3. */
  wmi: string;
  /** Vehicle descriptor, VIN positions 4–8. */
  descriptor: string;
  /** Assembly plant code, VIN position 11. */
  plant: string;
  weight: number;
}

export const TRUCK_MODELS: TruckModel[] = [
  { make: 'Freightliner', model: 'Cascadia', wmi: '3AK', descriptor: 'JHHDR', plant: 'S', weight: 9 },
  { make: 'Kenworth', model: 'T680', wmi: '1XK', descriptor: 'YD49X', plant: 'J', weight: 5 },
  { make: 'Peterbilt', model: '579', wmi: '1XP', descriptor: 'BD49X', plant: 'D', weight: 4 },
  { make: 'Volvo', model: 'VNL 760', wmi: '4V4', descriptor: 'NC9EH', plant: 'N', weight: 4 },
  { make: 'International', model: 'LT625', wmi: '3HS', descriptor: 'DZAPR', plant: 'N', weight: 3 },
];

export const TRUCK_YEARS = [2018, 2019, 2020, 2021, 2022, 2023, 2024];

/** A US driver's license number in roughly the shape the issuing state uses. */
export const LICENSE_FORMATS: Record<
  string,
  (d: (n: number) => string, l: (n: number) => string, last: string) => string
> = {
  OH: (d, l) => `${l(2)}${d(6)}`,
  IN: (d) => d(10),
  IL: (d, _l, last) => `${last[0]}${d(11)}`,
  NY: (d) => d(9),
  MA: (d) => `S${d(8)}`,
  GA: (d) => d(9),
  TX: (d) => d(8),
  CO: (d) => d(9),
  AZ: (d, _l, last) => `${last[0]}${d(8)}`,
  CA: (d, _l, last) => `${last[0]}${d(7)}`,
};
