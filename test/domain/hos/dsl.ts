/**
 * A small language for HOS scenarios: a driver's log as lines `D<n> HH:MM STATUS` (day n counted from
 * the scenario's base date, local time in the ruleset's zone), claims as `D<n> HH:MM adverse|sixteen`,
 * and expected clocks and violations at one or more instants. Durations are `H:MM`.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  evaluate,
  rulesetFor,
  HOUR,
  MIN,
  type Claim,
  type Clock,
  type DutyRecord,
  type Evaluation,
  type Ruleset,
} from '../../../src/domain/hos/engine/index.js';
import { zoneOffsetMs } from '../../../src/core/time-zone.js';

export interface Check {
  at: string;
  drive?: string;
  driveRaw?: string;
  shift?: string;
  cycle?: string;
  break?: string;
  cycleTomorrow?: string;
  /** The complete list of violations: [type, start, end or null]. */
  violations?: Array<[string, string, string | null]>;
  recap?: Array<[string, string, string]>;
  lastReset?: [string, string, string | null] | null;
  status?: string;
}

export interface Scenario {
  name: string;
  cycle?: string;
  zone?: string;
  flags?: Record<string, boolean>;
  /** Date of day D1, YYYY-MM-DD (default 2024-03-04, a Monday). */
  base?: string;
  log: string[];
  claims?: string[];
  checks: Check[];
}

const STATUS: Record<string, Clock> = { OFF: 'OFF', PC: 'OFF', SB: 'SB', D: 'D', ON: 'ON', YM: 'ON', WAIT: 'WAIT' };

export function instant(s: Scenario, when: string): number {
  const m = /^D(\d+) (\d{1,2}):(\d{2})$/.exec(when.trim());
  assert.ok(m, `bad instant "${when}"`);
  const h = Number(m[2]);
  const base = new Date(`${s.base ?? '2024-03-04'}T00:00:00Z`);
  base.setUTCDate(base.getUTCDate() + Number(m[1]) - 1 + Math.floor(h / 24));
  return localWall(base.toISOString().slice(0, 10), h % 24, Number(m[3]), s.zone ?? 'UTC');
}

/** The instant the wall clock of `zone` shows `day h:mi` (the later one when skipped by a DST jump). */
function localWall(day: string, h: number, mi: number, zone: string): number {
  const target = Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10), h, mi);
  let t = target;
  for (let i = 0; i < 3; i++) t = target - zoneOffsetMs(zone, t);
  return t;
}

export function dur(s: string): number {
  const m = /^(-?)(\d+):(\d{2})$/.exec(s);
  assert.ok(m, `bad duration "${s}"`);
  return (m[1] ? -1 : 1) * (Number(m[2]) * HOUR + Number(m[3]) * MIN);
}

export function fmtDur(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  const a = Math.abs(Math.round(ms / MIN));
  return `${sign}${Math.floor(a / 60)}:${String(a % 60).padStart(2, '0')}`;
}

export function parse(s: Scenario): { rs: Ruleset; records: DutyRecord[]; claims: Claim[] } {
  const rs = rulesetFor({ cycle: s.cycle ?? '70_8', zone: s.zone ?? 'UTC', flags: s.flags });
  const records = s.log.map((line) => {
    const parts = line.trim().split(/\s+/);
    const status = STATUS[parts[2]!];
    assert.ok(status, `bad status in "${line}"`);
    return { at: instant(s, `${parts[0]} ${parts[1]}`), status };
  });
  for (let i = 1; i < records.length; i++)
    assert.ok(records[i]!.at > records[i - 1]!.at, `log out of order at "${s.log[i]}"`);
  const claims = (s.claims ?? []).map((line) => {
    const [d, hm, kind] = line.trim().split(/\s+/);
    return { at: instant(s, `${d} ${hm}`), kind: kind === 'adverse' ? 'adverse_driving' : 'sixteen_hour' } as Claim;
  });
  return { rs, records, claims };
}

function label(s: Scenario, t: number): string {
  const base = Date.parse(`${s.base ?? '2024-03-04'}T00:00:00Z`);
  return `${new Date(t).toISOString().slice(0, 16)}Z (${((t - base) / HOUR).toFixed(2)} h after base)`;
}

export function check(s: Scenario, c: Check): Evaluation {
  const { rs, records, claims } = parse(s);
  const at = instant(s, c.at);
  const ev = evaluate(rs, records, claims, at);
  const where = `${s.name} @ ${c.at}`;
  const clocks: Array<[keyof Check, number]> = [
    ['drive', ev.clocks.driveMs],
    ['driveRaw', ev.clocks.driveRawMs],
    ['shift', ev.clocks.shiftMs],
    ['cycle', ev.clocks.cycleMs],
    ['break', ev.clocks.breakMs],
    ['cycleTomorrow', ev.clocks.cycleTomorrowMs],
  ];
  for (const [k, v] of clocks) if (c[k] !== undefined) assert.equal(fmtDur(v), c[k], `${where}: ${k}`);
  if (c.violations) {
    const got = ev.violations.map((v) => [v.type, label(s, v.start), v.end === null ? null : label(s, v.end)]);
    const want = c.violations.map(([type, a, b]) => [
      type,
      label(s, instant(s, a)),
      b === null ? null : label(s, instant(s, b)),
    ]);
    assert.deepEqual(got, want, `${where}: violations`);
  }
  if (c.recap) {
    const got = ev.recap.slice(-c.recap.length).map((d) => [d.date, fmtDur(d.onDutyMs), fmtDur(d.drivingMs)]);
    assert.deepEqual(got, c.recap, `${where}: recap`);
  }
  if (c.lastReset !== undefined) {
    const r = ev.lastCycleReset;
    const got = r ? [r.type, label(s, r.start), r.end === null ? null : label(s, r.end)] : null;
    const want = c.lastReset
      ? [
          c.lastReset[0],
          label(s, instant(s, c.lastReset[1])),
          c.lastReset[2] === null ? null : label(s, instant(s, c.lastReset[2])),
        ]
      : null;
    assert.deepEqual(got, want, `${where}: last cycle reset`);
  }
  if (c.status !== undefined) assert.equal(ev.status, c.status, `${where}: status`);
  return ev;
}

/** One `it` per scenario, checking every instant it lists. */
export function runScenarios(list: Scenario[]): void {
  for (const s of list)
    it(s.name, () => {
      for (const c of s.checks) check(s, c);
    });
}

export const H = (h: number) => h * HOUR;
