/**
 * Deterministic randomness for the demo fleet: a seeded PRNG (mulberry32) and the few helpers the
 * generator needs. Never Math.random: the same seed always yields the same fleet.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight; `weight` returns a non-negative number per item. */
  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    const total = items.reduce((s, i) => s + weight(i), 0);
    let r = this.next() * total;
    for (const item of items) {
      r -= weight(item);
      if (r < 0) return item;
    }
    return items[items.length - 1];
  }

  /** `n` decimal digits (a leading zero allowed). */
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }

  /** `n` capital letters, avoiding I, O and Q (as plates and VINs do). */
  letters(n: number): string {
    const alphabet = 'ABCDEFGHJKLMNPRSTUVWXYZ';
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.int(0, alphabet.length - 1)];
    return s;
  }

  /** A copy of `items` in a random order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

const VIN_VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
/** Model-year codes of VIN position 10 (2010–2030 cycle). */
const VIN_YEARS: Record<number, string> = {
  2016: 'G',
  2017: 'H',
  2018: 'J',
  2019: 'K',
  2020: 'L',
  2021: 'M',
  2022: 'N',
  2023: 'P',
  2024: 'R',
  2025: 'S',
};

/** The check digit (position 9) of a 17-character VIN, per 49 CFR 565.15. */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const c = vin[i];
    const v = /\d/.test(c) ? Number(c) : VIN_VALUES[c];
    if (v === undefined) throw new Error(`invalid VIN character ${c}`);
    sum += v * VIN_WEIGHTS[i];
  }
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

/** A VIN with a valid check digit: WMI (3) + descriptor (5) + check + year + plant + 6-digit serial. */
export function makeVin(rng: Prng, wmi: string, descriptor: string, year: number, plant: string): string {
  const yearCode = VIN_YEARS[year];
  if (!yearCode) throw new Error(`no VIN year code for ${year}`);
  const draft = `${wmi}${descriptor}0${yearCode}${plant}${rng.digits(6)}`;
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}
