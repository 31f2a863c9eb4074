import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERROR_CODES } from '../../src/http/plumbing/errors.js';

describe('error catalogue', () => {
  it('docs/errors.md lists every code with its status, and nothing else', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    assert.deepEqual(Object.fromEntries(rows), ERROR_CODES);
  });
});
