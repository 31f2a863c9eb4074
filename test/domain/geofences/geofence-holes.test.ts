/**
 * Polygon geofences with holes (docs/reference/domain-rules.md §4.2; `holes` is ours): stored and shown, checked like the
 * outer ring and against it, and refused with the problem named; nothing stored on a refusal.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import { assertError } from '../../http/fixtures.js';
import { SQUARE, createGeofence } from '../../http/record-fixtures.js';

/** A smaller square inside SQUARE (40.0–40.01, −83.0…−82.99). */
const HOLE = [
  { lat: 40.004, lon: -82.996 },
  { lat: 40.004, lon: -82.994 },
  { lat: 40.006, lon: -82.994 },
  { lat: 40.006, lon: -82.996 },
];
const shifted = (ring: typeof HOLE, dLat: number, dLon: number) =>
  ring.map((p) => ({ lat: Math.round((p.lat + dLat) * 1e6) / 1e6, lon: Math.round((p.lon + dLon) * 1e6) / 1e6 }));

eachDialect('geofence holes', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  before(async () => (t = await getApp()));
  const count = async () => (await t.call({ method: 'GET', url: '/v1/geofences' })).body.pagination.total;

  test('a polygon with a hole is stored and shown with it; without holes, []', async () => {
    const g = await createGeofence(t, { holes: [[...HOLE, HOLE[0]]] });
    assert.deepEqual(g.holes, [HOLE], 'the closing point is dropped, as for location_points');
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/geofences/${g.id}` })).body.geofence.holes, [HOLE]);
    assert.deepEqual((await createGeofence(t)).holes, []);
    const circle = await createGeofence(t, {
      location_points: undefined,
      center: { lat: 40, lon: -83 },
      radius_m: 100,
    });
    assert.deepEqual(circle.holes, []);
  });

  test('PUT: holes alone change the holes; new location_points without holes drop them', async () => {
    const g = await createGeofence(t);
    const put = (payload: object) => t.call({ method: 'PUT', url: `/v1/geofences/${g.id}`, payload });
    assert.deepEqual((await put({ holes: [HOLE] })).body.geofence.holes, [HOLE]);
    assert.deepEqual((await put({ name: 'Renamed' })).body.geofence.holes, [HOLE], 'other fields leave them');
    const moved = (await put({ location_points: SQUARE })).body.geofence;
    assert.deepEqual(moved.holes, []);
  });

  test('refused, naming the problem; nothing stored', async () => {
    const before = await count();
    const refuse = async (payload: object, message: string | RegExp) =>
      assertError(
        await t.call({ method: 'POST', url: '/v1/geofences', payload: { name: 'G', ...payload } }),
        400,
        message,
      );
    await refuse(
      { location_points: SQUARE, holes: [HOLE.slice(0, 2)] },
      'holes[0] must have at least 3 distinct points, got 2',
    );
    await refuse(
      { location_points: SQUARE, holes: [shifted(HOLE, 0.02, 0)] },
      'holes[0] must lie inside location_points',
    );
    await refuse(
      { location_points: SQUARE, holes: [shifted(HOLE, 0.005, 0)] },
      /^holes must lie inside location_points without crossing it or each other; edges cross near lat 40\.01, lon -82\.99[46]$/,
    );
    await refuse(
      { location_points: SQUARE, holes: [HOLE, shifted(HOLE, 0.001, 0.001)] },
      /^holes must lie inside location_points without crossing it or each other/,
    );
    const inner = [
      { lat: 40.0045, lon: -82.9955 },
      { lat: 40.0045, lon: -82.9945 },
      { lat: 40.0055, lon: -82.9945 },
      { lat: 40.0055, lon: -82.9955 },
    ];
    await refuse({ location_points: SQUARE, holes: [HOLE, inner] }, 'holes[1] must not lie inside holes[0]');
    await refuse(
      { center: { lat: 40, lon: -83 }, radius_m: 100, holes: [HOLE] },
      'holes belong to a polygon (location_points), not to a circle',
    );
    assert.equal(await count(), before);
    const circle = await createGeofence(t, {
      location_points: undefined,
      center: { lat: 40, lon: -83 },
      radius_m: 100,
    });
    assertError(
      await t.call({ method: 'PUT', url: `/v1/geofences/${circle.id}`, payload: { holes: [HOLE] } }),
      400,
      'holes need location_points: only a polygon has holes',
    );
  });
});
