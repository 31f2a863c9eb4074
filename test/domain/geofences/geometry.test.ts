/** Pure rules: geofence geometry (validation, containment, bounds) and the jurisdiction code table. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  boundsOf,
  checkPolygon,
  circleProblem,
  contains,
  distanceM,
  inBounds,
  ringVertices,
} from '../../../src/domain/geofences/geometry.js';
import {
  IFTA_MEMBERS,
  JURISDICTIONS,
  countryOf,
  fromIso3166,
  isIftaMember,
  isJurisdiction,
  normalizeJurisdiction,
} from '../../../src/domain/jurisdictions.js';

const SQ = [
  { lat: 0, lon: 0 },
  { lat: 0, lon: 1 },
  { lat: 1, lon: 1 },
  { lat: 1, lon: 0 },
];
const square = { shape: 'polygon' as const, points: SQ };
const circle = { shape: 'circle' as const, center: { lat: 40, lon: -83 }, radius_m: 1000 };

describe('checkPolygon', () => {
  const cases: Array<[string, Array<{ lat: number; lon: number }>, string | null]> = [
    ['open square', SQ, null],
    ['closed square', [...SQ, SQ[0]], null],
    ['with a repeated vertex', [SQ[0], SQ[1], SQ[1], SQ[2], SQ[3]], null],
    [
      'concave (an L)',
      [
        { lat: 0, lon: 0 },
        { lat: 0, lon: 2 },
        { lat: 1, lon: 2 },
        { lat: 1, lon: 1 },
        { lat: 2, lon: 1 },
        { lat: 2, lon: 0 },
      ],
      null,
    ],
    ['triangle', SQ.slice(0, 3), null],
    ['bow tie', [SQ[0], SQ[2], SQ[1], SQ[3]], 'p must not cross itself; its edges cross near lat 0.5, lon 0.5'],
    ['two points', SQ.slice(0, 2), 'p must have at least 3 distinct points, got 2'],
    ['a there-and-back line', [SQ[0], SQ[1], SQ[0]], 'p must have at least 3 distinct points, got 2'],
    [
      'collinear',
      [
        { lat: 0, lon: 0 },
        { lat: 1, lon: 1 },
        { lat: 2, lon: 2 },
      ],
      'p must enclose an area; the points lie on one line',
    ],
    [
      'collinear, long',
      [
        { lat: 10, lon: -100 },
        { lat: 20, lon: -90 },
        { lat: 30, lon: -80 },
      ],
      'p must enclose an area; the points lie on one line',
    ],
    ['lat out of range', [SQ[0], { lat: -90.1, lon: 0 }, SQ[2]], 'p[1].lat must be between -90 and 90'],
    ['lon out of range', [SQ[0], SQ[1], { lat: 0, lon: 180.5 }], 'p[2].lon must be between -180 and 180'],
    ['not a number', [SQ[0], SQ[1], { lat: Number.NaN, lon: 0 }], 'p[2].lat must be between -90 and 90'],
  ];
  for (const [name, points, problem] of cases) {
    test(name, () => {
      const r = checkPolygon('p', points);
      if (problem === null) assert.ok('vertices' in r, JSON.stringify(r));
      else assert.deepEqual(r, { problem });
    });
  }

  test('ringVertices drops the closing point and consecutive repeats, keeping order', () => {
    assert.deepEqual(ringVertices([SQ[0], SQ[0], SQ[1], SQ[2], SQ[2], SQ[3], SQ[0], SQ[0]]), SQ);
  });
});

describe('circleProblem', () => {
  test('valid, zero, negative, infinite, too large, bad center', () => {
    assert.equal(circleProblem({ lat: 40, lon: -83 }, 1), null);
    assert.equal(circleProblem({ lat: 40, lon: -83 }, 0), 'radius_m must be greater than 0');
    assert.equal(circleProblem({ lat: 40, lon: -83 }, -1), 'radius_m must be greater than 0');
    assert.equal(circleProblem({ lat: 40, lon: -83 }, Number.POSITIVE_INFINITY), 'radius_m must be greater than 0');
    assert.equal(circleProblem({ lat: 40, lon: -83 }, 500_001), 'radius_m must be at most 500000');
    assert.equal(circleProblem({ lat: 40, lon: 200 }, 5), 'center.lon must be between -180 and 180');
  });
});

describe('contains', () => {
  const cases: Array<[string, typeof square | typeof circle, { lat: number; lon: number }, boolean]> = [
    ['polygon: inside', square, { lat: 0.5, lon: 0.5 }, true],
    ['polygon: on an edge counts as inside', square, { lat: 0, lon: 0.5 }, true],
    ['polygon: on a vertex counts as inside', square, { lat: 1, lon: 1 }, true],
    ['polygon: outside', square, { lat: 1.5, lon: 0.5 }, false],
    ['circle: center', circle, { lat: 40, lon: -83 }, true],
    ['circle: 500 m north', circle, { lat: 40.0045, lon: -83 }, true],
    ['circle: 1.1 km north', circle, { lat: 40.0099, lon: -83 }, false],
  ];
  for (const [name, g, p, inside] of cases) test(name, () => assert.equal(contains(g, p), inside));

  test('a buffer grows a circle (exit hysteresis)', () => {
    const p = { lat: 40.0095, lon: -83 };
    assert.equal(contains(circle, p), false);
    assert.equal(contains(circle, p, 100), true);
  });

  test('distanceM is the great-circle distance in meters', () => {
    const d = distanceM({ lat: 40, lon: -83 }, { lat: 41, lon: -83 });
    assert.ok(Math.abs(d - 111_195) < 100, String(d));
  });
});

describe('bounds', () => {
  test('of a polygon: its extreme coordinates', () => {
    assert.deepEqual(boundsOf(square), { min_lat: 0, max_lat: 1, min_lon: 0, max_lon: 1 });
  });
  test('of a circle: holds the whole circle; every point inside the circle is inside the box', () => {
    const b = boundsOf(circle);
    for (const bearing of [0, 45, 90, 135, 180, 225, 270, 315]) {
      const rad = (bearing * Math.PI) / 180;
      const p = {
        lat: 40 + (Math.cos(rad) * 999) / 111_320,
        lon: -83 + (Math.sin(rad) * 999) / (111_320 * Math.cos((40 * Math.PI) / 180)),
      };
      assert.ok(contains(circle, p), `bearing ${bearing} inside`);
      assert.ok(inBounds(b, p), `bearing ${bearing} in bounds`);
    }
    assert.equal(inBounds(b, { lat: 40.02, lon: -83 }), false);
  });
  test('near a pole the box stays on the globe', () => {
    const b = boundsOf({ shape: 'circle', center: { lat: 89.999, lon: 0 }, radius_m: 5000 });
    assert.equal(b.max_lat, 90);
    assert.ok(b.min_lon >= -180 && b.max_lon <= 180);
  });
});

describe('jurisdictions', () => {
  test('65 codes: 50 states, DC, 10 provinces, 3 territories, Mexico; 58 IFTA members', () => {
    assert.equal(JURISDICTIONS.length, 65);
    assert.equal(new Set(JURISDICTIONS).size, 65);
    assert.equal(IFTA_MEMBERS.length, 58);
    for (const c of ['AK', 'HI', 'DC', 'YT', 'NT', 'NU', 'MX']) {
      assert.ok(isJurisdiction(c), c);
      assert.ok(!isIftaMember(c), `${c} is not an IFTA member`);
    }
    for (const c of ['TX', 'CA', 'ON', 'QC', 'PE', 'WY']) assert.ok(isIftaMember(c), c);
  });
  test('codes are read in any letter case; unknown codes are refused', () => {
    assert.equal(normalizeJurisdiction(' tx '), 'TX');
    assert.ok(isJurisdiction('on'));
    for (const c of ['ZZ', 'PR', 'T', 'TXX', '']) assert.ok(!isJurisdiction(c), c);
  });
  test('countries and ISO 3166-2 codes', () => {
    assert.equal(countryOf('TX'), 'US');
    assert.equal(countryOf('DC'), 'US');
    assert.equal(countryOf('nu'), 'CA');
    assert.equal(countryOf('mx'), 'MX');
    assert.equal(countryOf('ZZ'), null);
    assert.equal(fromIso3166('US-TX'), 'TX');
    assert.equal(fromIso3166('ca-on'), 'ON');
    assert.equal(fromIso3166('US-ON'), null);
    assert.equal(fromIso3166('MX-SON'), null);
    assert.equal(fromIso3166('US-MX'), null);
  });
});
