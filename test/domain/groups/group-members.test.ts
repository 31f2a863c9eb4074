/**
 * Group members (docs/reference/wire.md §3.3, §3.4, §4.18, §10): GET /v1/groups/:id/users, /drivers,
 * /fleet_managers, /vehicles; POST and DELETE /v1/groups/:id/users and /vehicles with ids in the JSON
 * body or in any query syntax; all-or-nothing on bad ids; membership echoed in `group_ids`.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';

let seq = 0;

async function mkUser(t: TestApp, role: 'admin' | 'driver' | 'fleet_user', as?: TestCompany) {
  const n = ++seq;
  const payload =
    role === 'driver'
      ? { first_name: 'Dan', last_name: `Driver${n}`, role, username: `mem_drv${n}` }
      : { first_name: 'Ada', last_name: `Manager${n}`, role, email: `mem_mgr${n}@example.com` };
  const res = await t.call({ method: 'POST', url: '/v1/users', payload, as });
  assert.equal(res.status, 201, res.raw);
  return res.body.user;
}

async function mkVehicle(t: TestApp, as?: TestCompany) {
  const res = await t.call({ method: 'POST', url: '/v1/vehicles', payload: { number: `T-${++seq}` }, as });
  assert.equal(res.status, 201, res.raw);
  return res.body.vehicle;
}

async function mkGroup(t: TestApp, name: string, as?: TestCompany) {
  const res = await t.call({ method: 'POST', url: '/v1/groups', payload: { name }, as });
  assert.equal(res.status, 201, res.raw);
  return res.body.group;
}

function assertError(res: { status: number; body: any; raw: string }, status: number, message?: string | RegExp) {
  assert.equal(res.status, status, res.raw);
  assert.deepEqual(Object.keys(res.body), ['error_message'], res.raw);
  if (typeof message === 'string') assert.equal(res.body.error_message, message);
  else if (message) assert.match(res.body.error_message, message);
}

const ok = (res: { status: number; body: any; raw: string }) => {
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(res.body, { success: true });
};

/** The ids listed by a member endpoint, with its envelope checked. */
async function listed(t: TestApp, groupId: number, path: string, query = '') {
  const res = await t.call({ method: 'GET', url: `/v1/groups/${groupId}/${path}${query}` });
  assert.equal(res.status, 200, res.raw);
  const [plural, singular] = path === 'vehicles' ? ['vehicles', 'vehicle'] : ['users', 'user'];
  assert.deepEqual(Object.keys(res.body), [plural, 'pagination']);
  for (const item of res.body[plural]) assert.deepEqual(Object.keys(item), [singular]);
  return {
    ids: res.body[plural].map((x: any) => x[singular].id),
    items: res.body[plural].map((x: any) => x[singular]),
    pagination: res.body.pagination,
  };
}

async function userGroups(t: TestApp, id: number) {
  return (await t.call({ method: 'GET', url: `/v1/users/${id}` })).body.user.group_ids;
}
async function vehicleGroups(t: TestApp, id: number, as?: TestCompany) {
  return (await t.call({ method: 'GET', url: `/v1/vehicles/${id}`, as })).body.vehicle.group_ids;
}

