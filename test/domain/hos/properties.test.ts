/**
 * Property tests of the engine over random duty logs (fast-check): clocks are never negative, never
 * increase while driving, a 34-hour rest restores the full cycle, violations lie inside driving time,
 * later records never change the past, and splitting a status into two records changes nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  evaluate,
  rulesetFor,
  HOUR,
  MIN,
  Days,
  type Clock,
  type DutyRecord,
} from '../../../src/domain/hos/engine/index.js';

const BASE = Date.parse('2024-05-06T00:00:00Z');
const STATUSES: Clock[] = ['OFF', 'SB', 'D', 'ON', 'WAIT'];
const CYCLES = ['70_8', '60_7', '70_8_p', 'canada_7day', 'canada_14day'];
const ZONES = ['UTC', 'America/New_York', 'America/Los_Angeles', 'America/Toronto'];
const RUNS = Number(process.env.HOS_PROPERTY_RUNS ?? 400);

/** A log: statuses with durations from 1 minute to 20 hours, driving more often than the rest. */
const logArb = fc.array(
  fc.tuple(fc.constantFrom<Clock>(...STATUSES, 'D', 'D', 'ON', 'OFF'), fc.integer({ min: 1, max: 20 * 60 })),
  { minLength: 1, maxLength: 40 },
);
const rulesArb = fc.tuple(fc.constantFrom(...CYCLES), fc.constantFrom(...ZONES), fc.boolean());

function toRecords(log: Array<[Clock, number]>): { records: DutyRecord[]; end: number } {
  let t = BASE;
  const records: DutyRecord[] = [];
  for (const [status, minutes] of log) {
    records.push({ at: t, status });
    t += minutes * MIN;
  }
  return { records, end: t };
}

const ruleset = ([cycle, zone, shortHaul]: [string, string, boolean]) =>
  rulesetFor({ cycle, zone, flags: { exception_short_haul: shortHaul } });

describe('HOS engine properties', () => {
  it('remaining times are never negative', () => {
    fc.assert(
      fc.property(rulesArb, logArb, fc.double({ min: 0, max: 1, noNaN: true }), (r, log, f) => {
        const { records, end } = toRecords(log);
        const at = Math.round(BASE + f * (end - BASE + 48 * HOUR));
        const c = evaluate(ruleset(r), records, [], at).clocks;
        for (const [k, v] of Object.entries(c)) assert.ok(v >= 0, `${k} = ${v}`);
        assert.ok(c.driveMs <= c.driveRawMs && c.driveMs <= c.shiftMs && c.driveMs <= c.cycleMs);
      }),
      { numRuns: RUNS },
    );
  });

  it('drive, shift and break never increase while driving; cycle not within a log day', () => {
    fc.assert(
      fc.property(
        rulesArb,
        logArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (r, log, f1, f2) => {
          const { records } = toRecords(log);
          const drives = records
            .map((rec, i) => [rec, records[i + 1]] as const)
            .filter(([rec, next]) => rec.status === 'D' && next);
          fc.pre(drives.length > 0);
          const [rec, next] = drives[Math.floor(f1 * drives.length) % drives.length]!;
          const span = next!.at - rec.at;
          const [a, b] = [rec.at + Math.round(span * Math.min(f1, f2)), rec.at + Math.round(span * Math.max(f1, f2))];
          const rs = ruleset(r);
          const days = new Days(rs.zone, rs.dayStartHour);
          const sameDay = days.dayOf(a) === days.dayOf(b);
          const x = evaluate(rs, records, [], a).clocks;
          const y = evaluate(rs, records, [], b).clocks;
          if (rs.family !== 'canada' || sameDay) {
            assert.ok(y.driveRawMs <= x.driveRawMs, `drive ${x.driveRawMs} → ${y.driveRawMs}`);
            assert.ok(y.shiftMs <= x.shiftMs, `shift ${x.shiftMs} → ${y.shiftMs}`);
            assert.ok(y.breakMs <= x.breakMs, `break ${x.breakMs} → ${y.breakMs}`);
          }
          if (sameDay) assert.ok(y.cycleMs <= x.cycleMs, `cycle ${x.cycleMs} → ${y.cycleMs}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a 34-hour off-duty period always restores the full cycle (and every US property clock)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('70_8', '60_7'),
        fc.constantFrom(...ZONES),
        logArb,
        fc.integer({ min: 34 * 60, max: 60 * 60 }),
        fc.constantFrom<Clock>('OFF', 'SB'),
        (cycle, zone, log, restMin, rest) => {
          const { records, end } = toRecords(log);
          records.push({ at: end, status: rest });
          const rs = rulesetFor({ cycle, zone });
          const c = evaluate(rs, records, [], end + restMin * MIN).clocks;
          assert.equal(c.cycleMs, rs.cycle.hours * HOUR);
          assert.equal(c.cycleTomorrowMs, rs.cycle.hours * HOUR);
          assert.deepEqual([c.driveRawMs, c.shiftMs, c.breakMs], [11 * HOUR, 14 * HOUR, 8 * HOUR]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('violations lie inside driving time and end no later than the evaluation instant', () => {
    fc.assert(
      fc.property(rulesArb, logArb, (r, log) => {
        const { records, end } = toRecords(log);
        const ev = evaluate(ruleset(r), records, [], end);
        for (const v of ev.violations) {
          const stop = v.end ?? end;
          assert.ok(v.start < stop && stop <= end, `${v.type} ${v.start}–${v.end}`);
          for (let t = v.start; t < stop; t += Math.max(MIN, (stop - v.start) / 8)) {
            const rec = [...records].reverse().find((x) => x.at <= t)!;
            assert.equal(rec.status, 'D', `${v.type} covers ${rec.status} at ${t}`);
          }
        }
        if (ev.status !== 'D') assert.ok(ev.violations.every((v) => v.end !== null));
      }),
      { numRuns: RUNS },
    );
  });

  it('records after the evaluation instant never change the result', () => {
    fc.assert(
      fc.property(rulesArb, logArb, logArb, (r, log, more) => {
        const { records, end } = toRecords(log);
        const later = toRecords(more).records.map((x) => ({ ...x, at: x.at - BASE + end + HOUR }));
        const rs = ruleset(r);
        assert.deepEqual(evaluate(rs, [...records, ...later], [], end), evaluate(rs, records, [], end));
      }),
      { numRuns: RUNS },
    );
  });

  it('splitting a status into two records (an intermediate log) changes nothing', () => {
    fc.assert(
      fc.property(rulesArb, logArb, fc.nat(), fc.double({ min: 0.01, max: 0.99, noNaN: true }), (r, log, which, f) => {
        const { records, end } = toRecords(log);
        const i = which % records.length;
        const next = records[i + 1]?.at ?? end;
        const split = [
          ...records.slice(0, i + 1),
          { at: records[i]!.at + Math.max(1, Math.round((next - records[i]!.at) * f)), status: records[i]!.status },
          ...records.slice(i + 1),
        ];
        fc.pre(split[i + 1]!.at < next);
        const rs = ruleset(r);
        assert.deepEqual(evaluate(rs, split, [], end + HOUR), evaluate(rs, records, [], end + HOUR));
      }),
      { numRuns: RUNS },
    );
  });
});
