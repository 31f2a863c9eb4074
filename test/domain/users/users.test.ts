/** GET /v1/users, /v1/users/:id and /v1/users/lookup: envelope, field sets, filters (docs/reference/wire.md §3, §4.2, §9). */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import {
  DATETIME,
  DRIVER_KEYS,
  DRIVER_ONLY_KEYS,
  MANAGER_KEYS,
  assertError,
  assertKeySet,
  assertList,
  createUser,
  idsOf,
} from '../../http/fixtures.js';

eachDialect('users: reading', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let ann: any; // active driver, on_duty
  let bob: any; // deactivated driver, driving
  let carol: any; // admin
  let dave: any; // fleet_user

  before(async () => {
    t = await getApp();
    ann = await createUser(t, {
      first_name: 'Ann',
      last_name: 'Archer',
      duty_status: 'on_duty',
      email: 'ann.archer@example.com',
      username: 'ann_archer',
      driver_company_id: 'DRV-ANN',
    });
    bob = await createUser(t, { first_name: 'Bob', last_name: 'Baker', status: 'deactivated', duty_status: 'driving' });
    carol = await createUser(t, {
      first_name: 'Carol',
      last_name: 'Cooper',
      role: 'admin',
      email: 'carol@example.com',
    });
    dave = await createUser(t, { first_name: 'Dave', last_name: 'Mac Annan', role: 'fleet_user' });
  });

  test('list envelope: users first, pagination last, wrapped items, ascending ids', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/users' });
    const items = assertList(res, 'users', 'user');
    assert.deepEqual(res.body.pagination, { per_page: 25, page_no: 1, total: 4 });
    assert.deepEqual(
      items.map((u) => u.id),
      [ann.id, bob.id, carol.id, dave.id],
    );
    assert.ok(ann.id < bob.id && bob.id < carol.id && carol.id < dave.id);
  });

  test('a driver carries exactly the shared and driver-only keys, with wire types', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/users/${ann.id}` });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['user']);
    const u = res.body.user;
    assertKeySet(u, DRIVER_KEYS, 'driver');
    assert.equal(u.id, ann.id);
    assert.equal(u.role, 'driver');
    assert.equal(u.status, 'active');
    assert.equal(u.duty_status, 'on_duty');
    assert.equal(u.username, 'ann_archer');
    assert.equal(u.driver_company_id, 'DRV-ANN');
    assert.equal(u.email, 'ann.archer@example.com');
    assert.match(u.created_at, DATETIME);
    assert.match(u.updated_at, DATETIME);
    assert.deepEqual(u.group_ids, []);
    assert.deepEqual(u.external_ids, []);
    assert.equal(u.metric_units, false);
    // no value → null, never left out
    for (const k of [
      'phone',
      'phone_ext',
      'phone_country_code',
      'company_reference_id',
      'time_zone',
      'drivers_license_number',
      'drivers_license_state',
      'joined_at',
      'terminal_street',
      'terminal_city',
      'terminal_state',
      'terminal_zip',
      'mobile_current_sign_in_at',
      'web_last_active_at',
      'associated_dispatcher_id',
    ]) {
      assert.equal(u[k], null, `${k} is null`);
    }
    for (const k of ['carrier_name', 'carrier_street', 'carrier_city', 'carrier_state', 'carrier_zip'])
      assert.equal(typeof u[k], 'string', k);
    for (const k of DRIVER_ONLY_KEYS.filter((k) => k.startsWith('exception_') || k.startsWith('export_'))) {
      assert.equal(u[k], false, `${k} is false`);
    }
    assert.equal(typeof u.eld_mode, 'string');
    assert.equal(typeof u.violation_alerts, 'string');
  });

  test('admin and fleet_user records: driver-only keys absent, manager keys present', async () => {
    for (const who of [carol, dave]) {
      const res = await t.call({ method: 'GET', url: `/v1/users/${who.id}` });
      assert.equal(res.status, 200);
      const u = res.body.user;
      assertKeySet(u, MANAGER_KEYS, u.role);
      for (const k of DRIVER_ONLY_KEYS) assert.ok(!(k in u), `${k} absent on ${u.role}`);
      assert.equal(u.expires_at, null);
      assert.equal(u.phone2, null);
      assert.equal(u.phone_country_code2, null);
    }
    // and in the list too
    const items = assertList(await t.call({ method: 'GET', url: '/v1/users' }), 'users', 'user');
    for (const u of items) assertKeySet(u, u.role === 'driver' ? DRIVER_KEYS : MANAGER_KEYS, `listed ${u.role}`);
  });

  test('the create response equals GET :id', async () => {
    const res = await t.call({ method: 'GET', url: `/v1/users/${carol.id}` });
    assert.deepEqual(res.body.user, carol);
  });

  test('filter role', async () => {
    const cases: Array<[string, number[]]> = [
      ['driver', [ann.id, bob.id]],
      ['admin', [carol.id]],
      ['fleet_user', [dave.id]],
    ];
    for (const [role, ids] of cases) {
      const res = await t.call({ method: 'GET', url: `/v1/users?role=${role}` });
      assertList(res, 'users', 'user');
      assert.deepEqual(idsOf(res.body, 'users', 'user'), ids, role);
      assert.equal(res.body.pagination.total, ids.length);
    }
  });

  test('filter status', async () => {
    let res = await t.call({ method: 'GET', url: '/v1/users?status=deactivated' });
    assert.deepEqual(idsOf(res.body, 'users', 'user'), [bob.id]);
    assert.equal(res.body.pagination.total, 1);
    res = await t.call({ method: 'GET', url: '/v1/users?status=active&role=admin' });
    assert.deepEqual(idsOf(res.body, 'users', 'user'), [carol.id]);
  });

  test('filter duty_status', async () => {
    let res = await t.call({ method: 'GET', url: '/v1/users?duty_status=driving' });
    assert.deepEqual(idsOf(res.body, 'users', 'user'), [bob.id]);
    res = await t.call({ method: 'GET', url: '/v1/users?duty_status=on_duty' });
    assert.deepEqual(idsOf(res.body, 'users', 'user'), [ann.id]);
    // admins and fleet users carry no duty status: off_duty matches no one here
    res = await t.call({ method: 'GET', url: '/v1/users?duty_status=off_duty' });
    assert.deepEqual(res.body.users, []);
    res = await t.call({ method: 'GET', url: '/v1/users?duty_status=sleeper' });
    assert.deepEqual(res.body.users, []);
    assert.equal(res.body.pagination.total, 0);
  });

  test('filter name: case-insensitive substring of first and last name', async () => {
    const cases: Array<[string, number[]]> = [
      ['ann', [ann.id, dave.id]], // Ann Archer, Dave Mac Annan
      ['ANN', [ann.id, dave.id]],
      ['bak', [bob.id]],
      ['ann archer', [ann.id]],
      ['zzz', []],
      ['%', []], // LIKE wildcards are literal
      ['_', []],
    ];
    for (const [name, ids] of cases) {
      const res = await t.call({ method: 'GET', url: `/v1/users?name=${encodeURIComponent(name)}` });
      assertList(res, 'users', 'user');
      assert.deepEqual(idsOf(res.body, 'users', 'user'), ids, `name=${name}`);
      assert.equal(res.body.pagination.total, ids.length, `total for name=${name}`);
    }
  });

  test('bad filter values are 400 naming the parameter', async () => {
    assertError(await t.call({ method: 'GET', url: '/v1/users?role=boss' }), 400, /role/);
    assertError(await t.call({ method: 'GET', url: '/v1/users?status=gone' }), 400, /status/);
    assertError(await t.call({ method: 'GET', url: '/v1/users?duty_status=napping' }), 400, /duty_status/);
  });

  test('summary and unknown parameters are accepted and ignored', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/users?summary=true&foo=bar' });
    assert.equal(assertList(res, 'users', 'user').length, 4);
  });

  test('GET :id of an unknown id is 404 with an error body', async () => {
    assertError(await t.call({ method: 'GET', url: '/v1/users/999999' }), 404, /not found/);
  });

  describe('lookup', () => {
    test('by username, email, driver_company_id', async () => {
      for (const q of ['username=ann_archer', 'email=ann.archer%40example.com', 'driver_company_id=DRV-ANN']) {
        const res = await t.call({ method: 'GET', url: `/v1/users/lookup?${q}` });
        assert.equal(res.status, 200, q);
        assert.deepEqual(Object.keys(res.body), ['user']);
        assert.equal(res.body.user.id, ann.id, q);
        assertKeySet(res.body.user, DRIVER_KEYS, 'looked-up driver');
      }
    });

    test('email lookup ignores case; an admin is found by email with the manager key set', async () => {
      let res = await t.call({ method: 'GET', url: '/v1/users/lookup?email=ANN.Archer%40Example.com' });
      assert.equal(res.status, 200);
      assert.equal(res.body.user.id, ann.id);
      res = await t.call({ method: 'GET', url: '/v1/users/lookup?email=carol%40example.com' });
      assert.equal(res.status, 200);
      assertKeySet(res.body.user, MANAGER_KEYS, 'looked-up admin');
    });

    test('a miss is 404 {"error_message":"user not found"} exactly', async () => {
      for (const q of ['username=nobody', 'email=nobody%40example.com', 'driver_company_id=NOPE']) {
        const res = await t.call({ method: 'GET', url: `/v1/users/lookup?${q}` });
        assert.equal(res.status, 404, q);
        assert.equal(res.raw, '{"error_message":"user not found"}');
      }
    });

    test('no parameter is 400', async () => {
      assertError(await t.call({ method: 'GET', url: '/v1/users/lookup' }), 400, /username|email|driver_company_id/);
      assertError(
        await t.call({ method: 'GET', url: '/v1/users/lookup?foo=bar' }),
        400,
        /username|email|driver_company_id/,
      );
    });

    test('lookup.json and the doubled slash route normally', async () => {
      const res = await t.call({ method: 'GET', url: '/v1//users/lookup.json?username=ann_archer' });
      assert.equal(res.status, 200);
      assert.equal(res.body.user.id, ann.id);
    });
  });
});
