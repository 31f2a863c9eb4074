/**
 * Text written for every stored record, computed without the costly built-ins but identical to them:
 * rounded numbers of the history point (as `String(Math.round(x * 10^d) / 10^d)`), fix times (as
 * `Date#toISOString`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roundedText } from '../../src/telemetry/number-text.js';
import { isoTime } from '../../src/telemetry/iso-time.js';

const reference = (x: number, d: number) => String(Math.round(x * 10 ** d) / 10 ** d);

test('roundedText: boundaries and awkward values', () => {
  const cases: Array<[number, number, string]> = [
    [0, 6, '0'],
    [-0, 1, '0'],
    [-0.04, 1, '0'],
    [0.05, 1, '0.1'],
    [-0.05, 1, '0'],
    [-0.06, 1, '-0.1'],
    [39.8, 6, '39.8'],
    [-89.65, 6, '-89.65'],
    [180, 6, '180'],
    [-180, 6, '-180'],
    [0.000001, 6, '0.000001'],
    [0.0000005, 6, '0.000001'],
    [-0.0000005, 6, '0'],
    [0.1 + 0.2, 2, '0.3'],
    [1.005, 2, '1'],
    [2.675, 2, '2.68'],
    [55.923, 1, '55.9'],
    [1234567.891, 2, '1234567.89'],
    [1e15, 2, '1000000000000000'],
    [1e21, 1, '1e+21'],
  ];
  for (const [x, d, want] of cases) {
    assert.equal(roundedText(x, d), want, `${x} to ${d} decimals`);
    assert.equal(roundedText(x, d), reference(x, d), `${x} to ${d} decimals, reference`);
  }
});

test('roundedText agrees with String(round(x)) over a wide random sample', () => {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 200_000; i++) {
    const x = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 14 - 5);
    for (const d of [1, 2, 6]) assert.equal(roundedText(x, d), reference(x, d), `${x} to ${d} decimals`);
  }
});

test('isoTime: the text of toISOString, at the edges and over a random sample', () => {
  const edges = [
    0,
    999,
    86_399_999,
    86_400_000,
    Date.parse('2000-02-29T23:59:59.999Z'),
    Date.parse('2000-03-01T00:00:00.000Z'),
    Date.parse('2100-02-28T12:00:00.010Z'),
    Date.parse('2100-03-01T00:00:00.100Z'),
    Date.parse('2026-12-31T23:59:59.999Z'),
    253_402_300_799_999,
    253_402_300_800_000,
    -1,
    1.5,
    Date.parse('1969-12-31T23:59:59.000Z'),
  ];
  for (const t of edges) assert.equal(isoTime(t), new Date(t).toISOString(), String(t));
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 200_000; i++) {
    const t = Math.floor(rnd() * 253_402_300_800_000);
    assert.equal(isoTime(t), new Date(t).toISOString(), String(t));
  }
});
