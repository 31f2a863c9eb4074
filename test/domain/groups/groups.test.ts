/**
 * /v1/groups and /v1/groups/:id (docs/reference/wire.md §3, §4.1, §4.18, §5): the exact envelopes, the group
 * object with its owner summary, create/update/delete rules, pagination edges, tenant isolation and
 * authentication. Members are in group-members.test.ts.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';

const GROUP_KEYS = ['id', 'company_id', 'name', 'parent_id', 'user'];
let seq = 0;

async function mkUser(
  t: TestApp,
  role: 'admin' | 'driver' | 'fleet_user',
  as?: TestCompany,
  extra: Record<string, unknown> = {},
) {
  const n = ++seq;
  const payload =
    role === 'driver'
      ? { first_name: 'Dan', last_name: `Driver${n}`, role, username: `grp_drv${n}` }
      : { first_name: 'Ada', last_name: `Manager${n}`, role, email: `grp_mgr${n}@example.com` };
  const res = await t.call({ method: 'POST', url: '/v1/users', payload: { ...payload, ...extra }, as });
  assert.equal(res.status, 201, res.raw);
  return res.body.user;
}

/** The UserSummary of a full user record (docs/reference/wire.md §4.1), in its key order. */
function summary(u: any) {
  const { id, first_name, last_name, username, email, driver_company_id, status, role } = u;
  return {
    id,
    first_name,
    last_name,
    username: username ?? null,
    email,
    driver_company_id: driver_company_id ?? null,
    status,
    role,
  };
}

async function mkGroup(
  t: TestApp,
  body: Record<string, unknown>,
  as?: TestCompany,
  headers: Record<string, string> = {},
) {
  const res = await t.call({ method: 'POST', url: '/v1/groups', payload: body, as, headers });
  assert.equal(res.status, 201, res.raw);
  return res.body.group;
}

function assertError(res: { status: number; body: any; raw: string }, status: number, message?: string | RegExp) {
  assert.equal(res.status, status, res.raw);
  assert.deepEqual(Object.keys(res.body), ['error_message'], res.raw);
  assert.equal(typeof res.body.error_message, 'string');
  if (typeof message === 'string') assert.equal(res.body.error_message, message);
  else if (message) assert.match(res.body.error_message, message);
}

