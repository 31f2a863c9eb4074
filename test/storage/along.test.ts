/** Statements in one round trip on PostgreSQL (src/storage/along.ts): the texts and parameters it builds. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CompiledQuery } from 'kysely';
import { along } from '../../src/storage/along.js';

const then = CompiledQuery.raw('update "b" set "z" = $1 where "id" = $2', ['z', 9]);

test('along: the first statements become WITHs in front of the last, their placeholders after its own, in order', () => {
  const first = CompiledQuery.raw('insert into "a" ("x", "y") values ($1, $2)', [1, 2]);
  const second = CompiledQuery.raw('insert into "c" ("w") values ($1)', ['w']);
  const q = along([first, second], then);
  assert.equal(
    q.sql,
    'with along_1 as (insert into "a" ("x", "y") values ($3, $4)), along_2 as (insert into "c" ("w") values ($5)) update "b" set "z" = $1 where "id" = $2',
  );
  assert.deepEqual(q.parameters, ['z', 9, 1, 2, 'w']);
  // The same parts give the same text (kept), with the new values.
  const again = along(
    [CompiledQuery.raw(first.sql, [3, 4]), CompiledQuery.raw(second.sql, ['v'])],
    CompiledQuery.raw(then.sql, ['y', 8]),
  );
  assert.equal(again.sql, q.sql);
  assert.deepEqual(again.parameters, ['y', 8, 3, 4, 'v']);
  // One statement in front, and none: the last statement as it is.
  assert.equal(
    along([first], then).sql,
    'with along_1 as (insert into "a" ("x", "y") values ($3, $4)) update "b" set "z" = $1 where "id" = $2',
  );
  assert.equal(along([], then), then);
});

test('along: placeholders of two digits and more are renumbered whole', () => {
  const n = 12;
  const first = CompiledQuery.raw(
    `insert into "a" values (${Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ')})`,
    Array.from({ length: n }, (_, i) => i),
  );
  const wide = CompiledQuery.raw(
    `update "b" set ${Array.from({ length: 10 }, (_, i) => `"c${i}" = $${i + 1}`).join(', ')}`,
    Array.from({ length: 10 }, (_, i) => `v${i}`),
  );
  const q = along([first], wide);
  assert.match(
    q.sql,
    /^with along_1 as \(insert into "a" values \(\$11, \$12, .*, \$21, \$22\)\) update "b" set "c0" = \$1,/,
  );
  assert.equal(q.parameters.length, 22);
  assert.equal(q.parameters[10], 0);
  assert.equal(q.parameters[21], 11);
});

test('along: a statement with a literal or a comment is refused (a `$n` inside it is not a placeholder)', () => {
  assert.throws(() => along([CompiledQuery.raw(`insert into "a" values ('$1')`, [])], then), /literals or comments/);
  assert.throws(
    () => along([CompiledQuery.raw('insert into "a" values ($1) -- $2', [1])], then),
    /literals or comments/,
  );
});

test('along: past the texts it keeps, combined texts are built again, the same', () => {
  const first = CompiledQuery.raw('insert into "a" ("x") values ($1)', [1]);
  for (let round = 0; round < 2; round++)
    for (let i = 0; i < 100; i++) {
      const q = along([first], CompiledQuery.raw(`update "b${i}" set "z" = $1`, [i]));
      assert.equal(q.sql, `with along_1 as (insert into "a" ("x") values ($2)) update "b${i}" set "z" = $1`);
      assert.deepEqual(q.parameters, [i, 1]);
    }
});
