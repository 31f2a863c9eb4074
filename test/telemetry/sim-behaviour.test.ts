/**
 * What the simulator's trucks do over two simulated days, read from the records they would send: legs
 * between real cities over state and provincial lines, logins and logouts, warm-up and stop idling,
 * hard brakes, speeding, faults raised and cleared or left to expire, fuel stops; counters that never
 * run backwards; the same stream for the same seed however the clock is sliced. The thresholds are the
 * processors' defaults, so that what is checked here is what the server will see as an event.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SimVehicle, type SimRecord } from '../../src/sim/vehicle.js';
import { simCities } from '../../src/sim/route.js';
import { jurisdictionAt, nearestJurisdiction } from '../../src/domain/ifta/boundaries.js';
import { countryOf } from '../../src/domain/jurisdictions.js';
import { DEFAULT_THRESHOLDS as TH } from '../../src/telemetry/thresholds.js';
import { haversineM } from '../../src/telemetry/units.js';

const START = Date.parse('2026-06-01T06:00:00Z');
const HOUR = 3_600_000;
const UNTIL = START + 48 * HOUR;
const SEED = 9;
const DRIVER = 500;
/** Three trucks of seed 9: between them they cross from Canada into the US, and every one refuels and speeds. */
const TRUCKS = [0, 1, 2];

const ms = (r: SimRecord) => Date.parse(r.time);
const run = (index: number, seed = SEED, driver: number | null = DRIVER + index) =>
  new SimVehicle(index, seed, START, driver).advance(UNTIL);

interface Truck {
  index: number;
  records: SimRecord[];
  fixes: Array<
    SimRecord &
      Record<'lat' | 'lon' | 'speed_kph' | 'odometer_km' | 'engine_hours' | 'fuel_used_l' | 'fuel_level_pct', number>
  >;
}
let made: Truck[] | null = null;
const trucks = (): Truck[] =>
  (made ??= TRUCKS.map((index) => {
    const records = run(index);
    return { index, records, fixes: records.filter((r) => r.type === 'location') as Truck['fixes'] };
  }));

/** Each record with the truck's record just before it. */
const pairs = <T>(xs: T[]) => xs.slice(1).map((x, i) => [xs[i], x] as const);

test('records come in time order, each call gives exactly the steps after the last one up to its limit, and slicing the clock changes nothing', () => {
  for (const { index, records } of trucks()) {
    const v = new SimVehicle(index, SEED, START, DRIVER + index);
    const sliced: SimRecord[] = [];
    // Uneven slices, one of them shorter than a 10 s step (it yields nothing).
    for (let limit = START, k = 0; limit < UNTIL; k++) {
      const next = Math.min(UNTIL, limit + [HOUR, 7_000, 13 * 60_000 + 5_000, 3 * HOUR][k % 4]);
      const got = v.advance(next);
      for (const r of got)
        assert.ok(
          ms(r) > limit && ms(r) <= next,
          `${r.time} within (${new Date(limit).toISOString()}, ${new Date(next).toISOString()}]`,
        );
      sliced.push(...got);
      limit = next;
    }
    assert.deepEqual(sliced, records, `truck ${index}: hourly and one-shot streams differ`);
    for (const [a, b] of pairs(records)) assert.ok(ms(a) <= ms(b), `${a.time} then ${b.time}`);
    assert.ok(ms(records[records.length - 1]) <= UNTIL);
    assert.ok(records.length > 10_000, `two days of a 10 s step: ${records.length}`);
  }
});

test('the same seed gives the same stream; another seed or another truck index a different one', () => {
  const [first] = trucks();
  assert.deepEqual(run(0), first.records);
  assert.notDeepEqual(run(0, SEED + 1), first.records);
  assert.notDeepEqual(run(1, SEED, DRIVER), first.records);
});