eachDialect('groups', (dialect) => {
  const get = useApp(dialect);

  it('POST /v1/groups creates a root group owned by the first active admin (201, exact body)', async () => {
    const t = await get();
    const admin = await mkUser(t, 'admin');
    await mkUser(t, 'admin');
    const res = await t.call({ method: 'POST', url: '/v1/groups', payload: { name: '  West Coast  ' } });
    assert.equal(res.status, 201, res.raw);
    assert.deepEqual(Object.keys(res.body), ['group']);
    assert.deepEqual(Object.keys(res.body.group), GROUP_KEYS);
    assert.deepEqual(res.body.group, {
      id: res.body.group.id,
      company_id: t.company.id,
      name: 'West Coast',
      parent_id: null,
      user: summary(admin),
    });
    assert.ok(Number.isInteger(res.body.group.id) && res.body.group.id > 0);
    assert.equal(typeof res.body.group.company_id, 'number');
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/groups/${res.body.group.id}` })).body, res.body);
  });

  it('X-User-Id names the owning admin; a non-admin X-User-Id is 403', async () => {
    const t = await get();
    const second = await mkUser(t, 'admin');
    const g = await mkGroup(t, { name: 'Acting' }, undefined, { 'x-user-id': String(second.id) });
    assert.deepEqual(g.user, summary(second));
    const drv = await mkUser(t, 'driver');
    assertError(
      await t.call({
        method: 'POST',
        url: '/v1/groups',
        payload: { name: 'X' },
        headers: { 'x-user-id': String(drv.id) },
      }),
      403,
    );
  });

  it('a child group carries parent_id; PUT is partial and rejects cycles', async () => {
    const t = await get();
    const root = await mkGroup(t, { name: 'Root' });
    const child = await mkGroup(t, { name: 'Child', parent_id: root.id });
    const grandchild = await mkGroup(t, { name: 'Grandchild', parent_id: child.id });
    assert.equal(child.parent_id, root.id);

    const renamed = await t.call({ method: 'PUT', url: `/v1/groups/${child.id}`, payload: { name: 'Child 2' } });
    assert.equal(renamed.status, 200, renamed.raw);
    assert.deepEqual(renamed.body, { group: { ...child, name: 'Child 2' } });

    assertError(
      await t.call({ method: 'PUT', url: `/v1/groups/${root.id}`, payload: { parent_id: grandchild.id } }),
      400,
      /parent_id/,
    );
    assertError(
      await t.call({ method: 'PUT', url: `/v1/groups/${root.id}`, payload: { parent_id: root.id } }),
      400,
      /parent_id/,
    );
    assertError(await t.call({ method: 'PUT', url: `/v1/groups/${child.id}`, payload: { name: '   ' } }), 400, /name/);
    assertError(
      await t.call({ method: 'PUT', url: `/v1/groups/${child.id}`, payload: { parent_id: 999999 } }),
      404,
      'group 999999 not found',
    );
    assert.deepEqual(
      (await t.call({ method: 'GET', url: `/v1/groups/${root.id}` })).body,
      { group: root },
      'root unchanged',
    );

    const moved = await t.call({ method: 'PUT', url: `/v1/groups/${grandchild.id}`, payload: { parent_id: null } });
    assert.deepEqual(moved.body, { group: { ...grandchild, parent_id: null } });
  });

  it('bad create input: 400 naming the field, never 422', async () => {
    const t = await get();
    assertError(await t.call({ method: 'POST', url: '/v1/groups', payload: {} }), 400, 'name is required');
    assertError(await t.call({ method: 'POST', url: '/v1/groups', payload: { name: '   ' } }), 400, 'name is required');
    assertError(await t.call({ method: 'POST', url: '/v1/groups', payload: { name: 5 } }), 400, /^name /);
    assertError(await t.call({ method: 'POST', url: '/v1/groups', payload: { name: 'x'.repeat(256) } }), 400, /^name /);
    assertError(
      await t.call({ method: 'POST', url: '/v1/groups', payload: { name: 'P', parent_id: 'one' } }),
      400,
      /parent_id/,
    );
    assertError(
      await t.call({ method: 'POST', url: '/v1/groups', payload: { name: 'P', parent_id: 987654 } }),
      404,
      'group 987654 not found',
    );
    assertError(
      await t.call({ method: 'POST', url: '/v1/groups', payload: 'name=x', headers: { 'content-type': 'text/plain' } }),
      400,
      /application\/json/,
    );
    assertError(await t.call({ method: 'GET', url: '/v1/groups/987654' }), 404, 'group 987654 not found');
    assertError(await t.call({ method: 'GET', url: '/v1/groups/abc' }), 400, /id/);
  });

  it('ids beyond the 32-bit storage range are refused with 400 naming the field, never a 500', async () => {
    const t = await get();
    const g = await mkGroup(t, { name: 'Range' });
    const big = 99999999999;
    for (const path of ['', '/users', '/drivers', '/fleet_managers', '/vehicles']) {
      assertError(
        await t.call({ method: 'GET', url: `/v1/groups/${big}${path}` }),
        400,
        'id must be at most 2147483647',
      );
    }
    assertError(
      await t.call({ method: 'PUT', url: `/v1/groups/${big}`, payload: { name: 'x' } }),
      400,
      'id must be at most 2147483647',
    );
    assertError(await t.call({ method: 'DELETE', url: `/v1/groups/${big}` }), 400, 'id must be at most 2147483647');
    assertError(
      await t.call({ method: 'POST', url: '/v1/groups', payload: { name: 'x', parent_id: big } }),
      400,
      /^parent_id /,
    );
    assertError(
      await t.call({ method: 'POST', url: '/v1/groups', payload: { name: 'x', user_id: big } }),
      400,
      /^user_id /,
    );
    assertError(
      await t.call({ method: 'PUT', url: `/v1/groups/${g.id}`, payload: { user_id: big } }),
      400,
      /^user_id /,
    );
  });

  it('DELETE /v1/groups/:id answers {"success":true}, children become roots, then 404', async () => {
    const t = await get();
    const parent = await mkGroup(t, { name: 'Doomed' });
    const child = await mkGroup(t, { name: 'Orphan', parent_id: parent.id });
    const res = await t.call({ method: 'DELETE', url: `/v1/groups/${parent.id}` });
    assert.equal(res.status, 200, res.raw);
    assert.deepEqual(res.body, { success: true });
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/groups/${child.id}` })).body, {
      group: { ...child, parent_id: null },
    });
    assertError(await t.call({ method: 'GET', url: `/v1/groups/${parent.id}` }), 404, `group ${parent.id} not found`);
    assertError(await t.call({ method: 'DELETE', url: `/v1/groups/${parent.id}` }), 404);
    assertError(await t.call({ method: 'PUT', url: `/v1/groups/${parent.id}`, payload: { name: 'Back' } }), 404);
  });

  it('the owner is null when the company has no active admin', async () => {
    const t = await get();
    const c = await t.newCompany('No Admin Co');
    assert.equal((await mkGroup(t, { name: 'Nobody' }, c)).user, null);
    await mkUser(t, 'driver', c);
    await mkUser(t, 'fleet_user', c);
    assert.equal((await mkGroup(t, { name: 'Still nobody' }, c)).user, null);
    const admin = await mkUser(t, 'admin', c, { status: 'deactivated' });
    assert.equal((await mkGroup(t, { name: 'Deactivated admin' }, c)).user, null);
    await t.call({ method: 'PUT', url: `/v1/users/${admin.id}`, payload: { status: 'active' }, as: c });
    assert.deepEqual((await mkGroup(t, { name: 'Owned' }, c)).user, { ...summary(admin), status: 'active' });
  });
});

