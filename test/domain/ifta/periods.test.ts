/**
 * Placement does not depend on where UTC midnight falls nor on how the time is cut into days, on the
 * rectangle fixture (tracks.ts): a lake the data leaves out, crossed across midnight, belongs wholly to
 * the jurisdiction on both sides; a stretch that takes longer than reentryMaxMs stays unplaced; a
 * three-day track computed whole and day by day (with the points the store loads) gives the same
 * fragments; the same trip shifted so that midnight falls anywhere on it gives the same totals.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allocate, DEFAULT_RULES } from '../../../src/domain/ifta/allocate.js';
import type { Fragment, Track } from '../../../src/domain/ifta/rules.js';
import {
  along,
  asLoaded,
  byCode,
  concat,
  fixtureIndex,
  odoSpan,
  parked,
  sum,
  withSpeed,
  type LatLon,
} from './tracks.js';

const idx = fixtureIndex();
const DAY = 86_400_000;
const MIDNIGHT = Date.parse('2024-02-06T00:00:00Z');
const run = (tr: Track, w = {}) => allocate(tr, idx, DEFAULT_RULES, w);
const close = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} ≠ ${b}`);
/** Across the lake in DD ([-96.5, -95.5] × [40.5, 41.5]), 84 km of water, 80 km of it beyond 2 km from the shore. */
const LAKE: LatLon[] = [
  [41, -96.8],
  [41, -95.2],
];

/** The day-by-day result: each UTC day computed alone from the points the store loads for it. */
function byDays(tr: Track): Fragment[] {
  const out: Fragment[] = [];
  const first = Math.floor(tr.t[0] / DAY) * DAY;
  for (let d = first; d <= tr.t[tr.n - 1]; d += DAY)
    out.push(...run(asLoaded(tr, d, d + DAY, DEFAULT_RULES), { fromT: d, toT: d + DAY }).fragments);
  return out;
}

/** Fragments equal to 1e-9 km (the odometer shares are the same sums in another order at most). */
function sameFragments(got: Fragment[], want: Fragment[]): void {
  assert.equal(got.length, want.length);
  got.forEach((f, i) => {
    const w = want[i];
    assert.deepEqual([f.owner, f.bucketStart, f.j], [w.owner, w.bucketStart, w.j]);
    close(f.distanceKm, w.distanceKm);
    close(f.gapKm, w.gapKm);
    close(f.startT, w.startT, 1e-3);
    close(f.endT, w.endT, 1e-3);
  });
}

test('a lake crossed across UTC midnight belongs wholly to the jurisdiction on both sides, computed whole or day by day', () => {
  // The middle of the lake (x = −96) at midnight: 67 km from the start at 80 km/h.
  const { track } = along(LAKE, { t0: MIDNIGHT - (67 / 80) * 3_600_000, kph: 80 });
  const whole = run(track);
  assert.deepEqual(Object.keys(byCode(whole.fragments, idx.codes)), ['DD']);
  assert.deepEqual([...new Set(whole.fragments.map((f) => f.owner))], [MIDNIGHT / DAY - 1, MIDNIGHT / DAY]);
  close(sum(whole.fragments), odoSpan(track));
  const days = byDays(track);
  assert.deepEqual(Object.keys(byCode(days, idx.codes)), ['DD']);
  sameFragments(days, whole.fragments);
});

test('a stretch over water is placed on both sides only if the vehicle is back within 6 hours', () => {
  // 84 km at 20 km/h: 4.2 h, placed; at 12 km/h: 7 h, the water stays unplaced (before and after midnight).
  const slow = along(LAKE, { t0: MIDNIGHT - 2 * 3_600_000, kph: 20 });
  assert.deepEqual(Object.keys(byCode(run(slow.track).fragments, idx.codes)), ['DD']);
  const slower = along(LAKE, { t0: MIDNIGHT - 3 * 3_600_000, kph: 12 });
  const got = byCode(run(slower.track).fragments, idx.codes);
  assert.ok(got['--'] > 75 && got['--'] < 81, `unplaced ${got['--']}`);
  close(got.DD + got['--'], odoSpan(slower.track), 1e-6);
  sameFragments(byDays(slower.track), run(slower.track).fragments);
});

test('three days computed whole and day by day give the same fragments (crossings, water and stops at midnight, gaps, coarse and no odometer)', () => {
  const H = 3_600_000;
  const d0 = MIDNIGHT - DAY;
  // Day 1, 23:30: AA into BB across midnight; parked at BB's end until 08:00 (speed 0); into the sea
  // east of BB and out of reach (unplaced: the other side is DD, not BB).
  const a = along(
    [
      [40.5, -99.5],
      [40.5, -98.5],
    ],
    { t0: d0 + 23.5 * H, kph: 90 },
  );
  const p1 = parked([40.5, -98.5], {
    t0: a.track.t[a.track.n - 1] + 10_000,
    seconds: 7 * 3600,
    everyS: 10,
    sigmaM: 8,
    speed: 0,
    odo: a.track.odo[a.track.n - 1],
  });
  const b = along(
    [
      [40.5, -98.5],
      [40.8, -97.2],
    ],
    { t0: p1.t[p1.n - 1] + 10_000, kph: 90, odo0: a.track.odo[a.track.n - 1] },
  );
  // A gap over the afternoon (its odometer advance is split along the straight line), then the lake in DD
  // across the next midnight, then parked without a speed past 01:00.
  const c = along(LAKE, { t0: MIDNIGHT + DAY - (67 / 80) * H, kph: 80, odo0: b.track.odo[b.track.n - 1] + 150 });
  const p2 = parked([41, -95.2], {
    t0: c.track.t[c.track.n - 1] + 10_000,
    seconds: 3600,
    everyS: 10,
    sigmaM: 8,
    odo: c.track.odo[c.track.n - 1],
  });
  const full = concat(withSpeed(a.track, 90), p1, withSpeed(b.track, 90), withSpeed(c.track, 80), p2);
  const coarse = { ...full, odo: full.odo.map((o) => Math.floor(o)) };
  const none = { ...full, odo: new Float64Array(full.n).fill(NaN) };
  for (const [name, tr] of Object.entries({ full, coarse, none })) {
    const whole = run(tr);
    const got = byCode(whole.fragments, idx.codes);
    assert.ok(got.DD > 84 && got.AA > 40 && got.BB > 40 && got['--'] > 50, `${name}: ${JSON.stringify(got)}`);
    sameFragments(byDays(tr), whole.fragments);
  }
});

test('the same trip with UTC midnight anywhere on it gives the same distance per jurisdiction', () => {
  const route: LatLon[] = [
    [40.5, -99.5],
    [40.5, -98.3],
    [40.7, -96.8],
    [41, -96.8],
    [41, -95.2],
  ];
  const base = along(route, { t0: 0, kph: 85 });
  const want = byCode(run(base.track).fragments, idx.codes);
  assert.ok(want.DD > 84 && want['--'] > 70, JSON.stringify(want));
  const hours = (base.track.t[base.track.n - 1] - base.track.t[0]) / 3_600_000;
  for (let h = 0; h <= hours; h += 0.25) {
    const shift = MIDNIGHT - h * 3_600_000;
    const tr = { ...base.track, t: base.track.t.map((t) => t + shift) };
    const got = byCode(byDays(tr), idx.codes);
    assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `midnight ${h} h into the trip`);
    for (const code of Object.keys(want)) close(got[code], want[code], 1e-6);
  }
});
