/**
 * Telemetry write transactions (src/telemetry/store/tx.ts): on SQLite, writes asked for in one turn of
 * the event loop share one transaction and one commit, each under its own savepoint; every caller is
 * answered after the commit; a failing write is rolled back alone; a failing commit fails them all. On
 * PostgreSQL each write is its own transaction, with the same answers to callers.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { openDb, type Db } from '../../src/storage/db.js';
import { GROUP_BUDGET_MS, GROUP_MAX, writeTx } from '../../src/telemetry/store/tx.js';
import { eachDialect, useFreshDb } from '../helper.js';

const insert = (db: Db, x: number) =>
  writeTx(db, async (trx) => {
    await sql`insert into wg_items (x) values (${x})`.execute(trx);
    return x;
  });

const stored = async (db: Db) =>
  (await sql<{ x: number }>`select x from wg_items order by x`.execute(db.kysely)).rows.map((r) => Number(r.x));

/** Statements run on the connection, in order (begin/commit/rollback/savepoint commands only). */
function watchTx(db: Db): { log: string[]; stop: () => void } {
  const log: string[] = [];
  const stop = db.observeQueries((e) => {
    const text = e.query.sql.trim().toLowerCase();
    if (/^(begin|commit|rollback|savepoint|release)/.test(text)) log.push(text.split(' ')[0]);
  });
  return { log, stop };
}

eachDialect('telemetry write transactions', (dialect) => {
  const fresh = useFreshDb(dialect, (db) => sql`create table wg_items (x integer not null unique)`.execute(db.kysely));
  let db: Db;
  before(() => {
    db = fresh();
  });

  test('concurrent writes: a failing one is rolled back alone with its error, the others are stored and answered', async () => {
    await sql`delete from wg_items`.execute(db.kysely);
    const failing = writeTx(db, async (trx) => {
      await sql`insert into wg_items (x) values (3)`.execute(trx);
      throw new Error('write 3 failed after its insert');
    });
    const results = await Promise.allSettled([insert(db, 1), insert(db, 2), failing, insert(db, 4)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      [1, 2, 'write 3 failed after its insert', 4],
    );
    assert.deepEqual(await stored(db), [1, 2, 4]);
  });

  test('a write that breaks a constraint fails with the database error; the next writes go on', async () => {
    await sql`delete from wg_items`.execute(db.kysely);
    await insert(db, 10);
    const results = await Promise.allSettled([insert(db, 11), insert(db, 10), insert(db, 12)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /unique|UNIQUE|duplicate/);
    assert.deepEqual(await stored(db), [10, 11, 12]);
    assert.equal(await insert(db, 13), 13);
    assert.deepEqual(await stored(db), [10, 11, 12, 13]);
  });
});

test('SQLite: writes of one turn share one transaction and one commit; every caller is answered after it', async () => {
  const db = openDb('sqlite::memory:');
  try {
    await sql`create table wg_items (x integer not null unique)`.execute(db.kysely);
    const { log, stop } = watchTx(db);
    const answered: string[] = [];
    const writes = [1, 2, 3, 4, 5].map((x) =>
      insert(db, x).then((v) => {
        answered.push(`answer ${v} after ${log.filter((s) => s === 'commit').length} commit(s)`);
        return v;
      }),
    );
    assert.deepEqual(await Promise.all(writes), [1, 2, 3, 4, 5]);
    stop();
    assert.deepEqual(
      log.filter((s) => s === 'begin' || s === 'commit'),
      ['begin', 'commit'],
    );
    // The first write of a group runs without a savepoint (a failure rolls the transaction back).
    assert.equal(log.filter((s) => s === 'savepoint').length, 4);
    assert.deepEqual(
      answered,
      [1, 2, 3, 4, 5].map((x) => `answer ${x} after 1 commit(s)`),
    );
    assert.deepEqual(await stored(db), [1, 2, 3, 4, 5]);
  } finally {
    await db.close();
  }
});

test(`SQLite: a group holds at most ${GROUP_MAX} writes; the rest commit in the next transaction`, async () => {
  const db = openDb('sqlite::memory:');
  try {
    await sql`create table wg_items (x integer not null unique)`.execute(db.kysely);
    const { log, stop } = watchTx(db);
    const n = GROUP_MAX + 3;
    await Promise.all(Array.from({ length: n }, (_, i) => insert(db, i)));
    stop();
    assert.equal(log.filter((s) => s === 'commit').length, 2);
    assert.equal((await stored(db)).length, n);
  } finally {
    await db.close();
  }
});

test(`SQLite: a group takes no further write once its writes have run ${GROUP_BUDGET_MS} ms; the rest commit after the event loop's turn`, async () => {
  const db = openDb('sqlite::memory:');
  try {
    await sql`create table wg_items (x integer not null unique)`.execute(db.kysely);
    const { log, stop } = watchTx(db);
    // Each write holds the (synchronous) connection for 30 ms: two fit the budget's check, the third does not.
    let timerRanAt = -1;
    const slow = (x: number) =>
      writeTx(db, async (trx) => {
        // Other work asked for while the first group runs (a probe, say) gets its turn before the next group.
        if (x === 1) setImmediate(() => (timerRanAt = log.filter((s) => s === 'commit').length));
        const until = performance.now() + 30;
        while (performance.now() < until);
        await sql`insert into wg_items (x) values (${x})`.execute(trx);
        return x;
      });
    assert.deepEqual(await Promise.all([1, 2, 3, 4, 5].map(slow)), [1, 2, 3, 4, 5]);
    stop();
    // 30 + 30 ms ≥ 50: two writes a group, and other work ran between the groups.
    assert.deepEqual(log.filter((s) => s === 'commit').length, 3);
    assert.equal(timerRanAt, 1, 'what the first group asked for ran between its commit and the next');
    assert.deepEqual(await stored(db), [1, 2, 3, 4, 5]);
  } finally {
    await db.close();
  }
});

test('SQLite: when the commit itself fails, every write of the group fails and none is stored', async () => {
  const db = openDb('sqlite::memory:');
  try {
    await sql`create table wg_items (x integer not null unique)`.execute(db.kysely);
    await sql`create table wg_parent (id integer primary key)`.execute(db.kysely);
    // A deferred foreign key is checked at COMMIT: the statement succeeds, the commit does not.
    await sql`create table wg_child (parent_id integer references wg_parent (id) deferrable initially deferred)`.execute(
      db.kysely,
    );
    const orphan = writeTx(db, async (trx) => {
      await sql`insert into wg_child (parent_id) values (999)`.execute(trx);
      return 'orphan';
    });
    const results = await Promise.allSettled([insert(db, 1), orphan, insert(db, 2)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected', 'rejected'],
    );
    for (const r of results) assert.match(String((r as PromiseRejectedResult).reason), /FOREIGN KEY constraint failed/);
    assert.deepEqual(await stored(db), []);
    assert.equal(
      Number((await sql<{ n: number }>`select count(*) as n from wg_child`.execute(db.kysely)).rows[0].n),
      0,
    );
    // The connection is usable again.
    assert.equal(await insert(db, 7), 7);
    assert.deepEqual(await stored(db), [7]);
  } finally {
    await db.close();
  }
});