eachDialect('groups list', (dialect) => {
  const get = useApp(dialect);

  it('GET /v1/groups: envelope, ascending ids, per_page 1/100/101 and past the end', async () => {
    const t = await get();
    const empty = await t.call({ method: 'GET', url: '/v1/groups' });
    assert.deepEqual(empty.body, { groups: [], pagination: { per_page: 25, page_no: 1, total: 0 } });

    const made = [];
    for (let i = 1; i <= 102; i++) made.push(await mkGroup(t, { name: `G${i}` }));
    const ids = made.map((g) => g.id);

    const first = await t.call({ method: 'GET', url: '/v1/groups' });
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body), ['groups', 'pagination']);
    assert.deepEqual(first.body.pagination, { per_page: 25, page_no: 1, total: 102 });
    assert.deepEqual(first.body.groups.slice(0, 2), [{ group: made[0] }, { group: made[1] }]);
    for (const item of first.body.groups) {
      assert.deepEqual(Object.keys(item), ['group']);
      assert.deepEqual(Object.keys(item.group), GROUP_KEYS);
    }

    const one = await t.call({ method: 'GET', url: '/v1/groups?per_page=1&page_no=2' });
    assert.deepEqual(one.body, { groups: [{ group: made[1] }], pagination: { per_page: 1, page_no: 2, total: 102 } });

    const hundred = await t.call({ method: 'GET', url: '/v1/groups?per_page=100' });
    assert.deepEqual(
      hundred.body.groups.map((x: any) => x.group.id),
      ids.slice(0, 100),
    );
    assert.deepEqual(hundred.body.pagination, { per_page: 100, page_no: 1, total: 102 });

    const clamped = await t.call({ method: 'GET', url: '/v1/groups?per_page=101&page_no=2' });
    assert.deepEqual(
      clamped.body.groups.map((x: any) => x.group.id),
      ids.slice(100),
    );
    assert.deepEqual(clamped.body.pagination, { per_page: 100, page_no: 2, total: 102 });

    const past = await t.call({ method: 'GET', url: '/v1/groups.json?per_page=50&page_no=4' });
    assert.equal(past.status, 200);
    assert.deepEqual(past.body, { groups: [], pagination: { per_page: 50, page_no: 4, total: 102 } });
    const far = await t.call({ method: 'GET', url: '/v1/groups?page_no=99999999999' });
    assert.deepEqual(far.body, { groups: [], pagination: { per_page: 25, page_no: 99999999999, total: 102 } });

    // Walking pages the way reedwi does collects every group exactly once.
    const seen: number[] = [];
    for (let p = 1; seen.length < 102 && p < 10; p++) {
      const r = await t.call({ method: 'GET', url: `/v1/groups?per_page=30&page_no=${p}` });
      seen.push(...r.body.groups.map((x: any) => x.group.id));
    }
    assert.deepEqual(seen, ids);

    // An absurd page_no is past the end too (or a 400): never a 500.
    const absurd = await t.call({ method: 'GET', url: '/v1/groups?page_no=1e20' });
    if (absurd.status === 400) assertError(absurd, 400, /page_no/);
    else
      assert.deepEqual([absurd.status, absurd.body.groups, absurd.body.pagination?.total], [200, [], 102], absurd.raw);
  });
});

