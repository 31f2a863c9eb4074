/** /v1/messages: sending (201 {"success":true}, sender, recipients, 404), listing with filters, marking read (PUT). */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp, type TestCompany } from '../../helper.js';
import {
  DATETIME,
  USER_SUMMARY_KEYS,
  assertError,
  assertList,
  createUser,
  idsOf,
  totalOf,
} from '../../http/fixtures.js';
import { MESSAGE_KEYS, eventsOf } from '../../http/record-fixtures.js';

eachDialect('messages', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let other: TestCompany;
  let admin: any;
  let admin2: any;
  let d1: any;
  let d2: any;
  let d3: any;
  let theirs: any;

  const send = (payload: unknown, headers: Record<string, string> = {}) =>
    t.call({ method: 'POST', url: '/v1/messages', payload: payload as any, headers });
  const list = async (q = '') => {
    const res = await t.call({ method: 'GET', url: `/v1/messages${q}` });
    return assertList(res, 'messages', 'message');
  };

  before(async () => {
    t = await getApp();
    admin = await createUser(t, { role: 'admin', first_name: 'Ada', last_name: 'Admin' });
    admin2 = await createUser(t, { role: 'admin', first_name: 'Bea', last_name: 'Boss' });
    d1 = await createUser(t, { first_name: 'Dan' });
    d2 = await createUser(t, { first_name: 'Dora' });
    d3 = await createUser(t, { first_name: 'Dirk' });
    other = await t.newCompany('Other Co');
    theirs = await createUser(t, {}, other);
  });

  async function refused(
    payload: unknown,
    status: number,
    message: string | RegExp,
    headers: Record<string, string> = {},
  ) {
    const before = await totalOf(t, '/v1/messages');
    assertError(await send(payload, headers), status, message);
    assert.equal(await totalOf(t, '/v1/messages'), before, 'nothing was sent');
  }

  test('POST → 201 {"success":true}; the message is listed with sender (first active admin) and recipient', async () => {
    const res = await send({ recipient_id: d1.id, body: 'Load at dock 4' });
    assert.equal(res.status, 201);
    assert.equal(res.raw, '{"success":true}');
    const items = await list(`?recipient_ids=${d1.id}`);
    assert.equal(items.length, 1);
    const m = items[0];
    assert.deepEqual(Object.keys(m), MESSAGE_KEYS);
    assert.equal(m.body, 'Load at dock 4');
    assert.deepEqual(Object.keys(m.sender), USER_SUMMARY_KEYS);
    assert.equal(m.sender.id, admin.id, 'sender is the first active admin');
    assert.equal(m.recipient.id, d1.id);
    assert.match(m.sent_at, DATETIME);
    assert.equal(m.read_at, null);
    const events = await eventsOf(t, 'message');
    assert.deepEqual(events.at(-1), { action: 'message_created', trigger: null, subject_id: String(m.id) });
  });

  test('X-User-Id names the sender; a user who is not an admin is 403 and nothing is sent', async () => {
    assert.equal(
      (await send({ recipient_id: d2.id, body: 'from Bea' }, { 'X-User-Id': String(admin2.id) })).status,
      201,
    );
    const [m] = await list(`?recipient_ids=${d2.id}`);
    assert.equal(m.sender.id, admin2.id);
    await refused({ recipient_id: d2.id, body: 'x' }, 403, /X-User-Id/, { 'X-User-Id': String(d1.id) });
  });

  test('recipient_ids sends one message to each recipient', async () => {
    const before = await totalOf(t, '/v1/messages');
    const res = await send({ recipient_ids: [d2.id, d3.id, d3.id], body: 'Safety meeting at 7' });
    assert.equal(res.status, 201);
    assert.equal(await totalOf(t, '/v1/messages'), before + 2, 'duplicates are sent once');
    assert.equal((await list(`?recipient_ids=${d3.id}`)).length, 1);
  });

  test('the form-encoded body of the 2017 docs is accepted', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/messages',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `recipient_id=${d3.id}&body=hello%2C+this+is+a+test`,
    });
    assert.equal(res.status, 201, res.raw);
    const items = await list(`?recipient_ids=${d3.id}`);
    assert.equal(items.at(-1).body, 'hello, this is a test');
  });

  test('unknown recipients and recipients of another company are 404; nothing is sent', async () => {
    await refused({ recipient_id: 999999, body: 'x' }, 404, 'recipient 999999 not found');
    await refused({ recipient_id: theirs.id, body: 'x' }, 404, `recipient ${theirs.id} not found`);
    await refused({ recipient_ids: [d1.id, 999999], body: 'x' }, 404, 'recipient 999999 not found');
  });

  test('bad bodies are 400 naming the field; nothing is sent', async () => {
    await refused({ body: 'x' }, 400, 'recipient_id is required');
    await refused({ recipient_id: d1.id }, 400, 'body is required');
    await refused({ recipient_id: d1.id, body: '   ' }, 400, 'body must not be empty');
    await refused({ recipient_id: 'abc', body: 'x' }, 400, 'recipient_id must be an integer');
    await refused({ recipient_id: d1.id, body: 5 }, 400, 'body must be a string');
    await refused({ recipient_ids: [], body: 'x' }, 400, /recipient_ids must have at least 1 item/);
    await refused({ recipient_ids: [d1.id, 'x'], body: 'x' }, 400, /recipient_ids\[1\]/);
    await refused({ recipient_id: d1.id, recipient_ids: [d2.id], body: 'x' }, 400, /not both/);
    await refused({ recipient_id: d1.id, body: 'x'.repeat(10_001) }, 400, /body must be at most 10000 characters/);
  });

  test('a deactivated recipient is refused', async () => {
    const gone = await createUser(t);
    assert.equal(
      (await t.call({ method: 'PUT', url: `/v1/users/${gone.id}`, payload: { status: 'deactivated' } })).status,
      200,
    );
    await refused({ recipient_id: gone.id, body: 'x' }, 400, `recipient_id names user ${gone.id}, who is deactivated`);
  });

  test('filters: driver_ids (either side), sender_ids, recipient_ids, in every array syntax', async () => {
    const toD1 = idsOf(
      { messages: (await list(`?recipient_ids=${d1.id}`)).map((m) => ({ message: m })) },
      'messages',
      'message',
    );
    for (const q of [`?driver_ids=${d1.id}`, `?driver_ids[]=${d1.id}`, `?driver_ids[0]=${d1.id}`]) {
      assert.deepEqual(
        (await list(q)).map((m) => m.id),
        toD1,
        q,
      );
    }
    const both = await list(`?recipient_ids=${d1.id},${d2.id}`);
    assert.ok(both.every((m) => [d1.id, d2.id].includes(m.recipient.id)));
    assert.ok(both.some((m) => m.recipient.id === d2.id) && both.some((m) => m.recipient.id === d1.id));
    const byBea = await list(`?sender_ids[]=${admin2.id}`);
    assert.deepEqual(
      byBea.map((m) => m.body),
      ['from Bea'],
    );
    const asSenderOrRecipient = await list(`?driver_ids=${admin2.id}`);
    assert.deepEqual(
      asSenderOrRecipient.map((m) => m.body),
      ['from Bea'],
    );
    assert.deepEqual(await list('?recipient_ids=999999'), []);
  });

  test('date window on sent_at, inclusive, in X-Time-Zone days', async () => {
    assert.equal((await send({ recipient_id: d1.id, body: 'old news' })).status, 201);
    const [old] = (await list(`?recipient_ids=${d1.id}`)).filter((m) => m.body === 'old news');
    // 2024-03-10 03:00 UTC is still March 9 in Chicago
    await t.db.kysely
      .updateTable('messages')
      .set({ sent_at: '2024-03-10T03:00:00.000Z' })
      .where('id', '=', old.id)
      .execute();
    assert.deepEqual(
      (await list('?start_date=2024-03-10&end_date=2024-03-10')).map((m) => m.id),
      [old.id],
    );
    assert.deepEqual(
      (await list('?start_date=2024-03-09&end_date=2024-03-09')).map((m) => m.id),
      [],
    );
    const res = await t.call({
      method: 'GET',
      url: '/v1/messages?start_date=2024-03-09&end_date=2024-03-09',
      headers: { 'X-Time-Zone': 'Central Time (US & Canada)' },
    });
    assert.deepEqual(
      assertList(res, 'messages', 'message').map((m) => m.id),
      [old.id],
    );
    assert.deepEqual(
      (await list('?end_date=2024-03-10')).map((m) => m.id),
      [old.id],
    );
    assert.ok(!(await list('?start_date=2024-03-11')).some((m) => m.id === old.id));
  });

  test('bad filters are 400 naming the parameter', async () => {
    assertError(await t.call({ method: 'GET', url: '/v1/messages?driver_ids=abc' }), 400, /driver_ids/);
    assertError(
      await t.call({ method: 'GET', url: '/v1/messages?status=seen' }),
      400,
      /status must be one of: all, read, unread/,
    );
    assertError(
      await t.call({ method: 'GET', url: '/v1/messages?start_date=2024-02-30' }),
      400,
      'start_date is not a valid date (2024-02-30)',
    );
    assertError(await t.call({ method: 'GET', url: '/v1/messages?start_date=03/01/2024' }), 400, /start_date/);
    assertError(
      await t.call({ method: 'GET', url: '/v1/messages?start_date=2024-03-02&end_date=2024-03-01' }),
      400,
      'end_date must not be before start_date',
    );
  });

  test('PUT marks read (keeping the first read time), status filters, read:false marks unread', async () => {
    const unread = await list('?status=unread');
    const [a, b] = unread;
    let res = await t.call({ method: 'PUT', url: '/v1/messages', payload: { ids: [a.id, b.id] } });
    assert.equal(res.status, 200);
    assert.equal(res.raw, '{"success":true}');
    const read = await list('?status=read');
    assert.deepEqual(
      read.map((m) => m.id),
      [a.id, b.id],
    );
    for (const m of read) assert.match(m.read_at, DATETIME);
    await t.db.kysely
      .updateTable('messages')
      .set({ read_at: '2024-01-01T00:00:00.000Z' })
      .where('id', '=', a.id)
      .execute();
    assert.equal(
      (await t.call({ method: 'PUT', url: '/v1/messages', payload: { ids: [a.id], read: true } })).status,
      200,
    );
    assert.equal(
      (await list('?status=read')).find((m) => m.id === a.id).read_at,
      '2024-01-01T00:00:00Z',
      'first read time kept',
    );
    res = await t.call({ method: 'PUT', url: '/v1/messages', payload: { ids: [a.id], read: false } });
    assert.equal(res.status, 200);
    assert.deepEqual(
      (await list('?status=read')).map((m) => m.id),
      [b.id],
    );
    assert.equal((await list('?status=all')).length, await totalOf(t, '/v1/messages'));
  });

  test('PUT refusals change nothing: unknown or foreign ids → 404, bad bodies → 400', async () => {
    const [m] = await list('?status=unread');
    const theirMessage = await t.call({
      method: 'POST',
      url: '/v1/messages',
      payload: { recipient_id: theirs.id, body: 'x' },
      as: other,
    });
    assert.equal(theirMessage.status, 201);
    const [foreign] = assertList(
      await t.call({ method: 'GET', url: '/v1/messages', as: other }),
      'messages',
      'message',
    );
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{ ids: [m.id, 999999] }, 404, 'message 999999 not found'],
      [{ ids: [m.id, foreign.id] }, 404, `message ${foreign.id} not found`],
      [{}, 400, 'ids is required'],
      [{ ids: [] }, 400, /ids must have at least 1 item/],
      [{ ids: [m.id], read: 'yes' }, 400, 'read must be a boolean'],
    ];
    for (const [payload, status, message] of cases) {
      assertError(await t.call({ method: 'PUT', url: '/v1/messages', payload: payload as any }), status, message);
    }
    assert.ok(
      (await list('?status=unread')).some((x) => x.id === m.id),
      'still unread',
    );
    const theirs2 = assertList(await t.call({ method: 'GET', url: '/v1/messages', as: other }), 'messages', 'message');
    assert.equal(theirs2[0].read_at, null);
  });

  test('tenant isolation: each company lists only its own messages', async () => {
    const mine = await list();
    const res = await t.call({ method: 'GET', url: '/v1/messages', as: other });
    const items = assertList(res, 'messages', 'message');
    assert.equal(items.length, 1);
    assert.ok(!mine.some((m) => m.id === items[0].id));
    assert.equal(items[0].sender, null, 'a company without an admin sends with no sender');
  });

  test('pagination: per_page and page_no, exact total', async () => {
    const total = await totalOf(t, '/v1/messages');
    const res = await t.call({ method: 'GET', url: '/v1/messages?per_page=2&page_no=2' });
    const items = assertList(res, 'messages', 'message');
    assert.deepEqual(res.body.pagination, { per_page: 2, page_no: 2, total });
    assert.equal(items.length, Math.min(2, total - 2));
  });
});
