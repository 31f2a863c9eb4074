/**
 * The event catalogue (docs/webhooks.md) is complete: every action the code records with recordEvent is
 * listed as emitted, every action listed as "not emitted yet" really is not, and the actions the issue
 * names are all there. Actions are found by reading the sources, so a new recordEvent call with an
 * undocumented action fails here before it reaches a receiver.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../repo.js';
import { renderedActions } from '../../../src/events/webhooks/payloads.js';

const ROOT = `${REPO}/`;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Every action string of every recordEvent call in src/, and the calls whose action is not a literal. */
export function emittedActions(): { actions: Map<string, string[]>; unreadable: string[] } {
  const actions = new Map<string, string[]>();
  const unreadable: string[] = [];
  for (const file of sources(join(ROOT, 'src'))) {
    if (file.endsWith(join('events', 'outbox.ts'))) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/recordEvent\(/g)) {
      const call = text.slice(m.index!, m.index! + 600);
      const where = `${file.slice(ROOT.length)}:${text.slice(0, m.index).split('\n').length}`;
      const a = /\baction:\s*([^,\n]+?)(?:,|\n)/.exec(call);
      // In `cond ? 'x' : 'y'` only the branches are actions.
      const expr = a ? (a[1].includes('?') ? a[1].slice(a[1].indexOf('?') + 1) : a[1]) : '';
      const names = a ? [...expr.matchAll(/'([a-z0-9_]+)'|"([a-z0-9_]+)"/g)].map((x) => x[1] ?? x[2]) : [];
      if (names.length === 0) unreadable.push(where);
      for (const n of names) actions.set(n, [...(actions.get(n) ?? []), where]);
    }
  }
  return { actions, unreadable };
}

function catalogue(): { emitted: Set<string>; notYet: Set<string> } {
  const doc = readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Event catalogue'));
  const [main, rest = ''] = section.split('### Not emitted yet');
  const names = (text: string) => new Set([...text.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]));
  return { emitted: names(main), notYet: names(rest) };
}

const REQUIRED = `vehicle_location_updated vehicle_location_received user_upserted vehicle_upserted dispatch_upserted
hos_violation_upserted user_duty_status_updated fault_code_opened fault_code_closed driver_performance_event_created
driver_performance_event_updated inspection_report_upserted engine_toggle_event vehicle_geofence_event asset_geofence_event
form_entry_created`.split(/\s+/);

describe('webhook event catalogue', () => {
  const { actions, unreadable } = emittedActions();
  const { emitted, notYet } = catalogue();

  it('every recordEvent call names its action with string literals (so that this test can read it)', () => {
    assert.deepEqual(unreadable, []);
    assert.ok(actions.size >= 15, `found only ${actions.size} actions`);
  });

  it('docs/webhooks.md lists every action the code emits, with when it fires and its payload', () => {
    const missing = [...actions.keys()]
      .filter((a) => !emitted.has(a))
      .map((a) => `${a} (${actions.get(a)!.join(', ')})`);
    assert.deepEqual(missing, [], 'add these to the event catalogue in docs/webhooks.md');
  });

  it('what the catalogue says is emitted is emitted, and what it says is not yet is not', () => {
    assert.deepEqual(
      [...emitted].filter((a) => !actions.has(a)),
      [],
      'listed as emitted but no code records it',
    );
    assert.deepEqual(
      [...notYet].filter((a) => actions.has(a)),
      [],
      'now emitted: move it to the main table',
    );
  });

  it('holds every action the issue names, and every action with a body renderer', () => {
    for (const a of REQUIRED) assert.ok(emitted.has(a) || notYet.has(a), a);
    for (const a of renderedActions()) assert.ok(emitted.has(a), a);
  });
});
