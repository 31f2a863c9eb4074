/** POST /v1/users and PUT /v1/users/:id: 201, validation, duplicates, partial updates; bad input changes nothing. */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../../helper.js';
import {
  DATETIME,
  DRIVER_KEYS,
  MANAGER_KEYS,
  assertError,
  assertKeySet,
  createUser,
  totalOf,
  uniq,
} from '../../http/fixtures.js';

eachDialect('users: writing', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let driver: any;

  before(async () => {
    t = await getApp();
    driver = await createUser(t, {
      first_name: 'Erin',
      last_name: 'Ellis',
      email: 'erin@example.com',
      username: 'erin',
    });
  });

  /** Sends a write that must be refused with 400 (or `status`) and checks that the list total did not move. */
  async function refused(
    method: 'POST' | 'PUT',
    url: string,
    payload: unknown,
    message: string | RegExp,
    status = 400,
  ) {
    const before = await totalOf(t, '/v1/users');
    const res = await t.call({ method, url, payload: payload as any });
    assertError(res, status, message);
    assert.equal(await totalOf(t, '/v1/users'), before, 'list total unchanged');
  }

  test('POST creates a driver: 201, wrapped, full driver key set', async () => {
    const u = uniq();
    const res = await t.call({
      method: 'POST',
      url: '/v1/users',
      payload: {
        first_name: 'Finn',
        last_name: 'Ford',
        role: 'driver',
        username: `finn${u}`,
        password: 'correct horse battery',
        eld_mode: 'exempt',
        cycle: '60_7',
        yard_moves_enabled: true,
        time_zone: 'Pacific Time (US & Canada)',
      },
    });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body), ['user']);
    const user = res.body.user;
    assertKeySet(user, DRIVER_KEYS, 'created driver');
    assert.equal(Number.isInteger(user.id), true);
    assert.equal(user.email, null); // username alone suffices; email sent as null
    assert.equal(user.username, `finn${u}`);
    assert.equal(user.eld_mode, 'exempt');
    assert.equal(user.cycle, '60_7');
    assert.equal(user.yard_moves_enabled, true);
    assert.equal(user.time_zone, 'Pacific Time (US & Canada)');
    assert.equal(user.status, 'active');
    assert.match(user.created_at, DATETIME);
    assert.ok(!('password' in user) && !('password_hash' in user));
  });

  test('POST creates an admin and a fleet_user (with group_ids []) with the manager key set', async () => {
    const admin = await createUser(t, { role: 'admin' });
    assertKeySet(admin, MANAGER_KEYS, 'created admin');
    const fu = await createUser(t, { role: 'fleet_user', group_ids: [], group_visibility: 'limited' });
    assertKeySet(fu, MANAGER_KEYS, 'created fleet_user');
    assert.deepEqual(fu.group_ids, []);
  });

  test('POST with email only (no username) is accepted; email is stored lower-case', async () => {
    const u = uniq();
    const res = await t.call({
      method: 'POST',
      url: '/v1/users',
      payload: { first_name: 'G', last_name: 'H', role: 'driver', email: `Mixed${u}@Example.COM` },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.user.email, `mixed${u}@example.com`);
    assert.equal(res.body.user.username, null);
  });

  test('POST missing required fields → 400 naming the field, nothing created', async () => {
    const ok = { first_name: 'A', last_name: 'B', role: 'driver', email: `x${uniq()}@example.com` };
    for (const f of ['first_name', 'last_name', 'role'] as const) {
      const { [f]: _drop, ...rest } = ok;
      await refused('POST', '/v1/users', rest, new RegExp(`${f}.*required`));
    }
    await refused(
      'POST',
      '/v1/users',
      { first_name: '', last_name: 'B', role: 'driver', email: `y${uniq()}@example.com` },
      /first_name/,
    );
  });

  test('POST with neither email nor username → 400', async () => {
    await refused('POST', '/v1/users', { first_name: 'A', last_name: 'B', role: 'driver' }, /email or username/);
    await refused(
      'POST',
      '/v1/users',
      { first_name: 'A', last_name: 'B', role: 'driver', email: '', username: '' },
      /email or username/,
    );
  });

  test('POST duplicate email (any case) or username → 400 with a message', async () => {
    await refused(
      'POST',
      '/v1/users',
      { first_name: 'A', last_name: 'B', role: 'admin', email: 'erin@example.com' },
      'email "erin@example.com" is already taken',
    );
    await refused(
      'POST',
      '/v1/users',
      { first_name: 'A', last_name: 'B', role: 'admin', email: 'ERIN@Example.com' },
      /email.*already taken/,
    );
    await refused(
      'POST',
      '/v1/users',
      { first_name: 'A', last_name: 'B', role: 'driver', username: 'erin' },
      'username "erin" is already taken',
    );
  });

  test('POST or PUT a password the policy refuses → 400 naming password and why; nothing is created', async () => {
    const body = (password: string, username = `p${uniq()}`) => ({
      first_name: 'A',
      last_name: 'B',
      role: 'driver',
      username,
      password,
    });
    await refused('POST', '/v1/users', body('short'), /password.*15/);
    await refused('POST', '/v1/users', body('fourteen-chars'), /password.*15/);
    await refused(
      'POST',
      '/v1/users',
      body('1qaz2wsx3edc4rfv'),
      'password is too common: it is on a list of often-used passwords; choose another',
    );
    await refused('POST', '/v1/users', body('abcabcabcabcabcabc'), /password is too common/);
    await refused(
      'POST',
      '/v1/users',
      body('fleet-driver-walker42', 'walker42'),
      "password must not contain the account's email address or user name",
    );
    const created = await t.call({ method: 'POST', url: '/v1/users', payload: body('fifteen-chars-x') });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await refused(
      'PUT',
      `/v1/users/${created.body.user.id}`,
      { password: 'qwertyuiop12345' },
      /password is too common/,
    );
  });

  test('POST wrong types → 400 naming the field', async () => {
    const base = () => ({ first_name: 'A', last_name: 'B', role: 'driver', username: `w${uniq()}` });
    await refused('POST', '/v1/users', { ...base(), first_name: 5 }, 'first_name must be a string');
    await refused('POST', '/v1/users', { ...base(), last_name: true }, /last_name/);
    await refused('POST', '/v1/users', { ...base(), metric_units: 'yes' }, /metric_units.*boolean/);
    await refused('POST', '/v1/users', { ...base(), yard_moves_enabled: 1 }, /yard_moves_enabled/);
    await refused('POST', '/v1/users', { ...base(), email: 42 }, /email/);
  });

  test('POST unknown enum values → 400 naming the field and the allowed values', async () => {
    const base = () => ({ first_name: 'A', last_name: 'B', username: `e${uniq()}` });
    await refused(
      'POST',
      '/v1/users',
      { ...base(), role: 'superuser' },
      /^role must be one of: driver, admin, fleet_user$/,
    );
    await refused('POST', '/v1/users', { ...base(), role: 'driver', status: 'paused' }, /status/);
    await refused('POST', '/v1/users', { ...base(), role: 'driver', duty_status: 'napping' }, /duty_status/);
    await refused('POST', '/v1/users', { ...base(), role: 'driver', eld_mode: 'paper' }, /eld_mode/);
    await refused('POST', '/v1/users', { ...base(), role: 'driver', time_zone: 'Mars/Olympus' }, /time_zone/);
  });

  test('POST over-long string → 400 naming the field', async () => {
    await refused(
      'POST',
      '/v1/users',
      { first_name: 'x'.repeat(256), last_name: 'B', role: 'driver', username: `l${uniq()}` },
      /first_name.*255/,
    );
  });

  test('POST group_ids or group_visibility on a driver or admin → 400', async () => {
    await refused(
      'POST',
      '/v1/users',
      { first_name: 'A', last_name: 'B', role: 'driver', username: `g${uniq()}`, group_ids: [1] },
      /group_ids/,
    );
    await refused(
      'POST',
      '/v1/users',
      { first_name: 'A', last_name: 'B', role: 'driver', username: `g${uniq()}`, group_ids: [] },
      /group_ids/,
    );
    await refused(
      'POST',
      '/v1/users',
      { first_name: 'A', last_name: 'B', role: 'admin', email: `g${uniq()}@x.com`, group_visibility: 'all' },
      /group/,
    );
  });

  test('POST body that is not an object → 400', async () => {
    await refused('POST', '/v1/users', [1, 2], /body|object/);
  });

  test('PUT partial update changes only the fields sent', async () => {
    const before = (await t.call({ method: 'GET', url: `/v1/users/${driver.id}` })).body.user;
    const res = await t.call({
      method: 'PUT',
      url: `/v1/users/${driver.id}`,
      payload: { first_name: 'Erica', phone: '555-0100', duty_status: 'sleeper' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['user']);
    const after = res.body.user;
    assertKeySet(after, DRIVER_KEYS, 'updated driver');
    assert.equal(after.first_name, 'Erica');
    assert.equal(after.phone, '555-0100');
    assert.equal(after.duty_status, 'sleeper');
    assert.match(after.updated_at, DATETIME);
    assert.ok(after.updated_at >= before.updated_at);
    for (const k of DRIVER_KEYS.filter((k) => !['first_name', 'phone', 'duty_status', 'updated_at'].includes(k))) {
      assert.deepEqual(after[k], before[k], `${k} unchanged`);
    }
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/users/${driver.id}` })).body.user, after);
  });

  test('PUT with an empty body is a no-op 200', async () => {
    const before = (await t.call({ method: 'GET', url: `/v1/users/${driver.id}` })).body.user;
    const res = await t.call({ method: 'PUT', url: `/v1/users/${driver.id}`, payload: {} });
    assert.equal(res.status, 200);
    assert.equal(res.body.user.first_name, before.first_name);
    assert.equal(res.body.user.email, before.email);
  });

  test('PUT refusals change nothing', async () => {
    const other = await createUser(t, { role: 'admin' });
    const before = (await t.call({ method: 'GET', url: `/v1/users/${driver.id}` })).body.user;
    const url = `/v1/users/${driver.id}`;
    await refused('PUT', url, { email: other.email }, /email.*already taken/);
    await refused('PUT', url, { first_name: 7 }, 'first_name must be a string');
    await refused('PUT', url, { first_name: '' }, /first_name/);
    await refused('PUT', url, { role: 'king' }, /role/);
    await refused('PUT', url, { password: 'x' }, /password/);
    await refused('PUT', url, { email: null, username: null }, /email or username/);
    await refused('PUT', url, { group_ids: [1] }, /group_ids/);
    const after = await t.call({ method: 'GET', url }).then((r) => r.body.user);
    assert.deepEqual(after, before);
  });

  test('PUT of an unknown id is 404', async () => {
    assertError(
      await t.call({ method: 'PUT', url: '/v1/users/999999', payload: { first_name: 'X' } }),
      404,
      /not found/,
    );
  });

  test('PUT may keep its own email and username (not a duplicate of itself)', async () => {
    const res = await t.call({
      method: 'PUT',
      url: `/v1/users/${driver.id}`,
      payload: { email: 'erin@example.com', username: 'erin' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });
});
