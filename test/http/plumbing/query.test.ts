/**
 * The query parser's fast path (plainQuery in src/http/plumbing/query.ts) answers only what qs would
 * answer the same: generated query strings, with the characters that change qs's answer (brackets,
 * escapes, `+`, repeated names, names of Object.prototype), get equal results from both.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import qs from 'qs';
import { parseQuery, plainQuery, MAX_QUERY_PARAMETERS } from '../../../src/http/plumbing/query.js';

const QS_OPTIONS = {
  arrayLimit: MAX_QUERY_PARAMETERS,
  parameterLimit: MAX_QUERY_PARAMETERS,
  throwOnLimitExceeded: true,
  depth: 2,
  allowDots: false,
};

// Names and values mostly plain, sometimes with what changes qs's answer; pairs sometimes without `=`.
const name = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('a', 'b', 'per_page', 'page_no', 'x.y', 'start-date', 'ids', '_') },
  fc.constantFrom('', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'ids[]', 'a[0]', 'a[b]', 'a%5B%5D'),
  fc.constantFrom('%61', 'a+b', 'é', 'a b', '[', ']'),
);
const valuePiece = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('1', '25', 'active', '2026-01-01', ',', '-', '.', ':', '') },
  fc.constantFrom('%20', '%', '%zz', '+', '[', ']', '=', 'é', '%5B'),
);
const pair = fc
  .tuple(name, fc.boolean(), fc.array(valuePiece, { maxLength: 4 }))
  .map(([n, eq, v]) => (eq || v.length ? `${n}=${v.join('')}` : n));
const queryString = fc.oneof(
  fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.join('&')),
  fc.array(fc.oneof(name, valuePiece, fc.constantFrom('&', '=')), { maxLength: 12 }).map((p) => p.join('')),
);

describe('query strings', () => {
  it('the fast path agrees with qs wherever it answers, and answers the common forms', () => {
    let fastOnes = 0;
    let fastWithSeveral = 0;
    fc.assert(
      fc.property(queryString, (str) => {
        const fast = plainQuery(str);
        if (fast !== null) {
          assert.deepEqual(fast, qs.parse(str, QS_OPTIONS), str);
          fastOnes++;
          if (Object.keys(fast).length > 1) fastWithSeveral++;
        }
        assert.deepEqual(parseQuery(str), qs.parse(str, QS_OPTIONS), str);
      }),
      { numRuns: 20_000 },
    );
    // The comparison above is only worth something if the fast path answered often, several names too.
    assert.ok(
      fastOnes > 2_000 && fastWithSeveral > 500,
      `fast path taken ${fastOnes} times, ${fastWithSeveral} with several names`,
    );
    assert.deepEqual(plainQuery('per_page=25&page_no=2&status=active'), {
      per_page: '25',
      page_no: '2',
      status: 'active',
    });
    assert.deepEqual(plainQuery('start_date=2026-01-01&ids=1,2,3&q='), {
      start_date: '2026-01-01',
      ids: '1,2,3',
      q: '',
    });
  });

  it('leaves to qs: repeated names, brackets, escapes, names of Object.prototype, more than 32 names', () => {
    for (const str of ['a=1&a=2', 'ids[]=1', 'a%5B%5D=1', 'q=a%20b', 'q=a+b', 'constructor=1', 'a', 'a=1&&b=2']) {
      assert.equal(plainQuery(str), null, str);
    }
    const many = Array.from({ length: 33 }, (_, i) => `k${i}=${i}`).join('&');
    assert.equal(plainQuery(many), null);
    assert.deepEqual(parseQuery(many), qs.parse(many, QS_OPTIONS));
  });
});
