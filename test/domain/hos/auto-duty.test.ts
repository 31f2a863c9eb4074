/** Automatic driving detection over speed samples (ELD rule; docs/reference/domain-rules.md §2.2, D-10 (a)). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectDriving, initialAutoDuty, stepAutoDuty } from '../../../src/domain/hos/auto-duty.js';

const s = (sec: number, speedKph: number, special: 'personal_conveyance' | 'yard_move' | null = null) => ({
  t: sec * 1000,
  speedKph,
  special,
});

describe('automatic driving detection', () => {
  it('switches to driving above the threshold (5 mph), not at or below it', () => {
    // 5 mph is 8.04672 kph exactly: at it, not moving; just above it, moving.
    assert.deepEqual(detectDriving([s(0, 0), s(10, 8.04672), s(20, 8.047)]).proposals, [
      { status: 'driving', at: 20_000 },
    ]);
  });

  it('proposes on duty 6 minutes after the stop (5-minute prompt, 1 minute unanswered)', () => {
    const { proposals } = detectDriving([s(0, 50), s(60, 0), s(120, 0), s(60 + 359, 0), s(60 + 360, 0)]);
    assert.deepEqual(proposals, [
      { status: 'driving', at: 0 },
      { status: 'on_duty', at: (60 + 360) * 1000 },
    ]);
  });

  it('moving again before the timeout keeps the driving going', () => {
    const { proposals, state } = detectDriving([s(0, 50), s(60, 0), s(300, 0), s(400, 30), s(700, 30)]);
    assert.deepEqual(proposals, [{ status: 'driving', at: 0 }]);
    assert.equal(state.driving, true);
  });

  it('a late sample after a long stop places the on-duty change at the timeout, not at the sample', () => {
    const { proposals } = detectDriving([s(0, 50), s(100, 0), s(3600, 0)]);
    assert.deepEqual(proposals[1], { status: 'on_duty', at: (100 + 360) * 1000 });
  });

  it('movement under personal conveyance or a yard move is not driving', () => {
    assert.deepEqual(detectDriving([s(0, 40, 'personal_conveyance'), s(60, 40, 'yard_move')]).proposals, []);
  });

  it('samples out of order are ignored; the step is pure', () => {
    const a = stepAutoDuty(initialAutoDuty(), s(100, 40));
    const b = stepAutoDuty(a.state, s(50, 0));
    assert.deepEqual(b, { state: a.state, proposals: [] });
  });
});