test('odometer, engine hours and fuel used never run backwards and agree with the speed and the running time', () => {
  for (const { index, records, fixes } of trucks()) {
    for (const key of ['odometer_km', 'engine_hours', 'fuel_used_l'] as const) {
      const seen = records.filter((r) => typeof r[key] === 'number');
      for (const [a, b] of pairs(seen))
        assert.ok(
          (b[key] as number) >= (a[key] as number),
          `truck ${index} ${key}: ${a[key]} at ${a.time}, then ${b[key]} at ${b.time}`,
        );
    }
    for (const [a, b] of pairs(fixes)) {
      if (ms(b) - ms(a) !== 10_000) continue;
      // A 10 s step covers speed × 10 s; the track between the two fixes is no longer than that (no jumps).
      const km = b.odometer_km - a.odometer_km;
      assert.ok(
        Math.abs(km - (b.speed_kph * 10) / 3600) <= 0.011,
        `truck ${index} at ${b.time}: ${km} km at ${b.speed_kph} kph`,
      );
      assert.ok(haversineM(a.lat, a.lon, b.lat, b.lon) / 1000 <= km + 0.011, `truck ${index} jumps at ${b.time}`);
    }
    // Every fix is one 10 s step of a running engine.
    const hours = fixes[fixes.length - 1].engine_hours - fixes[0].engine_hours;
    assert.ok(
      Math.abs(hours - ((fixes.length - 1) * 10) / 3600) <= 0.011,
      `truck ${index}: ${hours} h for ${fixes.length} fixes`,
    );
    const km = fixes[fixes.length - 1].odometer_km - fixes[0].odometer_km;
    const litres = fixes[fixes.length - 1].fuel_used_l - fixes[0].fuel_used_l;
    assert.ok(km > 1000, `truck ${index} drove ${km} km in two days`);
    assert.ok(
      litres / km > 0.36 && litres / km < 0.45,
      `truck ${index}: ${litres / km} l/km (a class 8 truck's 5–6.5 mpg)`,
    );
  }
});

test('each leg starts at a real city with engine on and login, and ends at another one with engine off and logout', () => {
  const cities = simCities();
  const cityAt = (r: SimRecord) =>
    cities.find((c) => haversineM(r.lat as number, r.lon as number, c.lat, c.lon) <= 100);
  for (const { index, records } of trucks()) {
    const logins = records.filter((r) => r.type === 'driver');
    assert.ok(logins.length >= 6, `truck ${index}: ${logins.length} driver records`);
    let from: (typeof cities)[number] | undefined;
    let odoFrom = 0;
    for (const [i, r] of logins.entries()) {
      assert.equal(r.action, i % 2 === 0 ? 'login' : 'logout', `truck ${index} at ${r.time}`);
      assert.equal(r.driver_id, DRIVER + index);
      const k = records.indexOf(r);
      const engine = records[k - 1];
      assert.deepEqual(
        [engine.type, engine.state, engine.time],
        ['engine', r.action === 'login' ? 'on' : 'off', r.time],
        `truck ${index}: ${r.action} at ${r.time} right after the engine`,
      );
      const city = cityAt(engine);
      assert.ok(city, `truck ${index}: ${r.action} at ${engine.lat},${engine.lon} is at no city`);
      if (r.action === 'login') {
        if (i > 0) assert.equal(city, from, `truck ${index} starts where it arrived`);
        [from, odoFrom] = [city, engine.odometer_km as number];
        continue;
      }
      assert.notEqual(city, from, `truck ${index}: a leg from ${from!.name} to itself`);
      const straight = haversineM(from!.lat, from!.lon, city.lat, city.lon) / 1000;
      const driven = (engine.odometer_km as number) - odoFrom;
      assert.ok(
        driven >= straight - 0.1 && driven <= straight * 1.5,
        `truck ${index}: ${from!.name} → ${city.name}: ${driven} km for ${straight} km as the crow flies`,
      );
      from = city;
    }
  }
  // Without a driver the truck drives the same trips and sends no driver records.
  const [first] = trucks();
  assert.deepEqual(
    run(0, SEED, null),
    first.records.filter((r) => r.type !== 'driver'),
  );
});

