/** /v1/geofences: polygons and circles, geometry validation, category filter, per_page up to 500, PUT and DELETE. */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import { DATETIME, assertError, assertList } from '../../http/fixtures.js';
import { GEOFENCE_KEYS, SQUARE, createGeofence, eventsOf } from '../../http/record-fixtures.js';

eachDialect('geofences', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;

  before(async () => {
    t = await getApp();
    other = await t.newCompany('Other Co');
  });

  const count = async () => (await t.call({ method: 'GET', url: '/v1/geofences' })).body.pagination.total;

  async function refused(
    method: 'POST' | 'PUT',
    url: string,
    payload: unknown,
    message: string | RegExp,
    status = 400,
  ) {
    const before = await count();
    assertError(await t.call({ method, url, payload: payload as any }), status, message);
    assert.equal(await count(), before, 'nothing stored');
  }

  test('POST polygon → 201 with the full key set; a closing point is dropped', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/geofences',
      payload: {
        name: ' Columbus yard ',
        category: 'Yard',
        description: 'north gate',
        address: '1 Main St, Columbus, OH',
        location_points: [...SQUARE, SQUARE[0]],
      },
    });
    assert.equal(res.status, 201, res.raw);
    assert.deepEqual(Object.keys(res.body), ['geofence']);
    const g = res.body.geofence;
    assert.deepEqual(Object.keys(g), GEOFENCE_KEYS);
    assert.equal(g.name, 'Columbus yard');
    assert.equal(g.category, 'Yard');
    assert.equal(g.status, 'active');
    assert.equal(g.shape, 'polygon');
    assert.deepEqual(g.location_points, SQUARE);
    assert.equal(g.center, null);
    assert.equal(g.radius_m, null);
    assert.match(g.created_at, DATETIME);
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/geofences/${g.id}` })).body, { geofence: g });
    assert.deepEqual((await eventsOf(t, 'geofence')).at(-1), {
      action: 'geofence_upserted',
      trigger: 'created',
      subject_id: String(g.id),
    });
  });

  test('circles: POST /v1/geofences with center and radius_m, and POST /v1/geofences/circular', async () => {
    for (const url of ['/v1/geofences', '/v1/geofences/circular']) {
      const res = await t.call({
        method: 'POST',
        url,
        payload: { name: 'Pilot 123', category: 'Fuel Station', center: { lat: 39.96, lon: -83.0 }, radius_m: 250 },
      });
      assert.equal(res.status, 201, res.raw);
      const g = res.body.geofence;
      assert.deepEqual(Object.keys(g), GEOFENCE_KEYS);
      assert.equal(g.shape, 'circle');
      assert.deepEqual(g.center, { lat: 39.96, lon: -83.0 });
      assert.equal(g.radius_m, 250);
      assert.deepEqual(g.location_points, []);
    }
  });

  describe('geometry errors are 400 naming the problem; nothing stored', () => {
    const cases: Array<[string, Record<string, unknown>, string | RegExp]> = [
      [
        'self-intersecting (a bow tie)',
        {
          location_points: [
            { lat: 0, lon: 0 },
            { lat: 1, lon: 1 },
            { lat: 0, lon: 1 },
            { lat: 1, lon: 0 },
          ],
        },
        'location_points must not cross itself; its edges cross near lat 0.5, lon 0.5',
      ],
      [
        'two points',
        { location_points: SQUARE.slice(0, 2) },
        'location_points must have at least 3 distinct points, got 2',
      ],
      [
        'three points, two distinct',
        { location_points: [SQUARE[0], SQUARE[1], SQUARE[0]] },
        'location_points must have at least 3 distinct points, got 2',
      ],
      [
        'repeats of one point',
        { location_points: [SQUARE[0], SQUARE[0], SQUARE[0], SQUARE[0]] },
        'location_points must have at least 3 distinct points, got 1',
      ],
      [
        'points on one line',
        {
          location_points: [
            { lat: 40, lon: -83 },
            { lat: 40.01, lon: -83.01 },
            { lat: 40.02, lon: -83.02 },
          ],
        },
        'location_points must enclose an area; the points lie on one line',
      ],
      ['empty', { location_points: [] }, 'location_points must have at least 3 distinct points, got 0'],
      [
        'latitude out of range',
        { location_points: [SQUARE[0], { lat: 90.5, lon: -83 }, SQUARE[2]] },
        'location_points[1].lat must be at most 90',
      ],
      [
        'longitude out of range',
        { location_points: [SQUARE[0], SQUARE[1], { lat: 40, lon: -181 }] },
        'location_points[2].lon must be at least -180',
      ],
      [
        'a point without lon',
        { location_points: [SQUARE[0], SQUARE[1], { lat: 40 }] },
        'location_points[2].lon is required',
      ],
      [
        'a point as text',
        { location_points: [SQUARE[0], SQUARE[1], { lat: '40', lon: -83 }] },
        'location_points[2].lat must be a number',
      ],
      ['radius 0', { center: { lat: 40, lon: -83 }, radius_m: 0 }, 'radius_m must be greater than 0'],
      ['negative radius', { center: { lat: 40, lon: -83 }, radius_m: -5 }, 'radius_m must be greater than 0'],
      ['huge radius', { center: { lat: 40, lon: -83 }, radius_m: 600000 }, 'radius_m must be at most 500000'],
      ['center out of range', { center: { lat: -91, lon: -83 }, radius_m: 10 }, 'center.lat must be at least -90'],
      ['center without radius', { center: { lat: 40, lon: -83 } }, 'radius_m is required'],
      ['radius without center', { radius_m: 10 }, 'center is required'],
      ['both shapes', { location_points: SQUARE, center: { lat: 40, lon: -83 }, radius_m: 10 }, /not both/],
      ['no shape', {}, 'location_points is required (or center and radius_m for a circular geofence)'],
    ];
    for (const [name, shape, message] of cases) {
      test(name, () => refused('POST', '/v1/geofences', { name: 'G', ...shape }, message));
    }
    test('a polygon on the circular endpoint', () =>
      refused(
        'POST',
        '/v1/geofences/circular',
        { name: 'G', location_points: SQUARE },
        /location_points is not accepted here/,
      ));
    test('the circular endpoint without a center', () =>
      refused('POST', '/v1/geofences/circular', { name: 'G' }, 'center is required'));
  });

  test('other bad fields are 400 naming the field', async () => {
    await refused('POST', '/v1/geofences', { location_points: SQUARE }, 'name is required');
    await refused('POST', '/v1/geofences', { name: '  ', location_points: SQUARE }, 'name must not be empty');
    await refused('POST', '/v1/geofences', { name: 5, location_points: SQUARE }, 'name must be a string');
    await refused(
      'POST',
      '/v1/geofences',
      { name: 'G', status: 'paused', location_points: SQUARE },
      'status must be one of: active, inactive',
    );
    await refused(
      'POST',
      '/v1/geofences',
      { name: 'G', location_points: 'everywhere' },
      'location_points must be an array',
    );
  });

  test('category filter (exact, any letter case) and status filter', async () => {
    const a = await createGeofence(t, { name: 'A', category: 'Customer' });
    const b = await createGeofence(t, { name: 'B', category: 'customer', status: 'inactive' });
    await createGeofence(t, { name: 'C', category: 'Customers' });
    const ids = async (q: string) =>
      assertList(await t.call({ method: 'GET', url: `/v1/geofences?${q}` }), 'geofences', 'geofence').map((g) => g.id);
    assert.deepEqual(await ids('category=CUSTOMER'), [a.id, b.id]);
    assert.deepEqual(await ids('category=customer&status=inactive'), [b.id]);
    assert.deepEqual(await ids('category=Fuel%20Station').then((x) => x.length), 2);
    assert.deepEqual(await ids('category=none-such'), []);
    assertError(await t.call({ method: 'GET', url: '/v1/geofences?status=gone' }), 400, /status must be one of/);
  });

  test('PUT: partial changes, circle radius alone, switching shapes; refusals change nothing', async () => {
    const g = await createGeofence(t, { name: 'Depot', category: 'Depot' });
    const url = `/v1/geofences/${g.id}`;
    let res = await t.call({ method: 'PUT', url, payload: { description: 'south', status: 'inactive' } });
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.geofence.description, 'south');
    assert.equal(res.body.geofence.status, 'inactive');
    assert.deepEqual(res.body.geofence.location_points, SQUARE);
    await refused('PUT', url, { radius_m: 100 }, 'center is required');
    await refused('PUT', url, { location_points: SQUARE.slice(0, 2) }, /at least 3 distinct points/);
    await refused('PUT', url, { name: '' }, 'name must not be empty');
    assert.deepEqual((await t.call({ method: 'GET', url })).body, res.body);
    res = await t.call({ method: 'PUT', url, payload: { center: { lat: 40, lon: -83 }, radius_m: 100 } });
    assert.equal(res.body.geofence.shape, 'circle');
    assert.deepEqual(res.body.geofence.location_points, []);
    res = await t.call({ method: 'PUT', url, payload: { radius_m: 75.5 } });
    assert.deepEqual([res.body.geofence.center, res.body.geofence.radius_m], [{ lat: 40, lon: -83 }, 75.5]);
    await refused('PUT', url, { radius_m: 0 }, 'radius_m must be greater than 0');
    res = await t.call({ method: 'PUT', url, payload: { location_points: SQUARE } });
    assert.equal(res.body.geofence.shape, 'polygon');
    assert.equal(res.body.geofence.center, null);
    assert.equal(res.body.geofence.radius_m, null);
  });

  test('DELETE → {"success":true}; the geofence is gone from GET and the list', async () => {
    const g = await createGeofence(t, { name: 'Temp', category: 'Temp' });
    const res = await t.call({ method: 'DELETE', url: `/v1/geofences/${g.id}` });
    assert.equal(res.status, 200);
    assert.equal(res.raw, '{"success":true}');
    assertError(await t.call({ method: 'GET', url: `/v1/geofences/${g.id}` }), 404, `geofence ${g.id} not found`);
    assertError(
      await t.call({ method: 'PUT', url: `/v1/geofences/${g.id}`, payload: { name: 'x' } }),
      404,
      /not found/,
    );
    assertError(await t.call({ method: 'DELETE', url: `/v1/geofences/${g.id}` }), 404, /not found/);
    assert.deepEqual(
      assertList(await t.call({ method: 'GET', url: '/v1/geofences?category=Temp' }), 'geofences', 'geofence'),
      [],
    );
    assert.deepEqual((await eventsOf(t, 'geofence')).at(-1), {
      action: 'geofence_deleted',
      trigger: null,
      subject_id: String(g.id),
    });
  });

  test("tenant isolation: another company's geofence is 404 and invisible", async () => {
    const g = await createGeofence(t, { name: 'Mine' });
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      assertError(
        await t.call({
          method,
          url: `/v1/geofences/${g.id}`,
          payload: method === 'PUT' ? { name: 'x' } : undefined,
          as: other,
        }),
        404,
        `geofence ${g.id} not found`,
      );
    }
    const res = await t.call({ method: 'GET', url: '/v1/geofences', as: other });
    assert.deepEqual(assertList(res, 'geofences', 'geofence'), []);
    assert.equal((await t.call({ method: 'GET', url: `/v1/geofences/${g.id}` })).body.geofence.name, 'Mine');
  });

  test('per_page goes up to 500 on geofence lists (501 is clamped to 500); other lists stop at 100', async () => {
    const fresh = await t.newCompany('Many Fences');
    for (let i = 0; i < 120; i++) await createGeofence(t, { name: `G${i}`, category: 'Bulk' }, fresh);
    let res = await t.call({ method: 'GET', url: '/v1/geofences?per_page=500', as: fresh });
    assert.equal(assertList(res, 'geofences', 'geofence').length, 120, 'one page holds all 120');
    assert.deepEqual(res.body.pagination, { per_page: 500, page_no: 1, total: 120 });
    res = await t.call({ method: 'GET', url: '/v1/geofences?per_page=501&category=bulk', as: fresh });
    assert.equal(res.body.geofences.length, 120);
    assert.deepEqual(res.body.pagination, { per_page: 500, page_no: 1, total: 120 });
    res = await t.call({ method: 'GET', url: '/v1/geofences?per_page=50&page_no=3', as: fresh });
    assert.deepEqual(
      res.body.geofences.map((w: any) => w.geofence.name),
      Array.from({ length: 20 }, (_, i) => `G${100 + i}`),
    );
    assert.deepEqual(res.body.pagination, { per_page: 50, page_no: 3, total: 120 });
    res = await t.call({ method: 'GET', url: '/v1/geofences?page_no=2', as: fresh });
    assert.deepEqual(res.body.pagination, { per_page: 25, page_no: 2, total: 120 });
    res = await t.call({ method: 'GET', url: '/v1/messages?per_page=500', as: fresh });
    assert.equal(res.body.pagination.per_page, 100, 'the exception is for geofences only');
    assertError(await t.call({ method: 'GET', url: '/v1/geofences?per_page=0', as: fresh }), 400, /per_page/);
  });
});
