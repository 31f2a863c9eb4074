/**
 * A history point written from the text of its columns (a compacted week on PostgreSQL) is byte for
 * byte the point text written at ingestion (pointJson), and a number's text is kept as it is only when
 * that is what parsing and writing it again would give.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BodyBytes } from '../../src/telemetry/body-bytes.js';
import { pointJson, writePointColumns, type PointFields } from '../../src/telemetry/point-json.js';
import { roundedText, roundsToItself, writeRoundedDigits, writesAsItself } from '../../src/telemetry/number-text.js';
import { kmToMi, kphToMph, litersToGallons } from '../../src/telemetry/units.js';

let seed = 11;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];

/** A double as PostgreSQL writes it: its shortest digits, in exponent form below 1e-4 and from 1e15. */
function pgText(x: number): string {
  if (Object.is(x, -0)) return '-0';
  const [mantissa, exp] = x.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 15) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(x);
}

/** Doubles of every kind a column holds: whole, few decimals, long tails, tiny, huge, halves, signs. */
function aDouble(): number {
  const scale = 10 ** Math.floor(rnd() * 20 - 9);
  const sign = rnd() < 0.3 ? -1 : 1;
  switch (Math.floor(rnd() * 6)) {
    case 0:
      return sign * Math.floor(rnd() * 1000);
    case 1:
      return sign * Number((rnd() * 200).toFixed(Math.floor(rnd() * 8)));
    case 2:
      return (sign * (Math.floor(rnd() * 2000) + 0.5)) / 10 ** Math.floor(rnd() * 4);
    case 3:
      return pick([0, -0, 0.1 + 0.2, 1.005, 2.675, 1e-7, 5e-7, 359.99999999999994, 1e15, 123456789012345.6]);
    default:
      return sign * rnd() * scale;
  }
}

test('a number text is kept only when parsing and writing it again gives that text', () => {
  const odd = ['-0', '0.50', '00.1', '01', '1e5', '1e-07', '.5', '5.', '', '-', '1.2.3', 'NaN', 'Infinity', '+1'];
  odd.push('0.0000001', '-0.00000012');
  const texts = [...odd, '1234567890123456', '0.1234567890123456', '12345678901234.5', '0.0000012', '0.000001'];
  for (let i = 0; i < 50_000; i++) texts.push(pgText(aDouble()));
  let kept = 0;
  for (const t of texts) {
    if (writesAsItself(t)) {
      kept++;
      assert.equal(String(Number(t)), t);
    }
    for (const d of [1, 2, 6])
      if (roundsToItself(t, d)) assert.equal(roundedText(Number(t), d), t, `${t} to ${d} decimals`);
  }
  for (const t of odd) assert.equal(writesAsItself(t), false, t);
  assert.equal(roundsToItself('41.4001', 6), true);
  assert.equal(roundsToItself('41.4001', 2), false);
  assert.equal(roundsToItself('123456789.5', 6), true);
  assert.equal(roundsToItself('1234567890.5', 6), false, 'scaled by 10^6 it passes 10^15');
  // The comparison is not empty: most texts are kept, and some are not.
  assert.ok(kept > texts.length / 2 && kept < texts.length, `${kept} of ${texts.length}`);
});

test('a number text with more decimals than kept is rounded from its digits, or left to the double near a half', () => {
  const digits = (t: string, d: number) => {
    const w = new BodyBytes(16);
    return writeRoundedDigits(w, t, 0, t.length, d) ? w.done().toString() : null;
  };
  const cases: Array<[string, number, string | null]> = [
    ['2005.5555555555557', 2, '2005.56'],
    ['41.400000000000006', 6, '41.4'],
    ['99.9999999', 6, '100'],
    ['-99.9999999', 6, '-100'],
    ['0.9999999', 6, '1'],
    ['-0.0000001', 6, '0'],
    ['0.0000004', 6, '0'],
    ['12.3049', 2, '12.3'],
    ['12.3951', 2, '12.4'],
    ['19.96', 1, '20'],
    ['1.005', 2, null],
    ['-179.9999995', 6, null],
    ['0.49999', 0, null],
    ['41.4', 6, null],
    ['1e-7', 6, null],
    ['123456789.1234567', 6, null],
  ];
  for (const [t, d, want] of cases) {
    assert.equal(digits(t, d), want, `${t} to ${d} decimals`);
    if (want !== null) assert.equal(want, roundedText(Number(t), d));
  }
  let decided = 0;
  let total = 0;
  for (let i = 0; i < 100_000; i++) {
    const t = pgText(aDouble());
    for (const d of [1, 2, 6]) {
      total++;
      const got = digits(t, d);
      if (got === null) continue;
      decided++;
      assert.equal(got, roundedText(Number(t), d), `${t} to ${d} decimals`);
    }
  }
  assert.ok(decided > total / 4, `${decided} of ${total}`);
});

