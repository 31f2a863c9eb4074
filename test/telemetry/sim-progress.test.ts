/** What `fleet simulate` shows while it runs (src/sim/progress.ts). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { span, statusLine } from '../../src/sim/progress.js';
import type { SimStats } from '../../src/sim/runner.js';

const run = (simulatedS: number, durationS: number | null, stats: Partial<SimStats> = {}) => ({
  stats: { produced: 12_400, records: 12_400, batches: 30, retries: 0, rejected: 5, simulatedS, refused: [], ...stats },
  progress: () => ({ simulatedS, durationS, at: Date.parse('2026-11-28T05:00:00Z') + simulatedS * 1000 }),
});

describe('simulator progress', () => {
  test('spans', () => {
    assert.deepEqual([span(12), span(2710), span(3900), span(7200)], ['12s', '45m 10s', '1h 05m', '2h 00m']);
  });

  test('a line without a bar: vehicles, sent, accepted, rejected, the simulated time', () => {
    assert.equal(
      statusLine(run(3900, 7200), 8, false),
      '8 vehicles · 12,400 records sent, 12,395 accepted, 5 rejected · simulated 2026-11-28 06:05 UTC (1h 05m of 2h 00m)',
    );
    assert.equal(
      statusLine(run(12, null, { records: 3, rejected: 0 }), 1, true),
      '1 vehicle · 3 records sent, 3 accepted, 0 rejected · simulated 2026-11-28 05:00 UTC (12s)',
      'open-ended: no bar',
    );
  });

  test('on a terminal a bounded run has a bar', () => {
    assert.match(statusLine(run(3600, 7200), 8, true), /^\[#{12}-{12}\]  50% 8 vehicles · /);
    assert.match(statusLine(run(7200, 7200), 8, true), /^\[#{24}\] 100% /);
  });
});
