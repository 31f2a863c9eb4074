/**
 * Fault codes (docs/reference/domain-rules.md §5.3, §7 D-11). A code observed active opens a record (webhook
 * `fault_code_opened`) unless one is open for the same key; each observation updates
 * `last_observed_at`, the observation count and the occurrence count (the largest the device
 * reported). A record closes (`fault_code_closed`) after `faultCloseGraceS` of engine-on reporting
 * without the code — at the later of its last observation and the last engine start, plus the grace —
 * or at the end of an ignition cycle (engine on, then off) in which the code was not observed,
 * whichever comes first, or at once on an explicit clear of that code or of every code. While the
 * engine is off nothing closes. Without engine information the device reporting counts as engine-on.
 * A data gap is not reporting: the grace starts again at the first record after it.
 */
import type { Engine, FaultRow, Input, Output, Step, Env } from './types.js';

export interface FaultState {
  open: Record<string, FaultRow>;
  /**
   * Since when the engine has been on and reporting: its last start (engine record or ignition
   * flag), or the first record after a data gap (the gap is no reporting). Null: no start seen.
   */
  engineOnAt: number | null;
  /** The engine state after the previous record, and its time (absent in states saved before them). */
  engine?: Engine;
  lastT?: number | null;
}

/**
 * A J1939 report of SPN 0 / FMI 0 is a DM1 saying "no active DTCs" (docs/reference/domain-rules.md §5.1): the prefix of
 * the keys it closes (that source address's), or undefined for any other record.
 */
function noneActive(d: Record<string, any>): string | undefined {
  return d.protocol === 'j1939' && d.spn === 0 && d.fmi === 0 && d.status !== 'cleared'
    ? `j1939:${d.source_address ?? 0}:`
    : undefined;
}

export const initialFaults = (): FaultState => ({ open: {}, engineOnAt: null, engine: 'unknown', lastT: null });

/**
 * Closes the faults absent for the grace. `seen` is the key this record observes: observed again
 * exactly when its grace runs out, it was never absent for the whole grace and stays open.
 */
function expire(
  open: Record<string, FaultRow>,
  now: number,
  engineOnAt: number | null,
  graceMs: number,
  seen: string | null,
  outputs: Output[],
) {
  let next = open;
  for (const [key, f] of Object.entries(open)) {
    const since = Math.max(f.last, engineOnAt ?? -Infinity);
    if (now - since < graceMs || (key === seen && now - since === graceMs)) continue;
    if (next === open) next = { ...open };
    delete next[key];
    outputs.push({ kind: 'fault', row: { ...f, closedAt: since + graceMs }, event: 'closed' });
  }
  return next;
}

/** An ignition cycle that ended without the code: the fault closes at the engine stop (D-11). */
function endCycle(open: Record<string, FaultRow>, stop: number, engineOnAt: number, outputs: Output[]) {
  let next = open;
  for (const [key, f] of Object.entries(open)) {
    if (f.last >= engineOnAt) continue;
    if (next === open) next = { ...open };
    delete next[key];
    outputs.push({ kind: 'fault', row: { ...f, closedAt: stop }, event: 'closed' });
  }
  return next;
}

export function faults(state: FaultState, r: Input, env: Env): Step<FaultState> {
  const outputs: Output[] = [];
  let { open, engineOnAt } = state;
  const was = state.engine ?? r.ctx.engine;
  const now = r.ctx.engine;
  const gap = state.lastT !== null && state.lastT !== undefined && r.t - state.lastT > env.th.gapS * 1000;
  if (!gap && was !== 'off' && Object.keys(open).length > 0) {
    const seen =
      r.type === 'fault' && r.data && r.data.status !== 'cleared' && !noneActive(r.data)
        ? (r.data.key as string)
        : null;
    open = expire(open, r.t, engineOnAt, env.th.faultCloseGraceS * 1000, seen, outputs);
    if (was === 'on' && now === 'off' && engineOnAt !== null) open = endCycle(open, r.t, engineOnAt, outputs);
  }
  if ((now === 'on' && was !== 'on') || (gap && now !== 'off')) engineOnAt = r.t;
  if (r.type === 'fault' && r.data) {
    const d = r.data;
    // A DM1 with no active DTCs closes its source address's faults as no longer observed (not cleared by a tool).
    const prefix = noneActive(d);
    if (d.status === 'cleared' || prefix) {
      const keys = prefix
        ? Object.keys(open).filter((k) => k.startsWith(prefix))
        : d.key
          ? [d.key as string]
          : Object.keys(open);
      for (const key of keys) {
        const f = open[key];
        if (!f) continue;
        if (open === state.open) open = { ...open };
        delete open[key];
        outputs.push({ kind: 'fault', row: { ...f, closedAt: r.t, cleared: !prefix }, event: 'closed' });
      }
    } else {
      const key = d.key as string;
      const was = open[key];
      const oc = (d.occurrence_count as number | null) ?? 1;
      const row: FaultRow = was
        ? {
            ...was,
            last: Math.max(was.last, r.t),
            observations: was.observations + 1,
            occurrenceCount: Math.max(was.occurrenceCount, oc),
            lamps: (d.lamps as Record<string, boolean> | null) ?? was.lamps,
          }
        : {
            key,
            protocol: d.protocol,
            code: d.code,
            spn: d.spn,
            fmi: d.fmi,
            sourceAddress: d.source_address,
            isSid: !!d.is_sid,
            deviceId: r.deviceId,
            first: r.t,
            last: r.t,
            closedAt: null,
            cleared: false,
            occurrenceCount: oc,
            observations: 1,
            lamps: (d.lamps as Record<string, boolean> | null) ?? null,
          };
      open = { ...open, [key]: row };
      outputs.push({ kind: 'fault', row, event: was ? null : 'opened' });
    }
  }
  return { state: { open, engineOnAt, engine: now, lastT: r.t }, outputs };
}
