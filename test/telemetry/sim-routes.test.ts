/**
 * The simulator's legs: between real cities 150–650 km apart, on a path that stays in a US state or
 * Canadian province (within the IFTA snap distance: no Mexico, no open water — the Great Lakes and the
 * large bays and sounds that lie inside the outlines — though bridges over them are open) and runs
 * longer than the straight line as roads do.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drivable, onLand, planLeg, planRoute, simCities, type City } from '../../src/sim/route.js';
import { SimVehicle } from '../../src/sim/vehicle.js';
import { waterCoreAt } from '../../src/sim/water.js';
import { Prng } from '../../src/demo/random.js';
import { jurisdictionAt } from '../../src/domain/ifta/boundaries.js';
import { haversineM } from '../../src/telemetry/units.js';

const city = (name: string) => simCities().find((c) => c.name === name)!;
const directKm = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
  haversineM(a.lat, a.lon, b.lat, b.lon) / 1000;

/** The straight line from a to b as a route (points every 1 % of it). */
const straight = (a: City, b: City) => ({
  from: a,
  to: b,
  lengthKm: directKm(a, b),
  points: Array.from({ length: 101 }, (_, i) => ({
    lat: a.lat + ((b.lat - a.lat) * i) / 100,
    lon: a.lon + ((b.lon - a.lon) * i) / 100,
    km: (directKm(a, b) * i) / 100,
  })),
});
const at = (name: string, lat: number, lon: number): City => ({ name, region: '', lat, lon });

test('a leg never takes the straight line across a lake or through Mexico', () => {
  assert.equal(onLand(straight(city('Cleveland'), city('Toronto'))), false, 'across Lake Erie');
  assert.equal(onLand(straight(city('San Diego'), city('Tucson'))), false, 'through Mexico');
  for (const from of ['Cleveland', 'San Diego', 'Chesapeake', 'New Orleans', 'Vancouver', 'Detroit']) {
    const rng = new Prng(7);
    for (let i = 0; i < 25; i++) {
      const leg = planLeg(city(from), rng);
      assert.ok(onLand(leg), `${from} → ${leg.to.name}`);
    }
  }
});

test('a straight line across a bay or sound inside a state is refused; one along a bridge over it is not', () => {
  const across: Array<[string, City, City]> = [
    ['Chesapeake Bay', at('Calvert County, MD', 38.6, -76.55), at('Taylors Island, MD', 38.6, -76.2)],
    ['Delaware Bay', at('Bowers, DE', 39.1, -75.45), at('Dennis, NJ', 39.1, -74.9)],
    ['Long Island Sound', at('New Haven, CT', 41.27, -72.93), at('Port Jefferson, NY', 40.95, -73.07)],
    ['Puget Sound', at('Seattle, WA', 47.6, -122.33), at('Bremerton, WA', 47.57, -122.63)],
    ['San Francisco Bay', at('San Francisco, CA', 37.77, -122.42), at('Oakland Airport, CA', 37.71, -122.22)],
    ['Lake Pontchartrain, east', at('New Orleans, LA', 29.95, -90.07), at('Mandeville, LA', 30.36, -90.07)],
  ];
  for (const [water, a, b] of across) {
    const route = straight(a, b);
    // The water is inside a state in the boundary data: only the core tells it from land.
    assert.ok(
      route.points.every((p) => jurisdictionAt(p.lat, p.lon) !== null),
      `${a.name} → ${b.name} lies in the outlines`,
    );
    assert.ok(
      route.points.some((p) => waterCoreAt(p.lat, p.lon) === water),
      `${a.name} → ${b.name} meets ${water}`,
    );
    assert.equal(onLand(route), false, `${a.name} → ${b.name} across ${water}`);
  }
  const bridges: Array<[string, City, City]> = [
    ['Chesapeake Bay Bridge', at('Sandy Point, MD', 39.012, -76.4), at('Kent Island, MD', 38.978, -76.33)],
    ['Chesapeake Bay Bridge-Tunnel', at('Virginia Beach, VA', 36.922, -76.118), at('Cape Charles, VA', 37.11, -75.97)],
    ['Lake Pontchartrain Causeway', at('Metairie, LA', 30.025, -90.152), at('Mandeville, LA', 30.36, -90.092)],
    ['San Francisco–Oakland Bay Bridge', at('San Francisco, CA', 37.788, -122.39), at('Oakland, CA', 37.825, -122.315)],
    ['San Mateo Bridge', at('Foster City, CA', 37.585, -122.255), at('Hayward, CA', 37.615, -122.15)],
    ['Tacoma Narrows Bridge', at('Tacoma, WA', 47.27, -122.55), at('Gig Harbor, WA', 47.268, -122.56)],
  ];
  for (const [bridge, a, b] of bridges) assert.equal(onLand(straight(a, b)), true, bridge);
  assert.equal(drivable(31.69, -106.42), false, 'Ciudad Juárez, in Mexico');
  assert.equal(drivable(31.7619, -106.485), true, 'El Paso');
});

