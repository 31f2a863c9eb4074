/** The pure dispatch state machine: every state × every trigger, and the trip-status mapping. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  DISPATCH_STATUSES,
  TRIGGERS,
  TRANSITIONS,
  apply,
  initialStatus,
  stopMayMove,
  transition,
  triggerFor,
  type DispatchStatus,
  type StopStatus,
  type Trigger,
} from '../../../src/domain/dispatch/state-machine.js';
import { tripStatuses, tripTrigger } from '../../../src/domain/dispatch/trips.js';

const x = null; // not allowed

/** The expected table, written out in full: rows are states, columns follow TRIGGERS. */
const EXPECTED: Record<DispatchStatus, Record<Trigger, DispatchStatus | null>> = {
  planned: {
    plan: 'planned',
    activate: 'active',
    cancel: 'cancelled',
    complete: x,
    reassign: 'planned',
    change_stops: 'planned',
    edit: 'planned',
    stop_progress: x,
    consignee_departed: x,
  },
  active: {
    plan: x,
    activate: 'active',
    cancel: 'cancelled',
    complete: 'completed',
    reassign: x,
    change_stops: x,
    edit: 'active',
    stop_progress: 'active',
    consignee_departed: 'completed',
  },
  cancelled: {
    plan: x,
    activate: x,
    cancel: x,
    complete: x,
    reassign: x,
    change_stops: x,
    edit: x,
    stop_progress: x,
    consignee_departed: x,
  },
  completed: {
    plan: x,
    activate: x,
    cancel: x,
    complete: x,
    reassign: x,
    change_stops: x,
    edit: x,
    stop_progress: x,
    consignee_departed: x,
  },
};

/** Key words each refusal must contain, so that the message says what went wrong. */
const REFUSAL_WORDS: Array<[DispatchStatus, Trigger, RegExp]> = [
  ['active', 'reassign', /driver and vehicle of an active dispatch cannot be changed/],
  ['active', 'plan', /cannot return to planned/],
  ['active', 'change_stops', /only be added, removed or reordered while the dispatch is planned/],
  ['planned', 'complete', /activate it first/],
  ['planned', 'stop_progress', /only progress while the dispatch is active/],
  ['planned', 'consignee_departed', /only progress while the dispatch is active/],
];

