/**
 * Fault records (docs/reference/domain-rules.md §5): a J1939 DTC (source address, SPN, FMI, occurrence count), a J1708
 * code (MID, PID or SID, FMI) or an OBD-II code ("P0420"), observed active or explicitly cleared. A
 * fault is identified by its key; `status: "cleared"` without a code clears every open fault (DM11,
 * mode 04). A J1939 report of SPN 0 / FMI 0 is stored as sent; the fault processor reads it as a DM1
 * saying "no active DTCs" (processors/faults.ts).
 */

export interface FaultFields {
  protocol: 'j1939' | 'obd2' | 'j1708';
  status: 'active' | 'cleared';
  /** j1939:SA:SPN:FMI, obd2:CODE, j1708:MID:P|S:ID:FMI; null for "clear everything". */
  key: string | null;
  /** What the wire shows as `code`: the OBD-II code, or the SPN (PID/SID) as text. */
  code: string | null;
  spn: number | null;
  fmi: number | null;
  source_address: number | null;
  is_sid: boolean;
  occurrence_count: number | null;
  lamps: { mil: boolean; red_stop: boolean; amber_warning: boolean; protect: boolean } | null;
}

interface Helpers {
  intIn(r: Record<string, unknown>, field: string, min: number, max: number, required?: boolean): number | null;
  oneOf<T extends string>(r: Record<string, unknown>, field: string, values: readonly T[], def?: T): T;
  bool(r: Record<string, unknown>, field: string): boolean | null;
  fail(message: string): never;
}

const OBD2 = /^[PCBU][0-3][0-9A-F]{3}$/;

function lamps(r: Record<string, unknown>, h: Helpers): FaultFields['lamps'] {
  const v = r.lamps;
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v))
    h.fail('lamps must be an object of mil, red_stop, amber_warning, protect booleans');
  const o = v as Record<string, unknown>;
  const get = (k: string) => {
    const b = h.bool(o, k);
    return b === true;
  };
  for (const k of Object.keys(o)) {
    if (!['mil', 'red_stop', 'amber_warning', 'protect'].includes(k))
      h.fail(`lamps.${k} is not a lamp (mil, red_stop, amber_warning, protect)`);
  }
  return { mil: get('mil'), red_stop: get('red_stop'), amber_warning: get('amber_warning'), protect: get('protect') };
}

export function fault(r: Record<string, unknown>, h: Helpers): FaultFields {
  const status = h.oneOf(r, 'status', ['active', 'cleared'] as const, 'active');
  const hasCode = r.spn !== undefined || r.code !== undefined || r.pid !== undefined || r.sid !== undefined;
  // Clearing everything names no code, so no protocol either (it clears the faults of every protocol).
  const protocol = h.oneOf(
    r,
    'protocol',
    ['j1939', 'obd2', 'j1708'] as const,
    status === 'cleared' && !hasCode ? 'j1939' : undefined,
  );
  const base = { protocol, status, lamps: lamps(r, h), occurrence_count: h.intIn(r, 'occurrence_count', 0, 127) };
  if (status === 'cleared' && !hasCode) {
    return { ...base, key: null, code: null, spn: null, fmi: null, source_address: null, is_sid: false };
  }
  if (protocol === 'obd2') {
    const code = r.code;
    if (code === undefined || code === null) h.fail('code is required for an obd2 fault, e.g. "P0420"');
    if (typeof code !== 'string' || !OBD2.test(code.toUpperCase()))
      h.fail(
        `code must be an OBD-II code such as P0420 (letter P, C, B or U, a digit 0–3, then 3 hex digits), got "${String(code)}"`,
      );
    const c = (code as string).toUpperCase();
    return { ...base, key: `obd2:${c}`, code: c, spn: null, fmi: null, source_address: null, is_sid: false };
  }
  if (protocol === 'j1939') {
    const spn = h.intIn(r, 'spn', 0, 524_287, true)!;
    const fmi = h.intIn(r, 'fmi', 0, 31, true)!;
    const sa = h.intIn(r, 'source_address', 0, 255) ?? 0;
    return {
      ...base,
      key: `j1939:${sa}:${spn}:${fmi}`,
      code: String(spn),
      spn,
      fmi,
      source_address: sa,
      is_sid: false,
    };
  }
  const mid = h.intIn(r, 'mid', 0, 255, true)!;
  const fmi = h.intIn(r, 'fmi', 0, 15, true)!;
  const pid = h.intIn(r, 'pid', 0, 65_535);
  const sid = h.intIn(r, 'sid', 0, 255);
  if ((pid === null) === (sid === null)) h.fail('a j1708 fault needs exactly one of pid and sid');
  const isSid = sid !== null;
  const id = (isSid ? sid : pid)!;
  return {
    ...base,
    key: `j1708:${mid}:${isSid ? 'S' : 'P'}:${id}:${fmi}`,
    code: String(id),
    spn: id,
    fmi,
    source_address: mid,
    is_sid: isSid,
  };
}