eachDialect('groups tenant isolation and authentication', (dialect) => {
  const get = useApp(dialect);

  it("a second company sees none of the first company's groups", async () => {
    const t = await get();
    const admin = await mkUser(t, 'admin');
    const g = await mkGroup(t, { name: 'Mine' });
    assert.deepEqual(g.user, summary(admin));
    const other = await t.newCompany('Other Co');
    const otherDriver = await mkUser(t, 'driver', other);

    const list = await t.call({ method: 'GET', url: '/v1/groups', as: other });
    assert.deepEqual(list.body, { groups: [], pagination: { per_page: 25, page_no: 1, total: 0 } });

    const msg = `group ${g.id} not found`;
    const attempts = [
      { method: 'GET', url: `/v1/groups/${g.id}` },
      { method: 'PUT', url: `/v1/groups/${g.id}`, payload: { name: 'Stolen' } },
      { method: 'DELETE', url: `/v1/groups/${g.id}` },
      { method: 'GET', url: `/v1/groups/${g.id}/users` },
      { method: 'GET', url: `/v1/groups/${g.id}/drivers` },
      { method: 'GET', url: `/v1/groups/${g.id}/fleet_managers` },
      { method: 'GET', url: `/v1/groups/${g.id}/vehicles` },
      { method: 'POST', url: `/v1/groups/${g.id}/users`, payload: { ids: [otherDriver.id] } },
      { method: 'POST', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: [1] } },
      { method: 'DELETE', url: `/v1/groups/${g.id}/users`, payload: { ids: [otherDriver.id] } },
      { method: 'DELETE', url: `/v1/groups/${g.id}/vehicles?ids[]=1` },
      { method: 'POST', url: '/v1/groups', payload: { name: 'Child', parent_id: g.id } },
    ] as const;
    for (const a of attempts) assertError(await t.call({ ...a, as: other }), 404, msg);

    const theirs = await mkGroup(t, { name: 'Theirs' }, other);
    assert.equal(theirs.company_id, other.id);
    assert.equal(theirs.user, null, "the first company's admin never owns the second company's groups");
    assertError(
      await t.call({ method: 'PUT', url: `/v1/groups/${theirs.id}`, payload: { parent_id: g.id }, as: other }),
      404,
      msg,
    );
    assertError(await t.call({ method: 'GET', url: `/v1/groups/${theirs.id}` }), 404);

    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/groups/${g.id}` })).body, { group: g }, 'unchanged');
    const mine = await t.call({ method: 'GET', url: '/v1/groups' });
    assert.deepEqual(mine.body, { groups: [{ group: g }], pagination: { per_page: 25, page_no: 1, total: 1 } });
  });

  it('every group route answers 401 without a key and with a bad key', async () => {
    const t = await get();
    const routes = [
      ['GET', '/v1/groups'],
      ['POST', '/v1/groups'],
      ['GET', '/v1/groups/1'],
      ['PUT', '/v1/groups/1'],
      ['DELETE', '/v1/groups/1'],
      ['GET', '/v1/groups/1/users'],
      ['GET', '/v1/groups/1/drivers'],
      ['GET', '/v1/groups/1/fleet_managers'],
      ['GET', '/v1/groups/1/vehicles'],
      ['POST', '/v1/groups/1/users'],
      ['POST', '/v1/groups/1/vehicles'],
      ['DELETE', '/v1/groups/1/users'],
      ['DELETE', '/v1/groups/1/vehicles'],
    ] as const;
    for (const [method, url] of routes) {
      const payload = method === 'GET' ? undefined : { name: 'x', ids: [1] };
      const none = await t.app.inject({ method, url, payload });
      assert.equal(none.statusCode, 401, `${method} ${url}: ${none.body}`);
      assert.deepEqual(Object.keys(JSON.parse(none.body)), ['error_message']);
      const bad = await t.app.inject({ method, url, payload, headers: { 'X-API-KEY': 'nope' } });
      assert.equal(bad.statusCode, 401, `${method} ${url}`);
      assert.deepEqual(JSON.parse(bad.body), { error_message: 'invalid API key' });
    }
    assert.equal(
      (await t.call({ method: 'GET', url: '/v1/groups/1', headers: { 'X-Api-Key': t.company.apiKey } })).status !== 401,
      true,
    );
  });
});
