/**
 * What a full read cache drops: the oldest entry not used since the eviction last passed it. A hit only
 * marks its entry (src/storage/read-cache.ts), a full cache moves a marked entry aside once, and the
 * estimate of the cache's memory never passes its bound.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, useApp, type TestApp } from '../helper.js';

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
// 1,000 characters: 2,256 bytes as the cache counts them (2 a character and 256), so 10,000 holds four.
const value = (name: string) => name.repeat(1000);
const ENTRY_BYTES = 2256;

eachDialect('read cache eviction', (dialect) => {
  const getApp = useApp(dialect);
  let t: TestApp;
  let computed: string[] = [];
  const remember = (name: string) =>
    t.db.cache.remember(`eviction ${name}`, async () => {
      computed.push(name);
      await t.db.kysely.selectFrom('vehicles').select('id').execute();
      return value(name);
    });
  const held = () => NAMES.filter((n) => t.db.cache.holds(`eviction ${n}`));

  before(async () => {
    t = await getApp();
  });

  test('without hits the oldest goes first, and the bound holds', async () => {
    t.db.cache.clear();
    t.db.cache.maxBytes = 10_000;
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) await remember(n);
    assert.deepEqual(held(), ['c', 'd', 'e', 'f']);
    assert.equal(t.db.cache.usedBytes, 4 * ENTRY_BYTES);
  });

  test('a used entry outlives older unused ones, and goes when it was passed over and not used again', async () => {
    t.db.cache.clear();
    t.db.cache.maxBytes = 10_000;
    for (const n of ['a', 'b', 'c', 'd']) await remember(n);
    computed = [];
    assert.equal(await remember('a'), value('a'));
    assert.deepEqual(computed, [], 'a hit computes nothing');
    await remember('e');
    assert.deepEqual(held(), ['a', 'c', 'd', 'e'], 'b, the oldest not used, went; a, used, stayed');
    // a was moved aside and unmarked: c and d go before it, then a itself, unless it is used again.
    await remember('f');
    await remember('g');
    assert.deepEqual(held(), ['a', 'e', 'f', 'g']);
    await remember('b');
    assert.deepEqual(held(), ['b', 'e', 'f', 'g'], 'a, passed over once and not used since, went');
    assert.equal(t.db.cache.usedBytes, 4 * ENTRY_BYTES);
  });
});
