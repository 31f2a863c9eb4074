/**
 * One device batch from request body to per-record results: validation of each record, the company's
 * drivers, the records other areas own (inspection reports through createInspectionReport, form
 * entries through recordFormEntry), then the durable write (./ingest.ts). Results come back in the
 * order the records were sent.
 */
import type { Db } from '../../storage/db.js';
import { toIso } from '../../storage/values.js';
import { AppError } from '../../http/plumbing/errors.js';
import type { DevicePrincipal } from '../../domain/devices/service.js';
import { createInspectionReport, type NewInspectionReport } from '../../domain/inspections/create.js';
import { lookupReport } from '../../domain/inspections/service.js';
import { findFormEntry, recordFormEntry, type FormEntryInput } from '../../domain/dispatch/forms.js';
import { parseRecord, RecordError, seqOf, type ParsedRecord, type ParseLimits } from '../records.js';
import type { TelemetryConfig } from '../thresholds.js';
import { storeBatch, type Accepted, type InBatch, type RecordResult } from './ingest.js';
import type { ProcessOptions } from './process.js';

export const DEVICE_INTEGRATION = 'fleet_device';

const rejected = (index: number, seq: number | null, error_message: string): RecordResult => ({ index, seq, status: 'rejected', error_message });

async function companyDrivers(db: Db, companyId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('role', '=', 'driver')
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** An inspection report or form entry: created through its area's service, once per (device, seq). */
async function serviceRecord(db: Db, d: DevicePrincipal, channel: number, a: Accepted, cfg: TelemetryConfig, nowMs: number): Promise<RecordResult> {
  const r = a.rec;
  const stored = await db.kysely
    .selectFrom('telemetry_records')
    .select('id')
    .where('device_id', '=', d.deviceId)
    .where('channel', '=', channel)
    .where('seq', '=', r.seq)
    .executeTakeFirst();
  if (stored) return { index: a.index, seq: r.seq, status: 'duplicate' };
  const t = { companyId: d.companyId };
  const data = (r.data ?? {}) as Record<string, unknown>;
  let extra: Record<string, unknown>;
  try {
    if (r.type === 'inspection') {
      const key = { external_id: `${d.identifier}:${r.seq}`, integration_name: DEVICE_INTEGRATION };
      // A report created just before a crash (not yet acknowledged) is found again by its external id.
      const existing = await lookupReport(db, t, key).catch(() => null);
      const own = Array.isArray(data.external_ids) ? (data.external_ids as NewInspectionReport['external_ids'])! : [];
      const report = existing ?? (await createInspectionReport(db, t, {
        ...(data as Partial<NewInspectionReport>), driver_id: r.driverRef!, vehicle_id: d.vehicleId!, time: toIso(r.t), external_ids: [...own, key],
      }));
      extra = { inspection_report_id: report.id };
    } else {
      const input: FormEntryInput = {
        ...(data as Partial<FormEntryInput>), form_id: String(data.form_id ?? ''), driver_id: r.driverRef!,
        vehicle_id: d.vehicleId, entry: (data.entry ?? {}) as Record<string, unknown>, submitted_at: toIso(r.t),
      };
      // An entry created just before a crash (not yet acknowledged) is found again: same form, driver
      // and submission instant, which the re-sent record repeats.
      const entry = (await findFormEntry(db, t, { ...input, submitted_at: input.submitted_at! })) ?? (await recordFormEntry(db, t, input));
      extra = { form_entry_id: entry.id };
    }
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return rejected(a.index, r.seq, err.message);
    throw err;
  }
  const out = await storeBatch(db, d, channel, [{ ...a, extra }], cfg.thresholds, nowMs);
  return out.results.get(a.index)!;
}

export interface BatchSummary {
  accepted: number;
  duplicates: number;
  rejected: number;
  results: RecordResult[];
}

export interface HandledBatch {
  summary: BatchSummary;
  /** What was processed in the batch's transaction, if anything. */
  inBatch: InBatch | null;
}

/**
 * With `process`, a batch of plain records is processed in the transaction that stores it. A batch with
 * inspection reports or form entries is not: those are stored in transactions of their own after the
 * plain records, and processing must see them all (the caller processes after this returns).
 */
export async function handleBatch(db: Db, d: DevicePrincipal, channel: number, raws: unknown[], cfg: TelemetryConfig, process?: ProcessOptions, nowMs = Date.now()): Promise<HandledBatch> {
  const limits: ParseLimits = { nowMs, futureSlackS: cfg.futureSlackS, maxAgeDays: cfg.maxAgeDays };
  const results: RecordResult[] = new Array(raws.length);
  const ok: Accepted[] = [];
  raws.forEach((raw, index) => {
    let rec: ParsedRecord;
    try {
      rec = parseRecord(raw, limits);
    } catch (err) {
      if (!(err instanceof RecordError)) throw err;
      results[index] = rejected(index, seqOf(raw), err.message);
      return;
    }
    if (d.assetId !== null && rec.type !== 'location') {
      results[index] = rejected(index, rec.seq, `an asset gateway sends location records only, not ${rec.type}`);
      return;
    }
    ok.push({ index, rec });
  });
  const drivers = await companyDrivers(db, d.companyId, ok.map((a) => a.rec.driverRef).filter((x): x is number => x !== null));
  const plain: Accepted[] = [];
  const services: Accepted[] = [];
  // A seq sent twice in one batch: the first valid record is the one stored, the others answer as it did.
  const first = new Map<number, number>();
  const repeats: Accepted[] = [];
  for (const a of ok) {
    if (a.rec.driverRef !== null && !drivers.has(a.rec.driverRef)) {
      results[a.index] = rejected(a.index, a.rec.seq, `driver_id ${a.rec.driverRef} is not a driver of this company`);
    } else if (first.has(a.rec.seq)) repeats.push(a);
    else {
      first.set(a.rec.seq, a.index);
      (a.rec.type === 'inspection' || a.rec.type === 'form_entry' ? services : plain).push(a);
    }
  }
  const stored = await storeBatch(db, d, channel, plain, cfg.thresholds, nowMs, services.length === 0 ? process : undefined);
  for (const [index, res] of stored.results) results[index] = res;
  for (const a of services) results[a.index] = await serviceRecord(db, d, channel, a, cfg, nowMs);
  for (const { index, rec } of repeats) {
    const at = first.get(rec.seq)!;
    // Never `duplicate` for a record that was not stored: the device would drop it as done.
    results[index] = results[at].status === 'rejected'
      ? rejected(index, rec.seq, `seq ${rec.seq} was already used by the record at index ${at} of this batch, which was rejected`)
      : { index, seq: rec.seq, status: 'duplicate' };
  }
  let accepted = 0;
  let duplicates = 0;
  for (const r of results) {
    if (r.status === 'accepted') accepted++;
    else if (r.status === 'duplicate') duplicates++;
  }
  return { summary: { accepted, duplicates, rejected: results.length - accepted - duplicates, results }, inBatch: stored.inBatch };
}
