/**
 * Jurisdiction codes: the two-letter postal codes of the US states, the District of Columbia and the
 * Canadian provinces and territories, and `MX` for Mexico as a whole. Fuel purchases name the one they
 * were made in; IFTA reports (docs/reference/domain-rules.md §3.1) split distance by them. Of these, the
 * 58 IFTA members are the 48 contiguous states and the 10 provinces; AK, HI, DC, YT, NT, NU and MX are
 * valid places but not IFTA members: their miles count in a fleet's total only. Mexico is one of them
 * so that miles driven there are placed there, and not in the state the vehicle left (docs/ifta.md).
 */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;
export const US_DISTRICT = ['DC'] as const;
export const CA_PROVINCES = ['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'ON', 'PE', 'QC', 'SK'] as const;
export const CA_TERRITORIES = ['YT', 'NT', 'NU'] as const;
/** Mexico, one jurisdiction for the whole country (its states are not IFTA jurisdictions either). */
export const MEXICO = ['MX'] as const;

export type Country = 'US' | 'CA' | 'MX';

/** Every accepted code: US, then Canada (alphabetical within each), then Mexico. */
export const JURISDICTIONS: readonly string[] = [
  ...[...US_STATES, ...US_DISTRICT].sort(),
  ...[...CA_PROVINCES, ...CA_TERRITORIES].sort(),
  ...MEXICO,
];

const NON_MEMBERS = new Set(['AK', 'HI', 'DC', 'YT', 'NT', 'NU', 'MX']);
/** The 58 IFTA member jurisdictions. */
export const IFTA_MEMBERS: readonly string[] = JURISDICTIONS.filter((c) => !NON_MEMBERS.has(c));

const ALL = new Set(JURISDICTIONS);
const MEMBERS = new Set(IFTA_MEMBERS);

/** Upper-cases and trims a code as a client may send it (`" tx"` → `"TX"`). */
export const normalizeJurisdiction = (code: string): string => code.trim().toUpperCase();

export const isJurisdiction = (code: string): boolean => ALL.has(normalizeJurisdiction(code));
export const isIftaMember = (code: string): boolean => MEMBERS.has(normalizeJurisdiction(code));

const CANADA = new Set<string>([...CA_PROVINCES, ...CA_TERRITORIES]);

/** The country of a code: `US`, `CA` or `MX`, or null for an unknown code. */
export function countryOf(code: string): Country | null {
  const c = normalizeJurisdiction(code);
  if (!ALL.has(c)) return null;
  if (c === 'MX') return 'MX';
  return CANADA.has(c) ? 'CA' : 'US';
}

/** An ISO 3166-2 subdivision code as boundary data sends it (`US-TX`, `CA-ON`) → the bare code, or null. */
export function fromIso3166(code: string): string | null {
  const m = /^(US|CA)-([A-Z]{2})$/.exec(code.trim().toUpperCase());
  if (!m || countryOf(m[2]) !== m[1]) return null;
  return m[2];
}
