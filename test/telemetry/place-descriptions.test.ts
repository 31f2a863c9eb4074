/**
 * Location descriptions from the bundled city list ("3.2 mi SE of Springfield, IL", docs/reference/wire.md §4.4,
 * docs/reference/domain-rules.md §2.2): the nearest place of 5,000+ inhabitants, from the same country when the point is
 * in the US or Canada, never over a network.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describePlace } from '../../src/telemetry/geocode/places.js';

const d = (lat: number, lon: number) => {
  const p = describePlace(lat, lon);
  return p && [p.description, p.city, p.state, p.match];
};

test('a place itself within half a mile; otherwise distance, compass direction and the place', () => {
  assert.deepEqual(d(39.80172, -89.64371), ['Springfield, IL', 'Springfield', 'IL', true]);
  const south = describePlace(39.75, -89.64371)!;
  assert.equal(
    south.description,
    `${(Math.round((south.distanceKm / 1.609344) * 10) / 10).toFixed(1)} mi S of Springfield, IL`,
  );
});

test("across a border: described from a place of the point's own country", () => {
  // Downtown Detroit is 3.7 km from Windsor's centre: each side is described from its own city.
  assert.deepEqual(d(42.3314, -83.0458), ['Detroit, MI', 'Detroit', 'MI', true]);
  assert.deepEqual(d(42.30008, -83.01654), ['Windsor, ON', 'Windsor', 'ON', true]);
  // Near the border the boundary data (1:10M) is not trusted: the Renaissance Center, which it puts in
  // Ontario, and Prospect Point at Niagara Falls keep their nearest place, on the US side.
  assert.deepEqual(d(42.3293, -83.0398), ['Detroit, MI', 'Detroit', 'MI', true]);
  assert.match(describePlace(43.0845, -79.0673)!.description, /^0\.\d mi [NESW]{1,2} of Niagara Falls, NY$/);
  // Near Columbus, NM the nearest town of 5,000 is Puerto Palomas in Mexico; the point is in New Mexico.
  const nm = describePlace(31.827491, -107.333967)!;
  assert.equal(nm.state, 'NM');
  assert.match(nm.description, /^\d+\.\d mi [NESW]{1,2} of Deming, NM$/);
  // In Mexico, a Mexican place (its country code as the state).
  assert.equal(describePlace(31.7, -106.45)!.state, 'MX');
  // Mexico has an outline: west of Ciudad Juárez, where the nearest town of 5,000 is Sunland Park, NM,
  // a point is described from Juárez; downtown El Paso, 1 km from the river, is El Paso.
  assert.match(describePlace(31.7, -106.6)!.description, /^\d+\.\d mi W of Juárez, MX$/);
  assert.deepEqual(d(31.7587, -106.4869), ['El Paso, TX', 'El Paso', 'TX', true]);
});

test('far from every place: no description', () => {
  assert.equal(describePlace(0, -140), null);
});