test('trucks idle with the engine on at standstill for longer than IDLE_THRESHOLD_S, warming up and before the engine stops', () => {
  const ends = new Set<string>();
  for (const { index, records } of trucks()) {
    let from: number | null = null;
    let longest = 0;
    for (const r of records) {
      if (r.type === 'engine') {
        if (r.state === 'off' && from !== null && ms(r) - from >= TH.idleThresholdS * 1000) ends.add('engine_stop');
        from = r.state === 'on' ? ms(r) : null;
      } else if (r.type === 'location' && from !== null && (r.speed_kph as number) > TH.idleSpeedKph) {
        if (ms(r) - from >= TH.idleThresholdS * 1000) ends.add('vehicle_moving');
        longest = Math.max(longest, ms(r) - from);
        from = null;
      } else if (r.type === 'location' && from === null && (r.speed_kph as number) <= TH.idleSpeedKph) {
        from = ms(r);
      }
    }
    assert.ok(
      longest >= TH.idleThresholdS * 1000,
      `truck ${index}: longest idle before moving off ${longest / 1000} s`,
    );
  }
  assert.deepEqual([...ends].sort(), ['engine_stop', 'vehicle_moving']);
});

test('the tank is filled at a stop with the engine off, and the level only falls otherwise', () => {
  for (const { index, records, fixes } of trucks()) {
    let fills = 0;
    for (const [a, b] of pairs(fixes)) {
      if (b.fuel_level_pct <= a.fuel_level_pct) continue;
      fills++;
      const between = records
        .slice(records.indexOf(a), records.indexOf(b))
        .filter((r) => r.type === 'engine')
        .map((r) => r.state);
      assert.deepEqual(
        between,
        ['off', 'on'],
        `truck ${index}: fuel ${a.fuel_level_pct} → ${b.fuel_level_pct} % at ${b.time} without a stop`,
      );
      assert.ok(
        b.fuel_level_pct - a.fuel_level_pct >= 30,
        `truck ${index}: a fill of ${b.fuel_level_pct - a.fuel_level_pct} points`,
      );
    }
    assert.ok(fills >= 1, `truck ${index} never refuels`);
  }
});

test("hard brakes beyond HARD_BRAKE_G at highway speed, the truck slowing to the brake's end speed", () => {
  for (const { index, records } of trucks()) {
    const brakes = records.filter((r) => r.type === 'acceleration');
    assert.ok(brakes.length >= 3, `truck ${index}: ${brakes.length} hard brakes in two days`);
    for (const b of brakes) {
      assert.ok((b.longitudinal_g as number) <= -TH.hardBrakeG, `${b.longitudinal_g} g`);
      assert.ok(
        (b.speed_kph as number) >= TH.harshMinSpeedKph && (b.end_speed_kph as number) < (b.speed_kph as number),
      );
      const fix = records.find((r) => r.type === 'location' && r.time === b.time);
      assert.equal(fix?.speed_kph, b.end_speed_kph, `truck ${index}: the fix at the brake ${b.time}`);
    }
  }
});

test('speeding above SPEEDING_KPH for at least SPEEDING_MIN_S, never faster than 130 kph', () => {
  for (const { index, fixes } of trucks()) {
    let stretches = 0;
    let since: number | null = null;
    for (const f of fixes) {
      assert.ok(f.speed_kph <= 130, `truck ${index}: ${f.speed_kph} kph at ${f.time}`);
      if (f.speed_kph <= TH.speedingKph) since = null;
      else if (since === null) since = ms(f);
      else if (ms(f) - since === TH.speedingMinS * 1000) stretches++;
    }
    assert.ok(stretches >= 2, `truck ${index}: ${stretches} speeding stretches`);
  }
});

