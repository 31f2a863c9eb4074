/** What a statement does to the tables, read from its SQL text (storage/changes.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChangeTracker, classify, readTables } from '../../src/storage/changes.js';

test('statements are classified by what they do to the tables', () => {
  const cases: Array<[string, ReturnType<typeof classify>]> = [
    ['select * from "vehicles" where "id" = ?', { kind: 'read' }],
    ['  SELECT 1', { kind: 'read' }],
    ['(select 1) union (select 2)', { kind: 'read' }],
    ['insert into "vehicles" ("number") values (?) returning "id"', { kind: 'write', tables: ['vehicles'] }],
    ['insert or ignore into telemetry_records (id) values (1)', { kind: 'write', tables: ['telemetry_records'] }],
    ['update "users" set "first_name" = $1 where "id" = $2', { kind: 'write', tables: ['users'] }],
    ['delete from "group_vehicles" where "group_id" = ?', { kind: 'write', tables: ['group_vehicles'] }],
    ['with x as (select 1) update "devices" set "revoked_at" = $1', { kind: 'write', tables: ['devices'] }],
    ['with x as (select id from "vehicles") select * from x', { kind: 'read' }],
    ['begin immediate', { kind: 'begin' }],
    ['start transaction isolation level serializable', { kind: 'begin' }],
    ['commit', { kind: 'end' }],
    ['rollback', { kind: 'end' }],
    ['rollback to savepoint "sp1"', { kind: 'read' }],
    ['savepoint "sp1"', { kind: 'read' }],
    ['PRAGMA data_version', { kind: 'read' }],
    ['create table "x" ("id" integer)', { kind: 'ddl' }],
    ['alter table "vehicles" add column "x" text', { kind: 'ddl' }],
    ['drop index "i"', { kind: 'ddl' }],
    ['truncate "vehicles"', { kind: 'ddl' }],
  ];
  for (const [text, expected] of cases) assert.deepEqual(classify(text), expected, text);
});

test('reads name their tables in FROM and JOIN clauses', () => {
  assert.deepEqual(
    readTables(
      'select "v".* from "vehicles" as "v" inner join "group_vehicles" on 1 where "id" in (select "member_id" from "group_vehicles")',
    ),
    ['vehicles', 'group_vehicles', 'group_vehicles'],
  );
});

test('a bump after a stamp makes the tables it names stale, and only those', () => {
  const t = new ChangeTracker();
  t.useSource({ poll() {}, live: () => true, covers: () => true, async close() {} }, (table) =>
    table === 'groups' ? ['group_vehicles'] : [],
  );
  const s = t.stamp()!;
  assert.equal(t.unchangedSince(s, ['vehicles', 'group_vehicles']), true);
  t.observe('update "users" set "x" = 1');
  assert.equal(t.unchangedSince(s, ['vehicles', 'group_vehicles']), true);
  t.observe('delete from "groups" where "id" = 1');
  assert.equal(t.unchangedSince(s, ['vehicles', 'group_vehicles']), false, 'cascade to group_vehicles');
  const s2 = t.stamp()!;
  t.observe('create index "i" on "x" ("y")');
  assert.equal(t.unchangedSince(s2, ['vehicles']), false, 'DDL makes everything stale');
});

test('nothing is stamped while the source is not live', () => {
  const t = new ChangeTracker();
  assert.equal(t.stamp(), null, 'no source');
  let live = false;
  t.useSource({ poll() {}, live: () => live, covers: () => true, async close() {} });
  assert.equal(t.stamp(), null);
  live = true;
  const s = t.stamp()!;
  live = false;
  assert.equal(t.unchangedSince(s, ['vehicles']), false);
});
