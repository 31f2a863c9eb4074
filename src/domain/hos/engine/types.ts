/**
 * Types of the hours-of-service engine. Every instant is epoch milliseconds (UTC) and every duration is
 * milliseconds; the wire converts to seconds. Intervals are half-open, [start, end).
 */
export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

/**
 * How a duty status counts for the clocks (docs/reference/domain-rules.md §1.1): personal conveyance is OFF, yard move is
 * ON, oil-field waiting is WAIT (neither on duty nor rest; see docs/hos.md).
 */
export type Clock = 'OFF' | 'SB' | 'D' | 'ON' | 'WAIT';

/** A change of duty status at `at`; it lasts until the next record (or the evaluation instant). */
export interface DutyRecord {
  at: number;
  status: Clock;
}

export interface Interval {
  start: number;
  end: number;
  status: Clock;
}

/** Exceptions a driver claims for one shift by annotating the log (never inferred). */
export type ClaimKind = 'adverse_driving' | 'sixteen_hour';
export interface Claim {
  at: number;
  kind: ClaimKind;
}

export type Family = 'us_property' | 'us_passenger' | 'canada';

export interface Ruleset {
  family: Family;
  /** The driver's cycle code as stored (`70_8`, `60_7`, `canada_7day`, …). */
  cycleCode: string;
  /** Rolling cycle: no driving once `hours` of ON+D accumulate over `days` log days. */
  cycle: { hours: number; days: number; type: string; name: string };
  /** Consecutive rest that restarts the cycle, or null when the ruleset has none (passenger). */
  restart: { hours: number; type: string; name: string } | null;
  /** Canada cycle 2: also no driving after 70 h ON+D without 24 consecutive hours off. */
  canadaCycle2: boolean;
  /** IANA zone of the home terminal and the carrier's day-start hour (0 = midnight). */
  zone: string;
  dayStartHour: number;
  /** 150 air-mile short haul, 395.1(e)(1): no 30-minute break. */
  shortHaul: boolean;
  /** Whether a shift's adverse-driving annotation is honoured. */
  adverseDriving: boolean;
  /** Whether a shift's 16-hour annotation is honoured (395.1(o), US property only). */
  sixteenHour: boolean;
}

export interface Violation {
  type: string;
  name: string;
  start: number;
  /** null while the violation is ongoing (the driver is still driving in violation). */
  end: number | null;
}

export interface Clocks {
  /** Effective drive time: min(raw drive, shift, cycle) (docs/reference/domain-rules.md D-2). */
  driveMs: number;
  /** Raw drive time: the driving limit minus driving used, nothing else. */
  driveRawMs: number;
  shiftMs: number;
  cycleMs: number;
  breakMs: number;
  cycleTomorrowMs: number;
}

export interface RecapDay {
  date: string;
  onDutyMs: number;
  drivingMs: number;
}

export interface CycleRestart {
  type: string;
  name: string;
  start: number;
  /** null while the restart rest is still going on. */
  end: number | null;
}

export interface Evaluation {
  at: number;
  clocks: Clocks;
  violations: Violation[];
  recap: RecapDay[];
  restarts: CycleRestart[];
  lastCycleReset: CycleRestart | null;
  /** The status in effect at `at` and since when (null before the first record). */
  status: Clock | null;
  statusSince: number | null;
  /**
   * The next instant at which the result can change without a new record (a limit reached while
   * driving, a day boundary, a rest growing into a qualifying period), or null.
   */
  nextCheckAt: number | null;
}
