/**
 * Violation records (docs/reference/domain-rules.md §1.3.0): every rule reports the driving ranges in violation; ranges of
 * one rule that touch (a span split only at a day boundary) merge into one record, and a record still
 * open at the evaluation instant while the driver drives has `end: null`.
 */
import type { Violation } from './types.js';

/** Display names by violation type (docs/reference/wire.md §4.7). */
export const VIOLATION_NAMES: Record<string, string> = {
  driving_11: '11 Hour Driving Limit',
  duty_14: '14 Hour On Duty Limit',
  duty_16: '16 Hour On Duty Limit',
  break_30: '30 Minute Break Required',
  cycle_60: '60 Hour/7 Day Limit',
  cycle_70: '70 Hour/8 Day Limit',
  cycle_80: '80 Hour/8 Day Limit',
  driving_10: '10 Hour Driving Limit',
  duty_15: '15 Hour On Duty Limit',
  canada_driving_13: '13 Hour Driving Limit',
  canada_duty_14: '14 Hour On Duty Limit',
  canada_shift_driving_13: '13 Hour Shift Driving Limit',
  canada_shift_duty_14: '14 Hour Shift On Duty Limit',
  canada_shift_16: '16 Hour Shift Elapsed Limit',
  canada_cycle_70: '70 Hour/7 Day Limit',
  canada_cycle_120: '120 Hour/14 Day Limit',
  canada_cycle_2_70: '70 Hour Without 24 Hours Off Limit',
  canada_off_24: '24 Consecutive Hours Off In 14 Days',
};

export function violationName(type: string, fallback?: string): string {
  return VIOLATION_NAMES[type] ?? fallback ?? type;
}

export class ViolationCollector {
  private readonly ranges = new Map<string, Array<[number, number]>>();
  private readonly names = new Map<string, string>();

  add(type: string, start: number, end: number, name?: string): void {
    if (!(end > start)) return;
    let list = this.ranges.get(type);
    if (!list) this.ranges.set(type, (list = []));
    list.push([start, end]);
    if (name && !this.names.has(type)) this.names.set(type, name);
  }

  /** One record per rule and contiguous range, ordered by start; `openAt` marks ranges still being driven. */
  records(openAt: number | null): Violation[] {
    const out: Violation[] = [];
    for (const [type, list] of this.ranges) {
      list.sort((a, b) => a[0] - b[0]);
      let cur: [number, number] | null = null;
      const flush = () => {
        if (cur)
          out.push({
            type,
            name: violationName(type, this.names.get(type)),
            start: cur[0],
            end: openAt !== null && cur[1] >= openAt ? null : cur[1],
          });
      };
      for (const r of list) {
        if (cur && r[0] <= cur[1]) cur[1] = Math.max(cur[1], r[1]);
        else {
          flush();
          cur = [r[0], r[1]];
        }
      }
      flush();
    }
    return out.sort((a, b) => a.start - b.start || a.type.localeCompare(b.type));
  }
}
