/**
 * The checks every input passes before any write (src/storage/portable-values.ts): what one database
 * stores and the other refuses is found wherever it sits, and named by its path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findUnportable, MAX_DEPTH, textProblem } from '../../src/storage/portable-values.js';

const NUL = 'must not contain a NUL character (\\u0000)';
const LONE = 'must not contain a lone UTF-16 surrogate (half of a surrogate pair)';

test('a text is refused for a NUL or a lone surrogate, and kept with a whole pair', () => {
  assert.equal(textProblem('Council Bluffs, IA'), null);
  assert.equal(textProblem('Zürich 🚚 ok'), null, 'an emoji is a whole pair');
  assert.equal(textProblem(''), null);
  assert.equal(textProblem('a\u0000b'), NUL);
  assert.equal(textProblem('🚚\u0000'), NUL);
  assert.equal(textProblem('x\uD83D'), LONE, 'a high half at the end');
  assert.equal(textProblem('\uDE9Ax'), LONE, 'a low half at the start');
  assert.equal(textProblem('🚚\uDE9A'), LONE, 'a low half after a whole pair');
  // Short texts are scanned a character at a time, long ones by a pattern: the same answers.
  for (const n of [1, 22, 23, 24, 25, 26, 200]) {
    const pad = 'x'.repeat(n);
    assert.equal(textProblem(pad), null, `${n} plain`);
    assert.equal(textProblem(`${pad}\u0000`), NUL, `${n} then a NUL`);
    assert.equal(textProblem(`\u0000${pad}`), NUL, `a NUL then ${n}`);
    assert.equal(textProblem(`${pad}\uD83D`), LONE, `${n} then a high half`);
    assert.equal(textProblem(`${pad}🚚`), null, `${n} then a pair`);
  }
});

test('what is found is named by its path: keys by dots, indexes in brackets, keys themselves', () => {
  const stops = [{ address: 'ok' }, { address: 'ok' }, { address: 'bad\u0000' }];
  assert.deepEqual(findUnportable({ name: 'x', stops }, 'body'), { field: 'stops[2].address', problem: NUL });
  assert.deepEqual(findUnportable([1, 'ok', 'x\uD800'], 'body'), { field: 'body[2]', problem: LONE });
  assert.deepEqual(findUnportable([[0, [Infinity]]], 'query'), {
    field: 'query[0][1][0]',
    problem: 'must be a finite number',
  });
  assert.deepEqual(findUnportable({ a: { ['k\u0000']: 1 } }, 'body'), { field: 'a key of a', problem: NUL });
  assert.deepEqual(findUnportable({ ['k\u0000']: 1 }, 'body'), { field: 'a key of body', problem: NUL });
  assert.deepEqual(findUnportable('x\u0000', 'body'), { field: 'body', problem: NUL });
  assert.deepEqual(findUnportable(NaN), { field: 'value', problem: 'must be a finite number' });
  assert.equal(findUnportable({ a: [{ b: 'ok', c: 1.5, d: null, e: true }], f: '🚚' }, 'body'), null);
});

test(`a value nested deeper than ${MAX_DEPTH} levels is refused where the limit is passed`, () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < MAX_DEPTH; i++) deep = { k: deep };
  assert.equal(findUnportable(deep, 'body'), null, `${MAX_DEPTH} objects around a text`);
  assert.deepEqual(findUnportable({ k: deep }, 'body'), {
    field: Array.from({ length: MAX_DEPTH }, () => 'k').join('.'),
    problem: `is nested deeper than ${MAX_DEPTH} levels`,
  });
});