test('cities no truck could reach or leave by road are not route ends', () => {
  const names = simCities().map((c) => `${c.name}, ${c.region}`);
  for (const island of ['Honolulu, HI', 'Anchorage, AK', 'Victoria, BC']) assert.ok(!names.includes(island), island);
  for (const city of ['New York City, NY', 'Toronto, ON', 'Chicago, IL', 'Vancouver, BC', 'Miami, FL'])
    assert.ok(names.includes(city), city);
});

test('every leg from the 40 cities the trucks start from stays on land, 150–650 km, about 1.15 times the straight line', () => {
  const ratios: number[] = [];
  for (let seed = 1; seed <= 10; seed++) {
    const rng = new Prng(seed);
    for (const from of simCities().slice(0, 40)) {
      const leg = planLeg(from, rng);
      const km = directKm(from, leg.to);
      assert.ok(km >= 150 && km <= 650, `${from.name} → ${leg.to.name}: ${km.toFixed(0)} km`);
      assert.ok(onLand(leg), `${from.name} → ${leg.to.name} leaves the land`);
      assert.deepEqual(
        [leg.points[0].lat, leg.points[0].lon, leg.points.at(-1)!.lat, leg.points.at(-1)!.lon],
        [from.lat, from.lon, leg.to.lat, leg.to.lon],
      );
      for (let i = 1; i < leg.points.length; i++) assert.ok(leg.points[i].km - leg.points[i - 1].km <= 5.5);
      ratios.push(leg.lengthKm / km);
    }
  }
  ratios.sort((a, b) => a - b);
  const median = ratios[ratios.length >> 1];
  assert.ok(ratios[0] >= 1 && ratios.at(-1)! < 1.5, `ratios ${ratios[0]}–${ratios.at(-1)}`);
  assert.ok(median > 1.1 && median < 1.2, `median ${median}`);
});

test('the demo trucks (seed 2024) report no fix outside the US and Canada, nor on open water, in two days', () => {
  const start = Date.parse('2026-01-05T00:00:00Z');
  for (let i = 0; i < 8; i++) {
    const fixes = new SimVehicle(i, 2024, start, null)
      .advance(start + 48 * 3_600_000)
      .filter((r) => r.type === 'location');
    assert.ok(fixes.length > 1000);
    const off = fixes.filter((r) => !drivable(r.lat as number, r.lon as number));
    assert.deepEqual(
      off.map((r) => `${r.time} ${r.lat},${r.lon}`),
      [],
      `truck ${i}`,
    );
  }
});

test('a route is a pure function of its ends and the PRNG', () => {
  const [a, b] = [city('Chicago'), city('Indianapolis')];
  assert.deepEqual(planRoute(a, b, new Prng(3)), planRoute(a, b, new Prng(3)));
  assert.notDeepEqual(planRoute(a, b, new Prng(3)).points, planRoute(a, b, new Prng(4)).points);
});
