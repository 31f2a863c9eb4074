/**
 * Automatic driving detection (ELD rule, App. A §4.3.1.2; docs/reference/domain-rules.md §2.2, D-10 (a)), a pure step per
 * vehicle over speed samples in time order:
 * - in motion above `movingKph` (at most 5 mph) → propose `driving` (unless personal conveyance or a
 *   yard move is indicated: that movement is not driving);
 * - stopped once the speed has been 0 for `stoppedS` seconds; if still stopped `promptS + responseS`
 *   seconds after the stop (the 5-minute prompt went unanswered for 1 minute), propose `on_duty` at that
 *   instant. Moving again before then keeps the driving going. A driver's own status record that
 *   arrives earlier overrides the proposal (the service records whatever the driver sends).
 */
import { exceeds, mphToKph } from '../../telemetry/units.js';

export interface AutoDutyOptions {
  movingKph: number;
  stoppedS: number;
  promptS: number;
  responseS: number;
}

/** 5 mph, the most the ELD rule allows, in kph. */
const MOVING_KPH = mphToKph(5);

export const AUTO_DUTY_DEFAULTS: AutoDutyOptions = { movingKph: MOVING_KPH, stoppedS: 3, promptS: 300, responseS: 60 };

export interface AutoDutyState {
  driving: boolean;
  /** First instant of the current run of zero-speed samples, or null while moving. */
  zeroSince: number | null;
  lastT: number | null;
}

export interface SpeedSample {
  t: number;
  speedKph: number;
  special?: 'personal_conveyance' | 'yard_move' | null;
}

export interface DutyProposal {
  status: 'driving' | 'on_duty';
  at: number;
}

export const initialAutoDuty = (): AutoDutyState => ({ driving: false, zeroSince: null, lastT: null });

export function stepAutoDuty(
  state: AutoDutyState,
  s: SpeedSample,
  o: AutoDutyOptions = AUTO_DUTY_DEFAULTS,
): { state: AutoDutyState; proposals: DutyProposal[] } {
  if (state.lastT !== null && s.t < state.lastT) return { state, proposals: [] };
  const proposals: DutyProposal[] = [];
  let { driving, zeroSince } = state;
  if (exceeds(s.speedKph, o.movingKph)) {
    zeroSince = null;
    if (!driving && !s.special) {
      driving = true;
      proposals.push({ status: 'driving', at: s.t });
    }
  } else if (s.speedKph <= 0) {
    zeroSince ??= s.t;
  } else {
    zeroSince = null;
  }
  if (driving && zeroSince !== null) {
    const stoppedAt = zeroSince;
    const timeout = stoppedAt + (o.promptS + o.responseS) * 1000;
    if (s.t - stoppedAt >= o.stoppedS * 1000 && s.t >= timeout) {
      driving = false;
      proposals.push({ status: 'on_duty', at: timeout });
    }
  }
  return { state: { driving, zeroSince, lastT: s.t }, proposals };
}

/** Runs the step over a whole series (tests, replays). */
export function detectDriving(
  samples: SpeedSample[],
  o: AutoDutyOptions = AUTO_DUTY_DEFAULTS,
  state = initialAutoDuty(),
): { state: AutoDutyState; proposals: DutyProposal[] } {
  const proposals: DutyProposal[] = [];
  for (const s of samples) {
    const r = stepAutoDuty(state, s, o);
    state = r.state;
    proposals.push(...r.proposals);
  }
  return { state, proposals };
}
