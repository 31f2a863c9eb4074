/** docs/telemetry.md's threshold table lists every threshold with the default and range the code uses. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { THRESHOLD_SPECS } from '../../src/telemetry/thresholds.js';

test('every threshold is documented with its default and range, and nothing else is', () => {
  const doc = readFileSync(new URL('../../docs/telemetry.md', import.meta.url), 'utf8');
  const rows = new Map<string, { def: number; min: number; max: number }>();
  for (const m of doc.matchAll(/^\| `([A-Z_]+)` \| ([\d.]+) \| ([\d.]+)–([\d.]+) \|/gm)) {
    rows.set(m[1], { def: Number(m[2]), min: Number(m[3]), max: Number(m[4]) });
  }
  const specs = Object.values(THRESHOLD_SPECS);
  assert.deepEqual([...rows.keys()].sort(), specs.map((s) => s.env).sort());
  for (const s of specs) assert.deepEqual(rows.get(s.env), { def: s.def, min: s.min, max: s.max }, s.env);
});