test('faults are broadcast every minute while active, then cleared or left to expire', () => {
  let cleared = 0;
  let expired = 0;
  for (const { index, records } of trucks()) {
    const faults = records.filter((r) => r.type === 'fault');
    const key = (r: SimRecord) => String(r.code ?? `${r.spn}/${r.fmi}/${r.source_address}`);
    let open = null as { key: string; last: number } | null;
    for (const r of faults) {
      if (r.status === 'cleared') {
        assert.equal(key(r), open?.key, `truck ${index}: clears ${key(r)} at ${r.time}, which is not active`);
        assert.ok(ms(r) > open!.last);
        cleared++;
        open = null;
        continue;
      }
      assert.equal(r.status, 'active');
      if (open && open.key === key(r)) {
        assert.ok(
          ms(r) - open.last >= 60_000,
          `truck ${index}: ${key(r)} reported ${(ms(r) - open.last) / 1000} s after the last report`,
        );
      } else if (open) {
        expired++;
      }
      open = { key: key(r), last: ms(r) };
    }
    // Back-to-back reports of a fault come exactly a minute apart while the truck drives on.
    const gaps = pairs(faults)
      .filter(([a, b]) => a.status === 'active' && key(a) === key(b))
      .map(([a, b]) => ms(b) - ms(a));
    assert.ok(gaps.filter((g) => g === 60_000).length >= 5, `truck ${index}: gaps ${gaps.slice(0, 10)}`);
  }
  assert.ok(cleared >= 2, `${cleared} faults cleared`);
  assert.ok(expired >= 1, `${expired} faults left to expire`);
});

test('every fix is in a US state or a Canadian province, and the trucks cross state, provincial and national lines', () => {
  const lines = new Set<string>();
  for (const { index, fixes } of trucks()) {
    let crossings = 0;
    let before: string | null = null;
    for (const f of fixes) {
      // On the border a point may fall between the generalised outlines: snapped as IFTA snaps it.
      const here = jurisdictionAt(f.lat, f.lon) ?? nearestJurisdiction(f.lat, f.lon)?.code;
      assert.ok(here, `truck ${index}: ${f.lat},${f.lon} at ${f.time} is outside the US and Canada`);
      if (before !== null && here !== before) {
        crossings++;
        lines.add(`${before}-${here}`);
      }
      before = here;
    }
    assert.ok(crossings >= 1, `truck ${index} stays in ${before}`);
  }
  const international = [...lines].filter((l) => countryOf(l.slice(0, 2)) !== countryOf(l.slice(3)));
  assert.ok(lines.size >= 5, [...lines].join(' '));
  assert.ok(international.length >= 1, `US–Canada crossings: ${international.join(' ')}`);
});

test('now and then the gateway is unplugged at a rest stop with the engine off, and plugged back in before the engine starts', () => {
  let unplugged = 0;
  for (const { index, records } of trucks()) {
    const power = records.filter((r) => r.type === 'power');
    // The run's first engine start reports the gateway connected (so a run stopped while it was out ends it).
    const firstEngine = records.findIndex((r) => r.type === 'engine');
    assert.deepEqual(
      [records[firstEngine - 1].type, records[firstEngine - 1].state, records[firstEngine - 1].time],
      ['power', 'connected', records[firstEngine].time],
    );
    for (const [a, b] of pairs(power)) {
      assert.notEqual(a.state, b.state, `truck ${index}: ${a.state} twice, at ${a.time} and ${b.time}`);
    }
    for (const r of power.slice(1)) {
      const k = records.indexOf(r);
      if (r.state === 'disconnected') {
        unplugged++;
        // Right after the engine stops, at a rest stop: no logout (the leg goes on).
        assert.deepEqual(
          [records[k - 1].type, records[k - 1].state, records[k - 1].time],
          ['engine', 'off', r.time],
          `truck ${index} at ${r.time}`,
        );
        assert.notEqual(records[k + 1]?.type, 'driver', `truck ${index}: unplugged at the end of a leg`);
      } else {
        assert.deepEqual(
          [records[k + 1].type, records[k + 1].state, records[k + 1].time],
          ['engine', 'on', r.time],
          `truck ${index} at ${r.time}`,
        );
        assert.deepEqual([records[k + 1].lat, records[k + 1].lon], [r.lat, r.lon]);
      }
    }
    // Plugged back in when the rest (15–30 min) ends: only one at the end of the two days may still be out.
    const last = power[power.length - 1];
    if (last.state === 'disconnected')
      assert.ok(UNTIL - ms(last) <= 30 * 60_000, `truck ${index} is left unplugged from ${last.time}`);
  }
  assert.ok(unplugged >= 2, `${unplugged} unplugged gateways in two days of three trucks`);
});
