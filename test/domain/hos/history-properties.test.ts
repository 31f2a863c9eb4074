/**
 * The history a ruleset needs (historyMs, docs/hos.md "History each rule needs") is enough: over random
 * logs of several weeks, the engine fed only the records in effect since `at − historyMs` gives the same
 * clocks, recap and status at `at` as the engine fed the whole log — for logs with a reset inside the
 * window (and, on Canada's cycle 2, 24 hours off): without one the shift, or the 70 hours without 24 hours
 * off, began before the window, which the docs leave out. With the former window, the cycle's days plus
 * two, the second property fails on Canadian cycle-1 logs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  evaluate,
  historyMs,
  rulesetFor,
  HOUR,
  MIN,
  type Clock,
  type DutyRecord,
} from '../../../src/domain/hos/engine/index.js';
import { buildTimeline, restRuns } from '../../../src/domain/hos/engine/timeline.js';

const BASE = Date.parse('2024-02-26T00:00:00Z');
const STATUSES: Clock[] = ['OFF', 'SB', 'D', 'ON', 'WAIT', 'D', 'D', 'ON', 'OFF'];
const RUNS = Number(process.env.HOS_PROPERTY_RUNS ?? 400);

const logArb = (maxMinutes: number, min: number, max: number) =>
  fc.array(fc.tuple(fc.constantFrom(...STATUSES), fc.integer({ min: 1, max: maxMinutes })), {
    minLength: min,
    maxLength: max,
  });
const rulesArb = fc.tuple(
  fc.constantFrom('70_8', '60_7', '70_8_p', 'canada_7day', 'canada_14day'),
  fc.constantFrom('UTC', 'America/New_York', 'America/Toronto'),
);

function check([cycle, zone]: [string, string], log: Array<[Clock, number]>, f: number): void {
  let t = BASE;
  const records: DutyRecord[] = [];
  for (const [status, minutes] of log) {
    records.push({ at: t, status });
    t += minutes * MIN;
  }
  const at = Math.round(BASE + f * (t - BASE));
  const rs = rulesetFor({ cycle, zone });
  const from = at - historyMs(rs);
  const rests = restRuns(buildTimeline(records, at), at).filter((r) => r.start > from);
  fc.pre(rests.some((r) => r.end - r.start >= (rs.family === 'us_property' ? 10 : 8) * HOUR));
  if (rs.canadaCycle2) fc.pre(rests.some((r) => r.end - r.start >= 24 * HOUR));
  // What the window query loads: the records in effect at any time since `from`.
  const window = records.filter((r, i) => (records[i + 1]?.at ?? Infinity) > from);
  const whole = evaluate(rs, records, [], at);
  const part = evaluate(rs, window, [], at);
  assert.deepEqual([part.clocks, part.recap, part.status], [whole.clocks, whole.recap, whole.status]);
}

describe('HOS history a ruleset needs', () => {
  it('long statuses (up to 20 h, a month of log): the window gives the clocks of the whole log', () => {
    fc.assert(fc.property(rulesArb, logArb(20 * 60, 1, 80), fc.double({ min: 0.5, max: 1, noNaN: true }), check), {
      numRuns: RUNS,
    });
  });

  it('short statuses (up to 6 h, several hundred records): the same', () => {
    fc.assert(fc.property(rulesArb, logArb(6 * 60, 100, 300), fc.double({ min: 0.5, max: 1, noNaN: true }), check), {
      numRuns: RUNS,
    });
  });
});
