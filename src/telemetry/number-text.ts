/**
 * Numbers written as text without the costly built-ins, to the same text: a rounded wire value
 * (roundedText) when a point is stored, and the history of a compacted week written from the text
 * PostgreSQL sends for its columns (./point-json.ts, writePointColumns). test/telemetry/text-formatting.test.ts
 * and point-columns.test.ts compare each with the built-ins.
 */
import type { BodyBytes } from './body-bytes.js';

const POW10 = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];

/**
 * `String(Math.round(x * 10^d) / 10^d)`, without the double-to-shortest conversion (the costly part
 * of rendering a point). With at most 15 significant digits the rounded double prints as its exact
 * decimal digits with trailing zeros dropped, so those digits are written from integers; anything
 * larger falls back to String. test/telemetry/text-formatting.test.ts checks the two agree.
 */
export function roundedText(x: number, d: number): string {
  const f = POW10[d] ?? 10 ** d;
  const v = Math.round(x * f);
  if (v === 0) return '0';
  if (!(Math.abs(v) < 1e15)) return String(v / f);
  const a = v < 0 ? -v : v;
  const whole = Math.floor(a / f);
  let frac = a - whole * f;
  let text = String(whole);
  if (frac !== 0) {
    let digits = d;
    while (frac % 10 === 0) {
      frac /= 10;
      digits--;
    }
    const s = String(frac);
    text += s.length < digits ? `.${'0'.repeat(digits - s.length)}${s}` : `.${s}`;
  }
  return v < 0 ? `-${text}` : text;
}

/**
 * Numbers read from text (the history renders compacted records from the text PostgreSQL sends for
 * their columns, queries/history-postgres.ts): when the text is already what JavaScript would write,
 * it is written as it is instead of being parsed and written again.
 *
 * A normalized plain decimal text (`-?digits[.digits]`, no leading or trailing zero, not a negative
 * zero, not below 1e-6) of at most 15 digits reads as the double nearest to it, and no other decimal
 * of 15 digits or fewer reads as the same double, so that double's shortest text, which is what
 * `String` writes (in plain notation from 1e-6 to 1e21), is the text itself. With at most `d`
 * decimals and whole digits + d ≤ 15 it is also `roundedText(Number(text), d)`: the double scaled by
 * 10^d rounds to the integer the text names (below 10^15), and that integer scaled back is the same
 * double.
 */
/** Whether t[from, to) is `String(Number(t))` already. */
export const writesAsItself = (t: string, from = 0, to = t.length) => plainShape(t, from, to) >= 0;

/** Whether t[from, to) is `roundedText(Number(t), d)` already. */
export function roundsToItself(t: string, d: number, from = 0, to = t.length): boolean {
  const s = plainShape(t, from, to);
  return s >= 0 && (s & 31) <= d && (s >> 5) + d <= 15;
}

/** Whole digits × 32 + decimals of a normalized plain decimal text of at most 15 digits not below 1e-6, else -1. */
function plainShape(t: string, from: number, to: number): number {
  const negative = t.charCodeAt(from) === 0x2d;
  let i = negative ? from + 1 : from;
  const first = i;
  let zero = true;
  for (; i < to; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    if (c !== 0x30) zero = false;
  }
  const whole = i - first;
  if (whole === 0 || (whole > 1 && t.charCodeAt(first) === 0x30)) return -1;
  let decimals = 0;
  if (i < to) {
    if (t.charCodeAt(i) !== 0x2e) return -1;
    const point = ++i;
    for (; i < to; i++) {
      const c = t.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return -1;
      if (c !== 0x30) zero = false;
    }
    decimals = i - point;
    if (decimals === 0 || t.charCodeAt(to - 1) === 0x30) return -1;
    // Below 1e-6 JavaScript writes the exponent form.
    if (whole === 1 && t.charCodeAt(first) === 0x30 && decimals > 6 && t.startsWith('000000', point)) return -1;
  }
  if ((negative && zero) || whole + decimals > 15) return -1;
  return whole * 32 + decimals;
}

/**
 * `roundedText(Number(text), d)` for a plain decimal text t[from, to) with more than `d` decimals, written
 * from its digits: the text rounded to nearest at its d-th decimal, its trailing zeros dropped. Returns
 * false, having written nothing, for any other text and for one whose dropped digits start with 499
 * or 500 (near a half). With whole digits + d ≤ 12, the double scaled by 10^d is within 2.3e-4 of the
 * text's value scaled (in units of the last kept digit), so a remainder at least 0.001 from a half
 * rounds the same way in the double as in the decimal; the rounded integer (below 10^13) divided back
 * is the double whose shortest text is that decimal.
 */
export function writeRoundedDigits(w: BodyBytes, t: string, from: number, to: number, d: number): boolean {
  const negative = t.charCodeAt(from) === 0x2d;
  const first = negative ? from + 1 : from;
  let point = first;
  while (point < to && isDigit(t.charCodeAt(point))) point++;
  const whole = point - first;
  const cut = point + 1 + d;
  if (whole === 0 || whole + d > 12 || cut >= to || t.charCodeAt(point) !== 0x2e) return false;
  if (whole > 1 && t.charCodeAt(first) === 0x30) return false;
  for (let i = point + 1; i < to; i++) if (!isDigit(t.charCodeAt(i))) return false;
  const rest = digitOr0(t, cut, to) * 100 + digitOr0(t, cut + 1, to) * 10 + digitOr0(t, cut + 2, to);
  if (rest === 499 || rest === 500) return false;
  // The kept digits are t[first, point) and t(point, cut). Rounding up adds one to the last that is
  // not a 9 (at `bump`) and makes the ones after it 0; with none, the answer is 1 and zeros.
  let bump = -1;
  if (rest > 500) {
    bump = cut - 1;
    while (bump >= first && (bump === point || t.charCodeAt(bump) === 0x39)) bump--;
    if (bump < first) {
      if (negative) w.byte(0x2d);
      w.byte(0x31);
      for (let i = first; i < point; i++) w.byte(0x30);
      return true;
    }
  }
  // The end of what is written: past the last decimal that is not 0 once rounded, or at the point.
  let end = cut;
  if (bump >= 0) end = bump > point ? bump + 1 : point;
  else while (end > point + 1 && t.charCodeAt(end - 1) === 0x30) end--;
  if (end === point + 1) end = point;
  if (bump < 0) {
    let zero = true;
    for (let i = first; i < end && zero; i++) zero = i === point || t.charCodeAt(i) === 0x30;
    if (zero) {
      w.byte(0x30);
      return true;
    }
  }
  if (negative) w.byte(0x2d);
  for (let i = first; i < end; i++) {
    const c = t.charCodeAt(i);
    w.byte(bump < 0 || i < bump || i === point ? c : i === bump ? c + 1 : 0x30);
  }
  return true;
}

const digitOr0 = (t: string, i: number, to: number) => (i < to ? t.charCodeAt(i) - 0x30 : 0);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
