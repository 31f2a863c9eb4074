/**
 * The allocator on the rectangle fixture (tracks.ts): border splits at the computed crossing point,
 * several jurisdictions, odometer scaling (fine, coarse, reset, stuck), snapping and unplaced distance,
 * lakes, gaps with and without an odometer, cleaning, and cuts at buckets and owner days.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allocate, DEFAULT_RULES } from '../../../src/domain/ifta/allocate.js';
import {
  along,
  asLoaded,
  byCode,
  concat,
  fixtureIndex,
  insertPoint,
  km,
  odoSpan,
  sum,
  within,
  type LatLon,
} from './tracks.js';

const idx = fixtureIndex();
const T0 = Date.parse('2024-02-05T13:00:00Z');
const run = (tr: Parameters<typeof allocate>[0], w = {}) => allocate(tr, idx, DEFAULT_RULES, w);
const close = (a: number, b: number, eps = 1e-6) => assert.ok(Math.abs(a - b) <= eps, `${a} ≠ ${b}`);

test('a straight segment crossing one border is split at the computed crossing point', () => {
  const a: LatLon = [40.5, -99.6],
    b: LatLon = [40.5, -98.3],
    x: LatLon = [40.5, -99];
  const { track } = along([a, b], { t0: T0 });
  const r = run(track);
  const got = byCode(r.fragments, idx.codes);
  assert.ok(within(got.AA, km(a, x)), `AA ${got.AA} vs ${km(a, x)}`);
  assert.ok(within(got.BB, km(x, b)), `BB ${got.BB} vs ${km(x, b)}`);
  close(sum(r.fragments), odoSpan(track));
  const aa = r.fragments
    .filter((f) => idx.codes[f.j] === 'AA')
    .sort((p, q) => p.endT - q.endT)
    .at(-1)!;
  const bb = r.fragments.filter((f) => idx.codes[f.j] === 'BB').sort((p, q) => p.startT - q.startT)[0];
  close(aa.endLon, -99, 1e-9);
  close(bb.startLon, -99, 1e-9);
  close(aa.endOdo, bb.startOdo, 1e-9);
  assert.ok(aa.endT === bb.startT);
});

test('a route through three jurisdictions gets each one its share, and the shares sum to the odometer', () => {
  const p1: LatLon = [40.2, -99.8],
    p2: LatLon = [41.5, -99.2],
    p3: LatLon = [40.5, -98.5];
  const c1: LatLon = [41, -99.8 + ((41 - 40.2) / (41.5 - 40.2)) * 0.6];
  const c2: LatLon = [41, -98.85];
  const { track } = along([p1, p2, p3], { t0: T0, kph: 100 });
  const got = byCode(run(track).fragments, idx.codes);
  assert.ok(within(got.AA, km(p1, c1)), `AA ${got.AA}`);
  assert.ok(within(got.CC, km(c1, p2) + km(p2, c2)), `CC ${got.CC}`);
  assert.ok(within(got.BB, km(c2, p3)), `BB ${got.BB}`);
  close(got.AA + got.BB + got.CC, odoSpan(track));
});

test('the odometer scales the shares: 2 % more on the odometer is 2 % more in every jurisdiction', () => {
  const a: LatLon = [40.5, -99.5],
    b: LatLon = [40.5, -98.5];
  const { track } = along([a, b], { t0: T0, odoFactor: 1.02 });
  const got = byCode(run(track).fragments, idx.codes);
  assert.ok(within(got.AA, 1.02 * km(a, [40.5, -99])));
  assert.ok(within(got.BB, 1.02 * km([40.5, -99], b)));
  close(got.AA + got.BB, odoSpan(track));
});

test('a coarse odometer (1 km steps) still splits at the border, within 0.5 %', () => {
  const a: LatLon = [40.5, -99.5],
    b: LatLon = [40.5, -98.5];
  const { track } = along([a, b], { t0: T0, odoStepKm: 1 });
  const got = byCode(run(track).fragments, idx.codes);
  assert.ok(within(got.AA, km(a, [40.5, -99])), `AA ${got.AA}`);
  // The last reading lags the truth by less than one step: so does BB, and the sum is the odometer's.
  assert.ok(km([40.5, -99], b) - got.BB < 1 && km([40.5, -99], b) - got.BB >= 0, `BB ${got.BB}`);
  close(got.AA + got.BB, odoSpan(track));
});

test('without an odometer the GPS distance is used', () => {
  const a: LatLon = [40.5, -99.5],
    b: LatLon = [40.5, -98.5];
  const built = along([a, b], { t0: T0, noOdo: true });
  const r = run(built.track);
  assert.ok(within(sum(r.fragments), built.km, 0.0005));
  assert.ok(r.fragments.every((f) => Number.isNaN(f.startOdo)));
});

test('an odometer that jumps back (reset) or stays stuck while moving falls back to GPS for that stretch', () => {
  const a: LatLon = [40.5, -99.5],
    b: LatLon = [40.5, -99.1],
    c: LatLon = [40.5, -98.5];
  const first = along([a, b], { t0: T0 });
  const second = along([b, c], { t0: first.track.t[first.track.n - 1] + 10_000, odo0: 5 });
  const reset = run(concat(first.track, second.track));
  assert.ok(within(sum(reset.fragments), first.km + second.km, 0.002), `reset ${sum(reset.fragments)}`);
  const stuck = along([a, c], { t0: T0 });
  for (let i = 0; i < stuck.track.n; i++)
    if (stuck.track.lon[i] > -99.3) stuck.track.odo[i] = Math.min(stuck.track.odo[i], stuck.track.odo[0] + 17);
  const r = run(stuck.track);
  assert.ok(within(sum(r.fragments), stuck.km, 0.01), `stuck ${sum(r.fragments)} vs ${stuck.km}`);
});

test('points just outside every polygon snap to the nearest jurisdiction within 2 km; farther ones stay unplaced', () => {
  // 1.1 km south of AA and BB: snapped.
  const near = along(
    [
      [39.99, -99.5],
      [39.99, -98.5],
    ],
    { t0: T0 },
  );
  const g1 = byCode(run(near.track).fragments, idx.codes);
  assert.ok(within(g1.AA, km([39.99, -99.5], [39.99, -99])));
  assert.ok(within(g1.BB, km([39.99, -99], [39.99, -98.5])));
  assert.equal(g1['--'], undefined);
  // 3.3 km out: unplaced, but still counted.
  const far = along(
    [
      [39.97, -99.5],
      [39.97, -98.5],
    ],
    { t0: T0 },
  );
  const r = run(far.track);
  const g2 = byCode(r.fragments, idx.codes);
  assert.deepEqual(Object.keys(g2), ['--']);
  close(g2['--'], odoSpan(far.track));
});

test('a lake the data leaves out, crossed and left on the same side, belongs to that jurisdiction', () => {
  const { track } = along(
    [
      [41, -96.8],
      [41, -95.2],
    ],
    { t0: T0 },
  );
  const got = byCode(run(track).fragments, idx.codes);
  assert.deepEqual(Object.keys(got), ['DD']);
  close(got.DD, odoSpan(track));
  // Out to sea and not back: the sea part stays unplaced.
  const out = along(
    [
      [40.5, -99.5],
      [39.5, -99.5],
    ],
    { t0: T0 },
  );
  const g = byCode(run(out.track).fragments, idx.codes);
  assert.ok(within(g.AA, km([40.5, -99.5], [40, -99.5]) + 2, 0.05), `AA ${g.AA}`);
  assert.ok(g['--'] > 50);
  close(g.AA + g['--'], odoSpan(out.track));
});

test('a gap with an odometer advance: its distance is split along the straight line and flagged; without an odometer nothing is invented', () => {
  const p1: LatLon = [40.5, -99.8],
    p2: LatLon = [40.5, -99.5],
    p3: LatLon = [40.5, -98.7],
    p4: LatLon = [40.5, -98.4];
  const first = along([p1, p2], { t0: T0 });
  const gapKm = km(p2, p3) * 1.1;
  const second = along([p3, p4], {
    t0: first.track.t[first.track.n - 1] + 40 * 60_000,
    odo0: first.track.odo[first.track.n - 1] + gapKm,
  });
  const tr = concat(first.track, second.track);
  const r = run(tr);
  assert.equal(r.gaps, 1);
  const got = byCode(r.fragments, idx.codes);
  const share = km(p2, [40.5, -99]) / km(p2, p3);
  assert.ok(within(got.AA, first.km + gapKm * share), `AA ${got.AA}`);
  assert.ok(within(got.BB, second.km + gapKm * (1 - share)), `BB ${got.BB}`);
  close(sum(r.fragments), odoSpan(tr));
  close(
    r.fragments.reduce((s, f) => s + f.gapKm, 0),
    gapKm,
  );

  const noOdo = concat(
    along([p1, p2], { t0: T0, noOdo: true }).track,
    along([p3, p4], { t0: first.track.t[first.track.n - 1] + 40 * 60_000, noOdo: true }).track,
  );
  const r2 = run(noOdo);
  assert.equal(r2.gapsWithoutDistance, 1);
  assert.ok(within(sum(r2.fragments), first.km + second.km, 0.001));
});

test('a gap whose odometer advance is shorter than the straight line between its ends adds nothing', () => {
  const first = along(
    [
      [40.5, -99.8],
      [40.5, -99.6],
    ],
    { t0: T0 },
  );
  const second = along(
    [
      [41.5, -98.5],
      [41.5, -98.3],
    ],
    { t0: first.track.t[first.track.n - 1] + 6 * 3_600_000, odo0: first.track.odo[first.track.n - 1] + 40 },
  );
  const r = run(concat(first.track, second.track));
  assert.equal(r.gapsWithoutDistance, 1);
  assert.ok(within(sum(r.fragments), first.km + second.km, 0.001));
  assert.equal(
    r.fragments.reduce((s, f) => s + f.gapKm, 0),
    0,
  );
});

test('a gap whose two ends are in the same jurisdiction goes to it whole, even if the straight line leaves it', () => {
  const p1: LatLon = [40.2, -99.7],
    p2: LatLon = [40.2, -99.6],
    p3: LatLon = [40.2, -99.2],
    p4: LatLon = [40.2, -99.1];
  const first = along([p1, p2], { t0: T0 });
  const second = along([p3, p4], {
    t0: first.track.t[first.track.n - 1] + 3 * 3_600_000,
    odo0: first.track.odo[first.track.n - 1] + 120,
  });
  const got = byCode(run(concat(first.track, second.track)).fragments, idx.codes);
  assert.deepEqual(Object.keys(got), ['AA']);
  assert.ok(within(got.AA, first.km + second.km + 120));
});

test('cleaning drops an isolated jump and repeated timestamps', () => {
  const a: LatLon = [40.5, -99.5],
    b: LatLon = [40.5, -98.5];
  const { track } = along([a, b], { t0: T0, noOdo: true });
  const base = run(track);
  const i = 100;
  const spiked = insertPoint(track, i, { t: (track.t[i - 1] + track.t[i]) / 2, lat: 41.5, lon: -99.2, odo: NaN });
  const dup = insertPoint(spiked, 50, { t: spiked.t[49], lat: 40.7, lon: -99.4, odo: NaN });
  const r = run(dup);
  assert.equal(r.dropped, 2);
  close(sum(r.fragments), sum(base.fragments), 1e-9);
  assert.equal(byCode(r.fragments, idx.codes).CC, undefined);
});

test('fragments are cut at 15-minute buckets and owner days; a day computed alone equals the same day computed with its neighbours', () => {
  const start = Date.parse('2024-02-05T23:20:00Z');
  const { track } = along(
    [
      [40.5, -99.9],
      [40.5, -98.1],
      [41.5, -98.1],
    ],
    { t0: start, kph: 80 },
  );
  const whole = run(track);
  for (const f of whole.fragments) {
    assert.equal(f.bucketStart % (15 * 60_000), 0);
    assert.ok(f.startT >= f.bucketStart && f.endT <= f.bucketStart + 15 * 60_000 + 1e-6);
  }
  const midnight = Date.parse('2024-02-06T00:00:00Z');
  const owners = new Set(whole.fragments.map((f) => f.owner));
  assert.deepEqual([...owners], [Math.floor(start / 86_400_000), midnight / 86_400_000]);
  close(sum(whole.fragments), odoSpan(track));
  // Day 2 alone, from the points the store loads for it (test/domain/ifta/periods.test.ts has more).
  const ctx = asLoaded(track, midnight, midnight + 86_400_000, DEFAULT_RULES);
  assert.ok(ctx.t[0] < midnight);
  const alone = run(ctx, { fromT: midnight, toT: midnight + 86_400_000 });
  const day2 = whole.fragments.filter((f) => f.owner === midnight / 86_400_000);
  assert.equal(alone.fragments.length, day2.length);
  alone.fragments.forEach((f, i) => {
    assert.equal(f.j, day2[i].j);
    close(f.distanceKm, day2[i].distanceKm, 1e-9);
  });
});
