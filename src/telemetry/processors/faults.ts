/**
 * Fault codes (domain-rules §5.3, §7 D-11). A code observed active opens a record (webhook
 * `fault_code_opened`) unless one is open for the same key; each observation updates
 * `last_observed_at`, the observation count and the occurrence count (the largest the device
 * reported). A record closes (`fault_code_closed`) after `faultCloseGraceS` of engine-on reporting
 * without the code — at the later of its last observation and the last engine start, plus the grace —
 * or at once on an explicit clear of that code or of every code. While the engine is off nothing
 * closes. Without engine information the device reporting counts as engine-on.
 */
import type { FaultRow, Input, Output, Step, Env } from './types.js';

export interface FaultState {
  open: Record<string, FaultRow>;
  engineOnAt: number | null;
}

export const initialFaults = (): FaultState => ({ open: {}, engineOnAt: null });

function expire(open: Record<string, FaultRow>, now: number, engineOnAt: number | null, graceMs: number, outputs: Output[]) {
  let next = open;
  for (const [key, f] of Object.entries(open)) {
    const since = Math.max(f.last, engineOnAt ?? -Infinity);
    if (now - since < graceMs) continue;
    if (next === open) next = { ...open };
    delete next[key];
    outputs.push({ kind: 'fault', row: { ...f, closedAt: since + graceMs }, event: 'closed' });
  }
  return next;
}

export function faults(state: FaultState, r: Input, env: Env): Step<FaultState> {
  const outputs: Output[] = [];
  let { open, engineOnAt } = state;
  if (r.type === 'engine' && r.data?.state === 'on') engineOnAt = r.t;
  if (r.ctx.engine !== 'off' && Object.keys(open).length > 0) {
    open = expire(open, r.t, r.ctx.engine === 'on' ? engineOnAt : null, env.th.faultCloseGraceS * 1000, outputs);
  }
  if (r.type === 'fault' && r.data) {
    const d = r.data;
    if (d.status === 'cleared') {
      const keys = d.key ? [d.key as string] : Object.keys(open);
      for (const key of keys) {
        const f = open[key];
        if (!f) continue;
        if (open === state.open) open = { ...open };
        delete open[key];
        outputs.push({ kind: 'fault', row: { ...f, closedAt: r.t, cleared: true }, event: 'closed' });
      }
    } else {
      const key = d.key as string;
      const was = open[key];
      const oc = (d.occurrence_count as number | null) ?? 1;
      const row: FaultRow = was
        ? {
            ...was, last: Math.max(was.last, r.t), observations: was.observations + 1,
            occurrenceCount: Math.max(was.occurrenceCount, oc), lamps: (d.lamps as Record<string, boolean> | null) ?? was.lamps,
          }
        : {
            key, protocol: d.protocol, code: d.code, spn: d.spn, fmi: d.fmi, sourceAddress: d.source_address, isSid: !!d.is_sid,
            deviceId: r.deviceId, first: r.t, last: r.t, closedAt: null, cleared: false, occurrenceCount: oc, observations: 1,
            lamps: (d.lamps as Record<string, boolean> | null) ?? null,
          };
      open = { ...open, [key]: row };
      outputs.push({ kind: 'fault', row, event: was ? null : 'opened' });
    }
  }
  if (open === state.open && engineOnAt === state.engineOnAt) return { state, outputs };
  return { state: { open, engineOnAt }, outputs };
}
