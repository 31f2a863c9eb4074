/**
 * The stationary rule on the rectangle fixture (tracks.ts): a parked hour of 1-second fixes with 8 m
 * of GPS error (per axis) adds nothing whatever the fixes report (speed 0, no speed, engine off with a
 * noisy speed, an accuracy), where summing fix to fix gave about 32 miles; a yard crawl at 5 km/h
 * still counts; a drive is unchanged; with an odometer the odometer still rules, and the distance of
 * the odometer step after a stop is no longer spread over the parked jitter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allocate, DEFAULT_RULES } from '../../../src/domain/ifta/allocate.js';
import { KM_PER_MI } from '../../../src/telemetry/units.js';
import { along, concat, fixtureIndex, km, odoSpan, parked, sum, withSpeed, type LatLon } from './tracks.js';

const idx = fixtureIndex();
const T0 = Date.parse('2024-02-05T13:00:00Z');
const HOUR = 3600;
const OFF = { ...DEFAULT_RULES, stillRadiusM: 0, stoppedRadiusM: 0 };
const run = (tr: Parameters<typeof allocate>[0], rules = DEFAULT_RULES) => allocate(tr, idx, rules);
const miles = (tr: Parameters<typeof allocate>[0], rules = DEFAULT_RULES) => sum(run(tr, rules).fragments) / KM_PER_MI;
const P: LatLon = [40.5, -99.5];

test('a parked hour of 1-second fixes with 8 m of error adds nothing (it added about 32 miles summed fix to fix)', () => {
  const plain = parked(P, { t0: T0, seconds: HOUR, sigmaM: 8 });
  const phantom = miles(plain, OFF);
  assert.ok(phantom > 30 && phantom < 34, `without the rule: ${phantom} mi`);
  const cases: Record<string, Parameters<typeof parked>[1]> = {
    'speed 0': { t0: T0, seconds: HOUR, sigmaM: 8, speed: 0 },
    'no speed': { t0: T0, seconds: HOUR, sigmaM: 8 },
    'speed noise up to 3 km/h': { t0: T0, seconds: HOUR, sigmaM: 8, speed: (i) => ((i * 7919) % 31) / 10 },
    'engine off, speed noise up to 6 km/h': {
      t0: T0,
      seconds: HOUR,
      sigmaM: 8,
      engineOff: true,
      speed: (i) => ((i * 7919) % 61) / 10,
    },
    'accuracy 8 m, no speed': { t0: T0, seconds: HOUR, sigmaM: 8, accuracyM: 8 },
    '10 m of error, no speed': { t0: T0, seconds: HOUR, sigmaM: 10 },
    '25 m of error, speed 0': { t0: T0, seconds: HOUR, sigmaM: 25, speed: 0 },
  };
  for (const [name, o] of Object.entries(cases)) {
    for (const seed of [1, 2, 3, 4, 5]) {
      const got = miles(parked(P, { ...o, seed }));
      assert.ok(got <= 0.01, `${name}, seed ${seed}: ${got} mi`);
    }
  }
  // A noisier receiver that reports neither a speed nor an accuracy may still leak some (the 50 m radius is
  // for errors up to about 10 m); with its accuracy reported (25 m of error, 37.5 m at 68 %) a few tens of metres at most.
  for (const seed of [1, 2, 3, 4, 5]) {
    const got = miles(parked(P, { t0: T0, seconds: HOUR, sigmaM: 25, accuracyM: 37.5, seed }));
    assert.ok(got <= 0.03, `25 m of error, accuracy reported, seed ${seed}: ${got} mi`);
  }
});

test('a fix reporting a speed above 3 km/h always counts: parked fixes claiming 20 km/h are counted as before', () => {
  const moving = parked(P, { t0: T0, seconds: 600, sigmaM: 8, speed: 20 });
  assert.equal(miles(moving), miles(moving, OFF));
});

test('a yard crawl at 5 km/h over 1 km counts: exactly with its speed reported, in chords without it', () => {
  const a: LatLon = [40.5, -99.5];
  const b: LatLon = [40.5, -99.5 + 1 / 84.8];
  for (const everyS of [1, 10]) {
    const crawl = along([a, b], { t0: T0, everyS, kph: 5, noOdo: true });
    assert.ok(Math.abs(crawl.km - 1) < 0.01);
    const exact = sum(run(crawl.track, OFF).fragments);
    assert.ok(Math.abs(exact - crawl.km) < 1e-9);
    assert.equal(sum(run(withSpeed(crawl.track, 5)).fragments), exact, `${everyS} s, speed 5`);
    // Without a speed, then driving on: the chords of a straight crawl add up to it; only the last
    // stretch of the data, within 100 m of the last counted point, waits for a move that never comes.
    const on = along([b, [40.5, -99.3]], {
      t0: crawl.track.t[crawl.track.n - 1] + everyS * 1000,
      everyS,
      kph: 60,
      noOdo: true,
    });
    const both = sum(run(concat(crawl.track, on.track)).fragments);
    const want = crawl.km + on.km;
    assert.ok(both <= want + 1e-9 && both >= want - 0.1, `${everyS} s, no speed, then on: ${both} vs ${want}`);
    const last = on.track.n - 1;
    const end = { ...on.track, t: on.track.t.slice(), speed: new Float64Array(on.track.n).fill(NaN) };
    end.speed[last] = 60;
    assert.ok(
      Math.abs(sum(run(concat(crawl.track, end)).fragments) - want) < 1e-9,
      'a last fix with its speed counts everything',
    );
    // Without a speed, then parked: at most the last 100 m wait for the vehicle to move on.
    const park = parked(b, { t0: crawl.track.t[crawl.track.n - 1] + everyS * 1000, seconds: 1800, sigmaM: 3 });
    const stopped = sum(run(concat(crawl.track, park)).fragments);
    assert.ok(
      stopped >= crawl.km - 0.1 && stopped <= crawl.km + 0.01,
      `${everyS} s, no speed, then parked: ${stopped}`,
    );
  }
});

test('a drive is unchanged: 10-second and 1-second fixes, with or without a speed', () => {
  const route: LatLon[] = [
    [40.2, -99.8],
    [40.8, -99.3],
    [40.5, -98.4],
  ];
  for (const everyS of [10, 1]) {
    const d = along(route, { t0: T0, everyS, kph: 90, noOdo: true });
    const before = run(d.track, OFF);
    assert.deepEqual(run(withSpeed(d.track, 90)).fragments, before.fragments, `${everyS} s with a speed`);
    if (everyS === 10) assert.deepEqual(run(d.track).fragments, before.fragments, '10 s without a speed');
    else {
      // 25 m apart without a speed: counted in chords of at most 100 m, a bend costs less than 0.01 %.
      const got = sum(run(d.track).fragments);
      assert.ok(Math.abs(got - sum(before.fragments)) <= 1e-4 * sum(before.fragments), `1 s without a speed: ${got}`);
    }
  }
});

test('stop and go without an odometer: the stop adds nothing, both drives count in full', () => {
  const a: LatLon = [40.5, -99.8],
    b: LatLon = [40.5, -99.7],
    c: LatLon = [40.5, -99.55];
  const first = along([a, b], { t0: T0, noOdo: true });
  const stop = parked(b, { t0: first.track.t[first.track.n - 1] + 1000, seconds: HOUR, sigmaM: 8, speed: 0 });
  const second = along([b, c], { t0: stop.t[stop.n - 1] + 1000, noOdo: true });
  const tr = concat(withSpeed(first.track, 90), stop, withSpeed(second.track, 90));
  const got = sum(run(tr).fragments);
  assert.ok(Math.abs(got - (first.km + second.km)) < 1e-9, `${got} vs ${first.km + second.km}`);
});

test('with an odometer the odometer rules: a parked hour adds 0, a trip its odometer advance, and a coarse step after a stop is placed on the road', () => {
  const still = parked(P, { t0: T0, seconds: HOUR, sigmaM: 8, odo: 1234.5 });
  assert.equal(sum(run(still).fragments), 0);
  assert.equal(sum(run(still, OFF).fragments), 0);
  // Drive, an hour parked, drive on, with a 1 km-step odometer.
  const a: LatLon = [40.5, -99.9],
    b: LatLon = [40.5, -99.75],
    c: LatLon = [40.5, -99.6];
  const first = along([a, b], { t0: T0, odoStepKm: 1 });
  const lastOdo = first.track.odo[first.track.n - 1];
  const stop = parked(b, { t0: first.track.t[first.track.n - 1] + 1000, seconds: HOUR, sigmaM: 8, odo: lastOdo });
  const second = along([b, c], { t0: stop.t[stop.n - 1] + 1000, odoStepKm: 1, odo0: 1000 + first.km });
  const tr = concat(first.track, stop, second.track);
  for (const rules of [DEFAULT_RULES, OFF]) assert.ok(Math.abs(sum(run(tr, rules).fragments) - odoSpan(tr)) < 1e-9);
  const inStop = (rules: typeof DEFAULT_RULES) =>
    run(tr, rules)
      .fragments.filter((f) => f.endT > stop.t[1] && f.startT < stop.t[stop.n - 2])
      .reduce((s, f) => s + f.distanceKm, 0);
  assert.ok(inStop(OFF) > 0.5, `without the rule the step after the stop lands in it: ${inStop(OFF)}`);
  assert.equal(inStop(DEFAULT_RULES), 0);
});
