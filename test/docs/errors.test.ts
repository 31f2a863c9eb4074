import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ERROR_CODES } from '../../src/core/errors.js';
import { REPO } from '../repo.js';

describe('error catalogue', () => {
  it('docs/errors.md lists every code with its status, and nothing else', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    assert.deepEqual(Object.fromEntries(rows), ERROR_CODES);
  });
});

describe('every status the API can return', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const section = doc.split('## Every status the API can return')[1]?.split('\n## ')[0] ?? '';
  const listed = new Set([...section.split('\n\n')[1].matchAll(/\b([1-5]\d\d)\b/g)].map((m) => Number(m[1])));

  /** Status literals the code sets: reply.code(N), redirect(…, N). */
  function statusesInCode(dir: URL): number[] {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        [...readFileSync(new URL(f, dir), 'utf8').matchAll(/\.code\((\d{3})\)|redirect\([^;\n]*,\s*(\d{3})\)/g)].map(
          (m) => Number(m[1] ?? m[2]),
        ),
      );
  }

  it('lists every status of the catalogue, of the OpenAPI document and of the code, and nothing else', () => {
    const openapi = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    const declared = Object.values(openapi.paths as Record<string, Record<string, { responses?: object }>>).flatMap(
      (ops) => Object.values(ops).flatMap((op) => Object.keys(op.responses ?? {}).map(Number)),
    );
    const used = new Set([
      ...Object.values(ERROR_CODES),
      ...declared,
      ...statusesInCode(pathToFileURL(`${REPO}/src/`)),
    ]);
    assert.deepEqual([...listed].sort(), [...used].sort());
  });
});
