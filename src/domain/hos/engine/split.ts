/**
 * Split rest pairing (395.1(g)(1)(ii) for property carriers, 395.1(g)(3) for passenger carriers, SOR/2005-313
 * s.18 in Canada; docs/hos.md "Split sleeper berth"): which qualifying rests pair, and which pairing is used.
 *
 * Between two resets X and Y (rests of ≥ the reset length; Y is absent for the shift going on) the qualifying
 * rests are candidates. A chain is X followed by some of them, U1 … Um, each paired with a neighbour in the
 * chain (X and Y count as neighbours): a period pairs with a later one across rests left out, and can pair
 * with both neighbours (the 3 hours of FAQ question 8 below pair with the sleeper before and the one after). Driving after Uk and before Uk+1 is judged from the end of Uk−1 with
 * Uk's member period excluded: that is the calculation period of the pair Uk belongs to, and the stricter of
 * the two periods that driving belongs to. Candidates left out of the chain count in the window like any
 * other time. Of all chains, the one with the fewest violations is used, then the one leaving the most time
 * (FMCSA, "Frequently Asked Questions Relating to 2020 Changes to Hours of Service Regulations", question 4).
 */
import { HOUR } from './types.js';
import { restMs, sbMs, type Rest } from './timeline.js';

export interface SplitRules {
  resetMs: number;
  /** `property`: ≥7 h SB + ≥2 h OFF/SB; `sb_pair`: two SB periods of ≥2 h. Members total ≥ totalMs. */
  split: { kind: 'property' | 'sb_pair'; totalMs: number };
}

export interface Portion {
  start: number;
  end: number;
}
interface Pair {
  first: Portion;
  second: Portion;
}
/** How driving is judged: limits counted from `anchor`, with the member period `excl` left out of the window. */
export interface Frame {
  anchor: number;
  excl: Portion | null;
}
/** A frame in force for driving that starts at or after `from` (the end of a rest in the chain). */
export interface Segment {
  from: number;
  frame: Frame;
}

export const MEMBER_MS = 2 * HOUR;
export const LONG_MS = 7 * HOUR;
export const len = (p: Portion) => p.end - p.start;
const run = (r: Rest): Portion => ({ start: r.start, end: r.end });
const sb = (r: Rest): Portion => ({ start: r.sbStart, end: r.sbEnd });

export function qualifies(r: Rest, rules: SplitRules): boolean {
  if (restMs(r) >= rules.resetMs) return true;
  return rules.split.kind === 'property' ? restMs(r) >= MEMBER_MS : sbMs(r) >= MEMBER_MS;
}

/**
 * The member periods of a valid split pair (x before y), or null. A reset (a rest of the reset length or
 * more) is never the first period of a pair: it has already restarted the 11- and 14-hour limits (FMCSA,
 * same FAQ, November 2020: a 10-consecutive-hour off-duty period may not be paired with a later 7-hour
 * sleeper period). It may be the second: a rest of 10 hours or more with 7 in the sleeper berth also
 * completes the pair with the qualifying rest before it, so the driving between them is judged with that
 * rest left out of the window (docs/hos.md, "Split sleeper berth").
 */
export function pairOf(x: Rest, y: Rest, rules: SplitRules): Pair | null {
  if (restMs(x) >= rules.resetMs) return null;
  const total = rules.split.totalMs;
  if (rules.split.kind === 'sb_pair') {
    return sbMs(x) >= MEMBER_MS && sbMs(y) >= MEMBER_MS && sbMs(x) + sbMs(y) >= total
      ? { first: sb(x), second: sb(y) }
      : null;
  }
  // D-9: a mixed run is the long member only through its ≥7 h SB stretch; as the short member it counts whole.
  const options: Pair[] = [];
  if (sbMs(x) >= LONG_MS && restMs(y) >= MEMBER_MS && sbMs(x) + restMs(y) >= total)
    options.push({ first: sb(x), second: run(y) });
  if (restMs(x) >= MEMBER_MS && sbMs(y) >= LONG_MS && restMs(x) + sbMs(y) >= total)
    options.push({ first: run(x), second: sb(y) });
  if (options.length === 0) return null;
  return options.reduce((a, b) => (len(b.first) + len(b.second) > len(a.first) + len(a.second) ? b : a));
}

/**
 * What a chain costs: violations over 3 hours (out of service at a roadside inspection), from 15 minutes to
 * 3 hours, under 15 minutes (nominal), then the total time in violation. Compared in that order, fewer first.
 */