describe('dispatch state machine', () => {
  for (const state of DISPATCH_STATUSES) {
    for (const trigger of TRIGGERS) {
      const expected = EXPECTED[state][trigger];
      it(`${state} × ${trigger} → ${expected ?? 'refused'}`, () => {
        const o = transition(state, trigger);
        if (expected === null) {
          assert.equal(o.ok, false);
          if (!o.ok) {
            assert.ok(o.reason.length > 10, 'a refusal explains itself');
            if (state === 'cancelled' || state === 'completed')
              assert.match(o.reason, new RegExp(`${state} dispatch cannot change`));
          }
        } else {
          assert.deepEqual(o, { ok: true, next: expected });
        }
      });
    }
  }

  it('the table has exactly the expected cells (nothing extra)', () => {
    for (const state of DISPATCH_STATUSES) {
      const allowed = Object.entries(EXPECTED[state]).filter(([, v]) => v !== null);
      assert.deepEqual(TRANSITIONS[state], Object.fromEntries(allowed));
    }
  });

  it('refusals name the rule that was broken', () => {
    for (const [state, trigger, words] of REFUSAL_WORDS) {
      const o = transition(state, trigger);
      assert.equal(o.ok, false);
      if (!o.ok) assert.match(o.reason, words, `${state} × ${trigger}`);
    }
  });

  it('terminal states stay terminal whatever the sequence', () => {
    for (const state of ['cancelled', 'completed'] as const) {
      for (const t of TRIGGERS) assert.equal(apply(state, [t]).ok, false);
    }
  });

  it('apply runs triggers in order and stops at the first refusal', () => {
    assert.deepEqual(apply('planned', ['reassign', 'change_stops', 'activate', 'stop_progress']), {
      ok: true,
      next: 'active',
    });
    assert.deepEqual(apply('planned', ['activate', 'consignee_departed']), { ok: true, next: 'completed' });
    const refused = apply('planned', ['activate', 'reassign']);
    assert.equal(refused.ok, false);
    assert.deepEqual(apply('active', []), { ok: true, next: 'active' });
  });

  it('each PUT status maps to its trigger', () => {
    assert.deepEqual(DISPATCH_STATUSES.map(triggerFor), ['plan', 'activate', 'cancel', 'complete']);
  });

  it('a dispatch is created planned (default) or active, never cancelled or completed', () => {
    assert.deepEqual(initialStatus(undefined), { ok: true, next: 'planned' });
    assert.deepEqual(initialStatus('active'), { ok: true, next: 'active' });
    assert.equal(initialStatus('cancelled').ok, false);
    assert.equal(initialStatus('completed').ok, false);
  });

  it('stops only move forward: available → in_progress → departed', () => {
    const cases: Array<[string, string, boolean]> = [
      ['available', 'available', true],
      ['available', 'in_progress', true],
      ['available', 'departed', true],
      ['in_progress', 'available', false],
      ['in_progress', 'departed', true],
      ['departed', 'in_progress', false],
      ['departed', 'available', false],
      ['departed', 'departed', true],
    ];
    for (const [from, to, ok] of cases) assert.equal(stopMayMove(from as never, to as never), ok, `${from} → ${to}`);
  });

  it('docs/dispatch-states.md shows the same table', () => {
    const doc = readFileSync(new URL('../../../docs/dispatch-states.md', import.meta.url), 'utf8');
    for (const state of DISPATCH_STATUSES) {
      const row = doc.split('\n').find((l) => l.startsWith(`| **${state}** |`));
      assert.ok(row, `row for ${state}`);
      const cells = row
        .split('|')
        .slice(2, -1)
        .map((c) => c.trim());
      assert.deepEqual(
        cells,
        TRIGGERS.map((t) => EXPECTED[state][t] ?? '—'),
        `row ${state}`,
      );
    }
  });
});

describe('trips and the machine', () => {
  const trips = [
    { id: 1, vendor_id: 'T1', stop_vendor_ids: ['S', 'M'] },
    { id: 2, vendor_id: 'T2', stop_vendor_ids: ['C'] },
    { id: 3, vendor_id: 'T3', stop_vendor_ids: [] },
  ];
  const stops = (s: StopStatus, m: StopStatus, c: StopStatus) =>
    new Map<string, StopStatus>([
      ['S', s],
      ['M', m],
      ['C', c],
    ]);

  it('trip statuses follow the dispatch status and its stops', () => {
    const table: Array<[DispatchStatus, Map<string, StopStatus>, string[]]> = [
      ['planned', stops('available', 'available', 'available'), ['not_started', 'not_started', 'not_started']],
      ['active', stops('available', 'available', 'available'), ['in_progress', 'not_started', 'not_started']],
      ['active', stops('departed', 'departed', 'in_progress'), ['completed', 'in_progress', 'not_started']],
      ['cancelled', stops('departed', 'available', 'available'), ['cancelled', 'cancelled', 'cancelled']],
      ['completed', stops('departed', 'departed', 'departed'), ['completed', 'completed', 'completed']],
    ];
    for (const [status, s, expected] of table) assert.deepEqual(tripStatuses(status, trips, s), expected, status);
  });

  it('trip statuses sent by a client become dispatch triggers', () => {
    const t = (...statuses: Array<string | undefined>) =>
      statuses.map((status, i) => ({ vendor_id: `T${i}`, status })) as never;
    assert.equal(tripTrigger(undefined), null);
    assert.equal(tripTrigger(t(undefined)), null);
    assert.equal(tripTrigger(t('cancelled', 'cancelled')), 'cancel');
    assert.equal(tripTrigger(t('cancelled', 'not_started')), null);
    assert.equal(tripTrigger(t('completed', 'completed')), 'complete');
    assert.equal(tripTrigger(t('in_progress', 'not_started')), 'activate');
    assert.equal(tripTrigger(t('not_started')), null);
  });
});
