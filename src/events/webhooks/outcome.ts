/**
 * What an attempt's result means for its delivery (docs/reference/wire.md §7.7), as a pure function:
 * 200 or 201 → delivered; 403 → rejected (the receiver refused the signature), never retried; anything
 * else (another status, a redirect, a timeout, a refused or failed connection) → retried after the
 * next delay of the schedule, or failed once the schedule is used up.
 */
import type { RequestState } from './tables.js';

export interface AttemptOutcome {
  state: RequestState;
  /** Failures counted after this attempt. */
  numFailures: number;
  retryStep: number;
  responseCode: number | null;
  /** Epoch milliseconds of the next attempt, or null when the delivery is finished. */
  nextAttemptMs: number | null;
}

export function outcomeOf(
  prior: { numFailures: number; retryStep: number },
  status: number | null,
  attemptedAtMs: number,
  scheduleS: readonly number[],
): AttemptOutcome {
  if (status === 200 || status === 201) {
    return {
      state: 'delivered',
      numFailures: prior.numFailures,
      retryStep: prior.retryStep,
      responseCode: status,
      nextAttemptMs: null,
    };
  }
  const numFailures = prior.numFailures + 1;
  if (status === 403) {
    return { state: 'rejected', numFailures, retryStep: prior.retryStep, responseCode: status, nextAttemptMs: null };
  }
  const delayS = scheduleS[prior.retryStep];
  if (delayS === undefined) {
    return { state: 'failed', numFailures, retryStep: prior.retryStep, responseCode: status, nextAttemptMs: null };
  }
  return {
    state: 'pending',
    numFailures,
    retryStep: prior.retryStep + 1,
    responseCode: status,
    nextAttemptMs: attemptedAtMs + delayS * 1000,
  };
}
