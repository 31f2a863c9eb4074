/**
 * The time of a device record (parseTime, src/telemetry/records.ts): computed from the parts of the
 * ISO-8601 text, it must give the instant Date.parse gives for every real date and time, and reject
 * what does not exist (February 30, 24:00, a +24:00 zone) instead of rolling it over.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTime, RecordError } from '../../src/telemetry/record-fields.js';

/** Limits wide enough that only the text decides. */
const WIDE = { nowMs: 8.64e15, futureSlackS: 0, maxAgeDays: 1e9 };

const invalid = (text: string) => `time is not a valid datetime ("${text}")`;

test('ISO-8601 forms: zones with and without a colon, minutes only, fractions cut to milliseconds as Date.parse does', () => {
  const cases: Array<[string, string]> = [
    ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01T10:00Z', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01T10:00:00+05:30', '2026-03-01T04:30:00.000Z'],
    ['2026-03-01T10:00:00+0530', '2026-03-01T04:30:00.000Z'],
    ['2026-03-01T01:00-06:00', '2026-03-01T07:00:00.000Z'],
    ['2026-03-01T10:00:00-00:00', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01T10:00:00.5Z', '2026-03-01T10:00:00.500Z'],
    ['2026-03-01T10:00:00.29Z', '2026-03-01T10:00:00.290Z'],
    ['2026-03-01T10:00:00.123456789Z', '2026-03-01T10:00:00.123Z'],
    ['2026-03-01T10:00:00.9999Z', '2026-03-01T10:00:00.999Z'],
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['0050-06-01T00:00:00Z', '0050-06-01T00:00:00.000Z'],
  ];
  for (const [text, iso] of cases) {
    const t = parseTime(text, WIDE);
    assert.equal(new Date(t).toISOString(), iso, text);
    assert.equal(t, Date.parse(text), text);
  }
});

test('dates and times that do not exist are rejected, not rolled over', () => {
  for (const text of [
    '2026-02-29T00:00:00Z',
    '2100-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-03-00T00:00:00Z',
    '2026-03-01T24:00:00Z',
    '2026-03-01T23:60:00Z',
    '2026-03-01T23:59:60Z',
    '2026-03-01T10:00:00+24:00',
    '2026-03-01T10:00:00+05:60',
  ]) {
    assert.throws(
      () => parseTime(text, WIDE),
      (err: Error) => err instanceof RecordError && err.message === invalid(text),
      text,
    );
  }
});

test('every real instant of a seeded sample agrees with Date.parse, whatever the zone', () => {
  let seed = 12345;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const pad = (x: number, w = 2) => String(x).padStart(w, '0');
  for (let i = 0; i < 2000; i++) {
    const ms = Date.UTC(1971, 0, 1) + rnd(2 ** 31) * 1000 + rnd(1000);
    const d = new Date(ms);
    const zoneMin = (rnd(2) ? 1 : -1) * rnd(14 * 60);
    const local = new Date(ms + zoneMin * 60_000);
    const zone =
      zoneMin === 0
        ? 'Z'
        : `${zoneMin > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(zoneMin) / 60))}${rnd(2) ? ':' : ''}${pad(Math.abs(zoneMin) % 60)}`;
    const text = `${local.toISOString().slice(0, 23)}${zone}`;
    assert.equal(parseTime(text, WIDE), d.getTime(), text);
  }
});

test('the limits: a time in the future past the slack, or older than the maximum age, is named with its instant', () => {
  const limits = { nowMs: Date.parse('2026-03-01T10:00:00Z'), futureSlackS: 300, maxAgeDays: 400 };
  assert.equal(parseTime('2026-03-01T10:05:00Z', limits), Date.parse('2026-03-01T10:05:00Z'));
  assert.throws(() => parseTime('2026-03-01T10:05:00.001Z', limits), {
    message: 'time 2026-03-01T10:05:00.001Z is in the future (more than 300 s ahead of the server clock)',
  });
  assert.throws(() => parseTime('2025-01-01T00:00:00+01:00', limits), {
    message: 'time 2024-12-31T23:00:00.000Z is older than 400 days',
  });
});

test('a time in toISOString shape, read digit by digit, is the instant the general pattern reads from the same text with +00:00', () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const CHARS = '0123456789-:TZ.tz +x';
  const read = (s: string) => {
    try {
      return parseTime(s, WIDE);
    } catch (err) {
      assert.ok(err instanceof RecordError);
      // The message quotes the text, which differs in its zone: compare what it says is wrong.
      if (err.message.includes('must be an ISO-8601 datetime')) return 'not ISO-8601';
      if (err.message.includes('is not a valid datetime')) return 'no such instant';
      return err.message;
    }
  };
  let valid = 0;
  for (let i = 0; i < 40_000; i++) {
    const base = new Date(Math.floor(rnd() * 7.3e12 - 1e12)).toISOString();
    const fraction = Math.floor(rnd() * 11);
    let s =
      fraction === 0
        ? base.slice(0, 19)
        : fraction === 10
          ? base
          : `${base.slice(0, 19)}.${'123456789'.slice(0, fraction - 1)}`;
    if (fraction !== 10) s += 'Z';
    // Most texts as devices send them; the rest with one character changed, anywhere but the zone.
    if (rnd() < 0.4) {
      const at = Math.floor(rnd() * (s.length - 1));
      s = s.slice(0, at) + CHARS[Math.floor(rnd() * CHARS.length)] + s.slice(at + 1);
    }
    const fast = read(s);
    const general = read(`${s.slice(0, -1)}+00:00`);
    assert.equal(fast, general, s);
    if (typeof fast === 'number') valid++;
  }
  assert.ok(valid > 20_000, `${valid} valid`);
});
