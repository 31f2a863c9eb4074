/**
 * Fault record fields at the edges of their formats (docs/reference/domain-rules.md §5.1, §5.2): J1939 SPN 0–524287
 * (19 bits), FMI 0–31, occurrence count 0–127, source address 0–255; OBD-II codes P/C/B/U, then 0–3,
 * then three hex digits. At the limit accepted, one past it rejected with the field named.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRecord } from '../../src/telemetry/records.js';
import { RecordError } from '../../src/telemetry/record-fields.js';

const NOW = Date.parse('2026-03-02T15:00:00Z');
const limits = { nowMs: NOW, futureSlackS: 300, maxAgeDays: 400 };
const parse = (fields: Record<string, unknown>) =>
  parseRecord({ seq: 1, type: 'fault', time: '2026-03-02T14:00:00Z', ...fields }, limits);
const rejected = (fields: Record<string, unknown>) => {
  try {
    parse(fields);
  } catch (err) {
    assert.ok(err instanceof RecordError, String(err));
    return err.message;
  }
  return null;
};

test('J1939: SPN, FMI, occurrence count and source address at their limits', () => {
  const j = (more: Record<string, unknown>) => ({ protocol: 'j1939', spn: 100, fmi: 1, ...more });
  assert.equal(
    (parse(j({ spn: 524_287, fmi: 31, occurrence_count: 127, source_address: 255 })).data as any).key,
    'j1939:255:524287:31',
  );
  assert.match(rejected(j({ spn: 524_288 }))!, /^spn must be/);
  assert.match(rejected(j({ fmi: 32 }))!, /^fmi must be/);
  assert.match(rejected(j({ occurrence_count: 128 }))!, /^occurrence_count must be/);
  assert.match(rejected(j({ source_address: 256 }))!, /^source_address must be/);
  assert.match(rejected(j({ spn: -1 }))!, /^spn must be/);
});

test('OBD-II: the second character is 0–3', () => {
  for (const code of ['P0420', 'C3FFF', 'b1234', 'U0100'])
    assert.equal((parse({ protocol: 'obd2', code }).data as any).code, code.toUpperCase());
  for (const code of ['P4000', 'X0420', 'P042', 'P04200']) {
    assert.equal(
      rejected({ protocol: 'obd2', code }),
      `code must be an OBD-II code such as P0420 (letter P, C, B or U, a digit 0–3, then 3 hex digits), got "${code}"`,
    );
  }
});

test('a clear of everything needs no protocol; an active fault and a clear of one code still do', () => {
  const all = parse({ status: 'cleared' }).data as any;
  assert.deepEqual([all.status, all.key], ['cleared', null]);
  assert.equal(rejected({ status: 'active', spn: 100, fmi: 1 }), 'protocol is required');
  assert.equal(rejected({ spn: 100, fmi: 1 }), 'protocol is required');
  assert.equal(rejected({ status: 'cleared', code: 'P0420' }), 'protocol is required');
});