const maybe = <T>(x: T): T | null => (rnd() < 0.15 ? null : x);
const WORDS = ['Council Bluffs, IA', 'São Paulo', 'a "quoted" place', 'back\\slash', 'tab\there', 'Zürich 🚚', 'x'];

test('a point written from its columns is byte for byte the point text written at ingestion', () => {
  const w = new BodyBytes(16);
  const expected: string[] = [];
  const texts: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const p: PointFields = {
      fix_time: new Date(1.7e12 + Math.floor(rnd() * 1e11)).toISOString(),
      lat: aDouble() % 90,
      lon: aDouble() % 180,
      bearing_deg: maybe(Math.abs(aDouble()) % 360),
      engine_hours: maybe(Math.abs(aDouble())),
      point_type: maybe(pick(['vehicle_moving', 'vehicle_stopped', 'engine_on'])),
      description: maybe(`${pick(WORDS)} ${pick(WORDS)}`),
      speed_kph: maybe(Math.abs(aDouble()) % 400),
      odometer_km: maybe(Math.abs(aDouble())),
      fuel_used_l: maybe(Math.abs(aDouble())),
    };
    const n = (x: number | null) => (x === null ? '\u0004' : pgText(x));
    const s = (x: string | null) => (x === null ? '\u0004' : x);
    const to = (x: number | null, f: (v: number) => number) => n(x === null ? null : f(x));
    const fields = [p.fix_time, n(p.lat), n(p.lon), n(p.bearing_deg), n(p.engine_hours), s(p.point_type)];
    // Speed, odometer and fuel come converted to the wire's units (queries/history-postgres.ts).
    fields.push(
      s(p.description),
      to(p.speed_kph, kphToMph),
      to(p.odometer_km, kmToMi),
      to(p.fuel_used_l, litersToGallons),
    );
    texts.push(`\u0002${fields.join('\u0003')}`);
    expected.push(pointJson(p));
  }
  // As the history reads them: every point's text in one string, joined by U+0001, each written from
  // its range (so a point's last field ends at the separator, not at the next point's first field).
  const all = texts.join('\u0001');
  for (let from = 0; from < all.length;) {
    const end = all.indexOf('\u0001', from);
    const to = end < 0 ? all.length : end;
    writePointColumns(w, all, from, to);
    w.text('\n');
    from = to + 1;
  }
  const got = w.done().toString('utf8').split('\n');
  got.pop();
  assert.equal(got.length, expected.length);
  for (let i = 0; i < got.length; i++) assert.equal(got[i], expected[i]);
});

test('a range of a text is written as the JSON string of that range, escapes included', () => {
  const w = new BodyBytes(4);
  const s = 'ab"c\\d\u0001é🚚x';
  for (let from = 0; from <= s.length; from++)
    for (let to = from; to <= s.length; to++) {
      w.json(s, from, to);
      w.byte(0x0a);
    }
  const expected: string[] = [];
  for (let from = 0; from <= s.length; from++)
    for (let to = from; to <= s.length; to++) expected.push(JSON.stringify(s.slice(from, to)));
  assert.deepEqual(w.done().toString('utf8').split('\n').slice(0, -1), expected);
});

test('zeros are repeated as many times as asked, none for a count of zero or less', () => {
  const w = new BodyBytes(2);
  for (const n of [3, 0, -2, 12]) {
    w.repeat(0x30, n);
    w.byte(0x7c);
  }
  assert.equal(w.done().toString('latin1'), '000|||000000000000|');
});