export type Cost = [number, number, number, number];
export const ZERO: Cost = [0, 0, 0, 0];
const SEVERE_MS = 3 * HOUR;
const NOMINAL_MS = 15 * 60_000;

export function violationCost(ms: number): Cost {
  if (ms <= 0) return ZERO;
  return [ms > SEVERE_MS ? 1 : 0, ms >= NOMINAL_MS && ms <= SEVERE_MS ? 1 : 0, ms < NOMINAL_MS ? 1 : 0, ms];
}
export const addCost = (a: Cost, b: Cost): Cost => [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]];
/** Lexicographic comparison of two number lists of one length: negative when a comes first. */
export function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

export interface Judge {
  /** The cost of the driving that starts in [from, to) judged in frame f. */
  cost(f: Frame, from: number, to: number): Cost;
  /** The time a frame leaves at the end of the stretch, most important first (larger is better). */
  room(f: Frame): number[];
}

/**
 * How many qualifying rests a chain looks ahead for the next member: two rests of one pair are never more
 * than a few rests apart in a real log, and the bound keeps the search linear in the number of rests for any
 * log (a team log without a 10-hour rest for days has dozens).
 */
const MAX_SKIP = 8;

interface State {
  cost: Cost;
  /** Index of the chain element before this state's pair, for the reconstruction. */
  back: number;
}

/**
 * The chain used between reset x and reset y (null: the stretch runs to the evaluation instant), as the
 * segments of driving it judges, in time order. `members` are the qualifying non-reset rests in between.
 */
export function chooseChain(x: Rest, members: Rest[], y: Rest | null, rules: SplitRules, judge: Judge): Segment[] {
  // Most shifts have no candidate: the chain is the reset alone.
  if (members.length === 0) return [{ from: x.end, frame: { anchor: x.end, excl: null } }];
  const R = [x, ...members];
  const n = R.length;
  const pairs = new Map<number, Pair | null>();
  const pairAt = (i: number, j: number) => {
    const key = i * (n + 1) + j;
    if (!pairs.has(key)) pairs.set(key, pairOf(R[i]!, j === n ? y! : R[j]!, rules));
    return pairs.get(key)!;
  };
  // The frame after R[c] when R[p] comes before it in the chain and R[next] after it (n: y, -1: nothing),
  // or null when R[c] pairs with neither neighbour and so cannot be in the chain there.
  const frameOf = (p: number, c: number, next: number): Frame | null => {
    if (c === 0) return { anchor: x.end, excl: null };
    const back = pairAt(p, c);
    if (back) return { anchor: p === 0 ? x.end : back.first.end, excl: back.second };
    const fwd = next === -1 ? null : pairAt(c, next);
    return fwd ? { anchor: R[p]!.end, excl: fwd.first } : null;
  };

  // best[c][p]: the cheapest chain so far ending with R[p], R[c] (p = -1 only for c = 0, the chain [x]).
  const best: Array<Map<number, State>> = Array.from({ length: n }, () => new Map());
  best[0]!.set(-1, { cost: ZERO, back: -1 });
  let final: { p: number; c: number; cost: Cost; room: number[] } | null = null;
  const end = y ? y.start : Infinity;
  for (let c = 0; c < n; c++) {
    for (const [p, s] of best[c]!) {
      for (let q = c + 1; q < Math.min(n, c + 1 + MAX_SKIP); q++) {
        const f = frameOf(p, c, q);
        if (!f) continue;
        const cost = addCost(s.cost, judge.cost(f, R[c]!.end, R[q]!.start));
        const cur = best[q]!.get(c);
        if (!cur || compare(cost, cur.cost) < 0) best[q]!.set(c, { cost, back: p });
      }
      const f = frameOf(p, c, y ? n : -1);
      if (!f) continue;
      const cost = addCost(s.cost, judge.cost(f, R[c]!.end, end));
      if (final && compare(cost, final.cost) > 0) continue;
      const room = judge.room(f);
      if (!final || compare(cost, final.cost) < 0 || compare(room, final.room) > 0) final = { p, c, cost, room };
    }
  }

  // Walk back from the chosen end state; every state reached has the chain [x] at its start.
  const chain: number[] = [];
  let p = final!.p;
  let c = final!.c;
  while (c >= 0) {
    chain.unshift(c);
    const back = c === 0 ? -1 : best[c]!.get(p)!.back;
    c = p;
    p = back;
  }
  return chain.map((c, k) => ({
    from: R[c]!.end,
    frame: frameOf(k === 0 ? -1 : chain[k - 1]!, c, k + 1 < chain.length ? chain[k + 1]! : y ? n : -1)!,
  }));
}
