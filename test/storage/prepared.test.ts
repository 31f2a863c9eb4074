/**
 * Prepared statements (src/storage/prepared.ts): built and compiled once per dialect, then run with
 * each call's values in the places of its placeholders; values fixed at build time stay; an argument
 * the statement does not use is a programming error caught when it is first built.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { prepared } from '../../src/storage/prepared.js';
import { eachDialect, useFreshDb } from '../helper.js';

eachDialect('prepared statements', (dialect) => {
  const fresh = useFreshDb(dialect, (db) =>
    sql`create table pets (name text primary key, kind text not null, legs integer, born text, seen text)`.execute(
      db.kysely,
    ),
  );

  // `now` fills two columns, `kind` is fixed at build time, legs may be null.
  const insertPet = prepared((db, _kind, name: string, legs: number | null, now: string) =>
    db.insertInto('pets' as never).values({ name, kind: 'cat', legs, born: now, seen: now } as never),
  );
  const petsWithLegs = prepared((db, _kind, min: number, max: number) =>
    db
      .selectFrom('pets' as never)
      .selectAll()
      .where('legs' as never, '>=', min as never)
      .where('legs' as never, '<=', max as never)
      .orderBy('name' as never),
  );

  test('each call runs the one compiled statement with its own values, fixed values kept', async () => {
    const db = fresh();
    await insertPet(db.kysely, db.kind, 'tom', 4, '2026-01-01');
    await insertPet(db.kysely, db.kind, 'polly', 2, '2026-01-02');
    await insertPet(db.kysely, db.kind, 'nemo', null, '2026-01-03');
    const all = await sql<Record<string, unknown>>`select name, kind, legs, born, seen from pets order by name`.execute(
      db.kysely,
    );
    assert.deepEqual(
      all.rows.map((r) => ({ ...r, legs: r.legs === null ? null : Number(r.legs) })),
      [
        { name: 'nemo', kind: 'cat', legs: null, born: '2026-01-03', seen: '2026-01-03' },
        { name: 'polly', kind: 'cat', legs: 2, born: '2026-01-02', seen: '2026-01-02' },
        { name: 'tom', kind: 'cat', legs: 4, born: '2026-01-01', seen: '2026-01-01' },
      ],
    );
    assert.deepEqual(
      (await petsWithLegs(db.kysely, db.kind, 3, 8)).rows.map((r) => (r as { name: string }).name),
      ['tom'],
    );
    assert.deepEqual(
      (await petsWithLegs(db.kysely, db.kind, 0, 8)).rows.map((r) => (r as { name: string }).name),
      ['polly', 'tom'],
    );
  });

  test('runs on the connection of the transaction it is given, and is rolled back with it', async () => {
    const db = fresh();
    await assert.rejects(
      db.kysely.transaction().execute(async (trx) => {
        await insertPet(trx, db.kind, 'spot', 6, '2026-02-01');
        await insertPet(trx, db.kind, 'rex', 6, '2026-02-01');
        assert.deepEqual(
          (await petsWithLegs(trx, db.kind, 6, 6)).rows.map((r) => (r as { name: string }).name),
          ['rex', 'spot'],
        );
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.deepEqual(
      (await petsWithLegs(db.kysely, db.kind, 6, 6)).rows.map((r) => (r as { name: string }).name),
      [],
    );
  });

  test('an argument the statement does not use is an error naming it, when first built', async () => {
    const db = fresh();
    const unused = prepared((d, _kind, name: string, _ignored: number) =>
      d
        .selectFrom('pets' as never)
        .selectAll()
        .where('name' as never, '=', name as never),
    );
    await assert.rejects(
      () => unused(db.kysely, db.kind, 'tom', 1),
      /prepared statement does not use its argument 1: select/,
    );
  });
});
