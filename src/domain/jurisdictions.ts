/**
 * Jurisdiction codes: the two-letter postal codes of the US states, the District of Columbia and the
 * Canadian provinces and territories. Fuel purchases name the one they were made in; IFTA reports
 * (docs/reference/domain-rules.md §3.1) split distance by them. Of these, the 58 IFTA members are the 48 contiguous
 * states and the 10 provinces; AK, HI, DC, YT, NT and NU are valid places but not IFTA members.
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

/** Every accepted code, US first, in alphabetical order within each country. */
export const JURISDICTIONS: readonly string[] = [
  ...[...US_STATES, ...US_DISTRICT].sort(),
  ...[...CA_PROVINCES, ...CA_TERRITORIES].sort(),
];

const NON_MEMBERS = new Set(['AK', 'HI', 'DC', 'YT', 'NT', 'NU']);
/** The 58 IFTA member jurisdictions. */
export const IFTA_MEMBERS: readonly string[] = JURISDICTIONS.filter((c) => !NON_MEMBERS.has(c));

const ALL = new Set(JURISDICTIONS);
const MEMBERS = new Set(IFTA_MEMBERS);

/** Upper-cases and trims a code as a client may send it (`" tx"` → `"TX"`). */
export const normalizeJurisdiction = (code: string): string => code.trim().toUpperCase();

export const isJurisdiction = (code: string): boolean => ALL.has(normalizeJurisdiction(code));
export const isIftaMember = (code: string): boolean => MEMBERS.has(normalizeJurisdiction(code));

/** The country of a code: `US` or `CA`, or null for an unknown code. */
export function countryOf(code: string): 'US' | 'CA' | null {
  const c = normalizeJurisdiction(code);
  if (!ALL.has(c)) return null;
  return (CA_PROVINCES as readonly string[]).includes(c) || (CA_TERRITORIES as readonly string[]).includes(c)
    ? 'CA'
    : 'US';
}

/** An ISO 3166-2 subdivision code as boundary data sends it (`US-TX`, `CA-ON`) → the bare code, or null. */
export function fromIso3166(code: string): string | null {
  const m = /^(US|CA)-([A-Z]{2})$/.exec(code.trim().toUpperCase());
  if (!m || countryOf(m[2]) !== m[1]) return null;
  return m[2];
}
