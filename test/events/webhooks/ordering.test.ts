/**
 * Order (issue 9 §3): one webhook sees each object's events in the order they happened, one at a
 * time, even when an earlier one is being retried; other objects are not held up. On PostgreSQL an
 * event whose transaction commits after a later id is not skipped.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { eachDialect } from '../../helper.js';
import { registerHook, useHookApp, useReceiver, type HookApp, type Receiver } from './receiver.js';

eachDialect('webhook ordering', (dialect) => {
  const getApp = useHookApp(dialect);
  const getReceiver = useReceiver();
  let t: HookApp;
  let r: Receiver;
  before(async () => {
    t = await getApp();
    r = await getReceiver();
  });

  const newUser = async (name: string) =>
    (
      await t.call({
        method: 'POST',
        url: '/v1/users',
        payload: {
          first_name: name,
          last_name: 'v0',
          role: 'driver',
          username: `${name}.${dialect}`,
          password: 'long-enough-passphrase',
        },
      })
    ).body.user.id as number;
  const rename = (id: number, last: string) =>
    t.call({ method: 'PUT', url: `/v1/users/${id}`, payload: { last_name: last } });

  it('a retried event holds back later events of the same object, not of others', async () => {
    const hook = await registerHook(t, r, ['user_upserted']);
    const a = await newUser('ordera');
    const b = await newUser('orderb');
    let failFirstOfA = true;
    r.respond = (req) => {
      if (req.body?.id === a && req.body?.last_name === 'v0' && failFirstOfA) {
        failFirstOfA = false;
        return { status: 500 };
      }
      return { status: 200 };
    };
    await rename(a, 'v1');
    await rename(a, 'v2');
    await rename(b, 'v1');
    await t.run();
    const seen = () => r.deliveries(hook.path).map((x) => `${x.body.id === a ? 'a' : 'b'}:${x.body.last_name}`);
    assert.deepEqual(seen(), ['a:v0', 'b:v0', 'b:v1'], 'a waits behind its failed first event; b goes on');
    t.clock.advance(10_000);
    await t.run();
    assert.deepEqual(seen(), ['a:v0', 'b:v0', 'b:v1', 'a:v0', 'a:v1', 'a:v2']);
  });

  it('many events of a few objects arrive in order per object', async () => {
    const hook = await registerHook(t, r, ['user_upserted']);
    r.respond = () => ({ status: 200 });
    const ids = [await newUser('many1'), await newUser('many2'), await newUser('many3')];
    for (let round = 1; round <= 8; round++) for (const id of ids) await rename(id, `v${round}`);
    await t.run();
    for (const id of ids) {
      const names = r
        .deliveries(hook.path)
        .filter((x) => x.body.id === id)
        .map((x) => x.body.last_name);
      assert.deepEqual(names, ['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8']);
    }
  });

  if (dialect === 'postgres') {
    it('an event committed after a later id is delivered, not skipped', async () => {
      const hook = await registerHook(t, r, ['user_upserted']);
      r.respond = () => ({ status: 200 });
      const slow = new pg.Client({ connectionString: t.databaseUrl });
      await slow.connect();
      try {
        await slow.query('begin');
        // Takes its id now and commits last.
        await slow.query(
          `insert into domain_events (company_id, action, trigger, subject_type, subject_id, data, occurred_at)
           values ($1, 'user_upserted', 'updated', 'user', '999001', $2, $3)`,
          [
            t.company.id,
            JSON.stringify({ id: 999001, first_name: 'Late', last_name: 'Commit' }),
            new Date().toISOString(),
          ],
        );
        const later = await newUser('laterid');
        await t.run();
        assert.deepEqual(
          r.deliveries(hook.path).map((x) => x.body.id),
          [later],
          'the committed event does not wait for the open one',
        );
        await slow.query('commit');
        await t.run();
        assert.deepEqual(
          r.deliveries(hook.path).map((x) => x.body.id),
          [later, 999001],
          'the lower id, committed last, is not lost',
        );
      } finally {
        await slow.end();
      }
    });
  }
});