eachDialect('group members', (dialect) => {
  const get = useApp(dialect);

  it('users: POST adds (idempotently), the lists split by role, group_ids reflect membership', async () => {
    const t = await get();
    const g = await mkGroup(t, 'Yard');
    const other = await mkGroup(t, 'Other');
    const [d1, d2, admin, fleet] = [
      await mkUser(t, 'driver'),
      await mkUser(t, 'driver'),
      await mkUser(t, 'admin'),
      await mkUser(t, 'fleet_user'),
    ];
    const outsider = await mkUser(t, 'driver');

    assert.deepEqual(await listed(t, g.id, 'users'), {
      ids: [],
      items: [],
      pagination: { per_page: 25, page_no: 1, total: 0 },
    });
    ok(
      await t.call({
        method: 'POST',
        url: `/v1/groups/${g.id}/users`,
        payload: { ids: [fleet.id, d1.id, admin.id, d2.id] },
      }),
    );
    ok(await t.call({ method: 'POST', url: `/v1/groups/${g.id}/users`, payload: { ids: [d1.id, d1.id, admin.id] } }));
    ok(await t.call({ method: 'POST', url: `/v1/groups/${other.id}/users`, payload: { ids: [d1.id] } }));

    const all = await listed(t, g.id, 'users');
    assert.deepEqual(all.ids, [d1.id, d2.id, admin.id, fleet.id]);
    assert.deepEqual(all.pagination, { per_page: 25, page_no: 1, total: 4 });
    const wanted = { [d1.id]: [g.id, other.id], [d2.id]: [g.id], [admin.id]: [g.id], [fleet.id]: [g.id] };
    for (const u of all.items) assert.deepEqual(u.group_ids, wanted[u.id], `user ${u.id} group_ids`);
    assert.deepEqual(all.items[0], { ...d1, group_ids: [g.id, other.id], updated_at: all.items[0].updated_at });

    const drivers = await listed(t, g.id, 'drivers');
    assert.deepEqual(drivers.ids, [d1.id, d2.id]);
    assert.deepEqual(drivers.pagination, { per_page: 25, page_no: 1, total: 2 });
    const managers = await listed(t, g.id, 'fleet_managers');
    assert.deepEqual(managers.ids, [admin.id, fleet.id]);
    assert.deepEqual(managers.pagination, { per_page: 25, page_no: 1, total: 2 });

    assert.deepEqual(await listed(t, g.id, 'users', '?per_page=1&page_no=3'), {
      ids: [admin.id],
      items: [all.items[2]],
      pagination: { per_page: 1, page_no: 3, total: 4 },
    });
    assert.deepEqual((await listed(t, g.id, 'users', '?per_page=101')).pagination, {
      per_page: 100,
      page_no: 1,
      total: 4,
    });
    assert.deepEqual((await listed(t, g.id, 'drivers', '?per_page=2&page_no=2')).ids, []);
    assert.deepEqual((await listed(t, g.id, 'drivers', '?per_page=2&page_no=2')).pagination, {
      per_page: 2,
      page_no: 2,
      total: 2,
    });

    assert.deepEqual(await userGroups(t, d1.id), [g.id, other.id]);
    assert.deepEqual(await userGroups(t, outsider.id), []);
    assert.deepEqual(await listed(t, other.id, 'fleet_managers'), {
      ids: [],
      items: [],
      pagination: { per_page: 25, page_no: 1, total: 0 },
    });
  });

  it('vehicles: POST adds, GET lists them paginated with an exact total, group_ids reflect membership', async () => {
    const t = await get();
    const g = await mkGroup(t, 'Reefers');
    const vs = [await mkVehicle(t), await mkVehicle(t), await mkVehicle(t)];
    const spare = await mkVehicle(t);
    ok(await t.call({ method: 'POST', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: vs.map((v) => v.id) } }));
    ok(await t.call({ method: 'POST', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: [vs[0].id] } }));

    const all = await listed(t, g.id, 'vehicles');
    assert.deepEqual(
      all.ids,
      vs.map((v) => v.id),
    );
    assert.deepEqual(all.pagination, { per_page: 25, page_no: 1, total: 3 });
    assert.deepEqual(all.items[1], { ...vs[1], group_ids: [g.id], updated_at: all.items[1].updated_at });
    assert.deepEqual(await listed(t, g.id, 'vehicles', '?per_page=2&page_no=2'), {
      ids: [vs[2].id],
      items: [all.items[2]],
      pagination: { per_page: 2, page_no: 2, total: 3 },
    });
    assert.deepEqual((await listed(t, g.id, 'vehicles', '?page_no=9')).pagination, {
      per_page: 25,
      page_no: 9,
      total: 3,
    });
    assert.deepEqual(await vehicleGroups(t, vs[0].id), [g.id]);
    assert.deepEqual(await vehicleGroups(t, spare.id), []);
  });

  it('DELETE takes ids from the JSON body or the query string in every syntax', async () => {
    const t = await get();
    const g = await mkGroup(t, 'Removals');
    const us = [];
    for (let i = 0; i < 7; i++) us.push((await mkUser(t, 'driver')).id);
    const vs = [];
    for (let i = 0; i < 4; i++) vs.push((await mkVehicle(t)).id);
    ok(await t.call({ method: 'POST', url: `/v1/groups/${g.id}/users`, payload: { ids: us } }));
    ok(await t.call({ method: 'POST', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: vs } }));

    ok(await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/users`, payload: { ids: [us[0]] } }));
    ok(await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/users?ids[]=${us[1]}&ids[]=${us[2]}` }));
    ok(await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/users?ids=${us[3]},${us[4]}` }));
    ok(await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/users?ids[0]=${us[5]}` }));
    assert.deepEqual((await listed(t, g.id, 'users')).ids, [us[6]]);
    assert.deepEqual(await userGroups(t, us[0]), []);
    assert.deepEqual(await userGroups(t, us[6]), [g.id]);
    ok(await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/users`, payload: { ids: [us[0]] } })); // removing a non-member is a no-op

    ok(await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/vehicles?ids=${vs[0]}&ids=${vs[1]}` }));
    ok(await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/vehicles?ids=${vs[2]}` }));
    assert.deepEqual((await listed(t, g.id, 'vehicles')).ids, [vs[3]]);
    assert.deepEqual(await vehicleGroups(t, vs[0]), []);
    ok(await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: [vs[3]] } }));
    assert.deepEqual((await listed(t, g.id, 'vehicles')).pagination, { per_page: 25, page_no: 1, total: 0 });
  });

  it('bad ids: missing or wrongly typed → 400; unknown or foreign → 404 and nothing changes', async () => {
    const t = await get();
    const g = await mkGroup(t, 'Strict');
    const member = await mkUser(t, 'driver');
    const newcomer = await mkUser(t, 'driver');
    const v = await mkVehicle(t);
    const c2 = await t.newCompany('Elsewhere');
    const foreignUser = await mkUser(t, 'driver', c2);
    const foreignVehicle = await mkVehicle(t, c2);
    ok(await t.call({ method: 'POST', url: `/v1/groups/${g.id}/users`, payload: { ids: [member.id] } }));

    for (const path of ['users', 'vehicles']) {
      const url = `/v1/groups/${g.id}/${path}`;
      assertError(await t.call({ method: 'POST', url, payload: {} }), 400, 'ids is required');
      assertError(await t.call({ method: 'DELETE', url }), 400, 'ids is required');
      assertError(await t.call({ method: 'DELETE', url, payload: {} }), 400, 'ids is required');
      const bad: Array<[unknown, string]> = [
        ['x', 'ids must be an array'],
        [null, 'ids must be an array'],
        [[], 'ids must have at least 1 item'],
        [[0], 'ids[0] must be at least 1'],
        [['1'], 'ids[0] must be an integer'],
        [[1.5], 'ids[0] must be an integer'],
      ];
      for (const [ids, message] of bad) {
        assertError(await t.call({ method: 'POST', url, payload: { ids } }), 400, message);
        assertError(await t.call({ method: 'DELETE', url, payload: { ids } }), 400, message);
      }
      assertError(await t.call({ method: 'DELETE', url: `${url}?ids=abc` }), 400, 'ids[0] must be an integer');
      assertError(await t.call({ method: 'DELETE', url: `${url}?ids[]=0` }), 400, 'ids[0] must be at least 1');
      assertError(
        await t.call({ method: 'DELETE', url: `${url}?ids[]=${member.id}&ids[]=x` }),
        400,
        'ids[1] must be an integer',
      );
      assertError(
        await t.call({ method: 'POST', url: `/v1/groups/987654/${path}`, payload: { ids: [1] } }),
        404,
        'group 987654 not found',
      );
      assertError(
        await t.call({ method: 'DELETE', url: `/v1/groups/987654/${path}?ids=1` }),
        404,
        'group 987654 not found',
      );
      assertError(await t.call({ method: 'GET', url: `/v1/groups/987654/${path}` }), 404, 'group 987654 not found');
    }

    const users = `/v1/groups/${g.id}/users`;
    assertError(
      await t.call({ method: 'POST', url: users, payload: { ids: [newcomer.id, 987654] } }),
      404,
      'user 987654 not found',
    );
    assertError(
      await t.call({ method: 'POST', url: users, payload: { ids: [newcomer.id, foreignUser.id] } }),
      404,
      `user ${foreignUser.id} not found`,
    );
    assertError(
      await t.call({ method: 'DELETE', url: users, payload: { ids: [member.id, foreignUser.id] } }),
      404,
      `user ${foreignUser.id} not found`,
    );
    assertError(
      await t.call({ method: 'DELETE', url: `${users}?ids[]=${member.id}&ids[]=987654` }),
      404,
      'user 987654 not found',
    );
    assert.deepEqual((await listed(t, g.id, 'users')).ids, [member.id], 'nothing changed');
    assert.deepEqual(await userGroups(t, newcomer.id), []);

    const vehicles = `/v1/groups/${g.id}/vehicles`;
    assertError(
      await t.call({ method: 'POST', url: vehicles, payload: { ids: [v.id, foreignVehicle.id] } }),
      404,
      `vehicle ${foreignVehicle.id} not found`,
    );
    assert.deepEqual((await listed(t, g.id, 'vehicles')).ids, []);
    ok(await t.call({ method: 'POST', url: vehicles, payload: { ids: [v.id] } }));
    assertError(
      await t.call({ method: 'DELETE', url: vehicles, payload: { ids: [v.id, 987654] } }),
      404,
      'vehicle 987654 not found',
    );
    assert.deepEqual((await listed(t, g.id, 'vehicles')).ids, [v.id]);
    assert.deepEqual(await vehicleGroups(t, foreignVehicle.id, c2), []);

    const big = 99999999999; // beyond the 32-bit id range: refused before it reaches the database
    assertError(
      await t.call({ method: 'POST', url: users, payload: { ids: [newcomer.id, big] } }),
      400,
      'ids[1] must be at most 2147483647',
    );
    assertError(
      await t.call({ method: 'DELETE', url: `${users}?ids=${member.id},${big}` }),
      400,
      'ids[1] must be at most 2147483647',
    );
    assertError(
      await t.call({ method: 'POST', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: [big] } }),
      400,
      'ids[0] must be at most 2147483647',
    );
    assertError(
      await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: [big] } }),
      400,
      'ids[0] must be at most 2147483647',
    );
  });

  it('deleting a group releases its members; other groups keep theirs', async () => {
    const t = await get();
    const doomed = await mkGroup(t, 'Doomed');
    const kept = await mkGroup(t, 'Kept');
    const u = await mkUser(t, 'fleet_user');
    const v = await mkVehicle(t);
    for (const g of [doomed, kept]) {
      ok(await t.call({ method: 'POST', url: `/v1/groups/${g.id}/users`, payload: { ids: [u.id] } }));
      ok(await t.call({ method: 'POST', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: [v.id] } }));
    }
    assert.deepEqual(await userGroups(t, u.id), [doomed.id, kept.id]);
    ok(await t.call({ method: 'DELETE', url: `/v1/groups/${doomed.id}` }));
    assert.deepEqual(await userGroups(t, u.id), [kept.id]);
    assert.deepEqual(await vehicleGroups(t, v.id), [kept.id]);
    for (const path of ['users', 'drivers', 'fleet_managers', 'vehicles']) {
      assertError(
        await t.call({ method: 'GET', url: `/v1/groups/${doomed.id}/${path}` }),
        404,
        `group ${doomed.id} not found`,
      );
    }
    assert.deepEqual((await listed(t, kept.id, 'fleet_managers')).ids, [u.id]);
    assert.deepEqual((await listed(t, kept.id, 'vehicles')).ids, [v.id]);
  });

  it("a second company cannot list, add to or remove from the first company's groups", async () => {
    const t = await get();
    const g = await mkGroup(t, 'Private');
    const u = await mkUser(t, 'driver');
    const v = await mkVehicle(t);
    ok(await t.call({ method: 'POST', url: `/v1/groups/${g.id}/users`, payload: { ids: [u.id] } }));
    ok(await t.call({ method: 'POST', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: [v.id] } }));
    const c2 = await t.newCompany('Intruder');
    const theirUser = await mkUser(t, 'driver', c2);
    const theirGroup = await mkGroup(t, 'Theirs', c2);
    const msg = `group ${g.id} not found`;
    assertError(
      await t.call({ method: 'POST', url: `/v1/groups/${g.id}/users`, payload: { ids: [theirUser.id] }, as: c2 }),
      404,
      msg,
    );
    assertError(await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/users?ids=${u.id}`, as: c2 }), 404, msg);
    assertError(
      await t.call({ method: 'DELETE', url: `/v1/groups/${g.id}/vehicles`, payload: { ids: [v.id] }, as: c2 }),
      404,
      msg,
    );
    assertError(
      await t.call({ method: 'POST', url: `/v1/groups/${theirGroup.id}/users`, payload: { ids: [u.id] }, as: c2 }),
      404,
      `user ${u.id} not found`,
    );
    assertError(
      await t.call({ method: 'POST', url: `/v1/groups/${theirGroup.id}/vehicles`, payload: { ids: [v.id] }, as: c2 }),
      404,
      `vehicle ${v.id} not found`,
    );
    assert.deepEqual((await listed(t, g.id, 'users')).ids, [u.id]);
    assert.deepEqual((await listed(t, g.id, 'vehicles')).ids, [v.id]);
    assert.deepEqual(await userGroups(t, u.id), [g.id]);
    assert.deepEqual((await t.call({ method: 'GET', url: `/v1/groups/${theirGroup.id}/users`, as: c2 })).body, {
      users: [],
      pagination: { per_page: 25, page_no: 1, total: 0 },
    });
  });
});
