/**
 * The catalogue of hostile values the fuzz suite draws from: Unicode edge strings, huge and non-finite
 * numbers, dates at the ends of the calendar, and JSON number literals that JSON.stringify cannot
 * write (`-0`, `1e400`, which JSON.parse reads back as Infinity).
 */
import fc from 'fast-check';

/** A JSON literal written into a body as is (see `toJson`). */
export class RawJson {
  constructor(readonly text: string) {}
  toJSON(): string {
    return `\u0001RAW${this.text}\u0001`;
  }
}

/** JSON text of a value, with every RawJson written verbatim. */
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001RAW(.*?)\\u0001"/g, (_m, text: string) => JSON.parse(`"${text}"`));
}

export const EDGE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\uDBFF\uDFFF',
  '\uFEFFbom',
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  'שלום',
  '🚚💨',
  '👨‍👩‍👧‍👦',
  'e\u0301\u0301\u0301',
  '%',
  '%00',
  '%zz',
  '%%25',
  '100%',
  '../../etc/passwd',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  'line\r\nbreak',
  '\t',
  '\\',
  '"',
  '{}',
  '[]',
  'null',
  'true',
  'undefined',
  '-1',
  '1e308',
  'Infinity',
  'NaN',
  '\u2028\u2029',
  '\uFFFF',
  '\u{10FFFF}',
];

/** Strings built from a length: just over a limit, or simply very long. */
export function longString(length: number, unit = 'a'): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, Math.max(length, 0));
}

export const HUGE_NUMBERS: readonly number[] = [
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  1e21,
  1e308,
  -1e308,
  5e-324,
  0.1,
  0.5,
  1.5,
  -1,
  0,
  -0.5,
];

/** Number literals only raw JSON can carry. */
export const RAW_NUMBERS: readonly RawJson[] = [
  new RawJson('-0'),
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('123456789012345678901234567890'),
  new RawJson('1.0'),
  new RawJson('1E2'),
  new RawJson('0.0000000000000000000000000001'),
];

/** What a query string or path segment can carry for a number. */
export const NUMBER_TEXTS: readonly string[] = [
  'Infinity',
  '-Infinity',
  'NaN',
  '1e308',
  '1e400',
  '-0',
  '0',
  '2147483648',
  '2147483647',
  '-2147483649',
  '9007199254740993',
  '9'.repeat(400),
  '0x10',
  '1_000',
  ' 1',
  '1 ',
  '+1',
  '1.0',
  '1.5',
  '01',
  '1e3',
  '',
  'true',
  'null',
  '[]',
];

export const DATES: readonly string[] = [
  '0000-01-01',
  '0001-01-01',
  '9999-12-31',
  '1969-12-31',
  '1970-01-01',
  '2199-12-31',
  '2200-01-01',
  '2024-02-30',
  '2023-02-29',
  '2024-02-29',
  '2024-13-01',
  '2024-00-10',
  '2024-01-32',
  '2024-1-1',
  '20240101',
  '-000001-01-01',
  '+275760-09-13',
];

export const DATETIMES: readonly string[] = [
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59-23:59',
  '0000-01-01T00:00:00+23:59',
  '1969-12-31T23:59:59Z',
  '1969-12-31T23:59:59.999999999Z',
  '2200-01-01T00:00:00Z',
  '2199-12-31T23:59:59+14:00',
  '2024-02-30T12:00:00Z',
  '2024-01-01T24:00:00Z',
  '2024-01-01T23:59:60Z',
  '2024-01-01T00:00:00+14:00',
  '2024-01-01T00:00:00-12:00',
  '2024-01-01T00:00:00+05:45',
  '2024-01-01T00:00:00+23:59',
  '2024-01-01T00:00:00+99:99',
  '2024-01-01T00:00:00-00:00',
  '2024-01-01T00:00:00.123456789Z',
  '2024-01-01T00:00Z',
  '2024-01-01T00:00:00',
  '2024-01-01 00:00:00Z',
  '2024-06-01T12:00:00+01:00',
];

/** A date near today (valid for most ranges), as YYYY-MM-DD. */
export const recentDate = (daysAgo: number): string =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** Any of the catalogue's strings, or a long one. */
export const edgeString = (maxLength?: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
    { weight: 1, arbitrary: fc.constantFrom(...DATES, ...DATETIMES) },
    { weight: 1, arbitrary: fc.constant(longString((maxLength ?? 255) + 1)) },
    { weight: 1, arbitrary: fc.constantFrom(longString(70_000, '🚚'), longString(100_000), longString(300, '\u0000')) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  );

/** A JSON value of the wrong kind for most fields. */
export const wrongJson: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  null,
  true,
  false,
  [],
  {},
  [null],
  { a: 1 },
  '',
  '1',
  'true',
  0,
  1.5,
  -1,
  [[[[[[]]]]]],
);
