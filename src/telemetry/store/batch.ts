/**
 * One device batch from request body to per-record results: validation of each record, the company's
 * drivers, the records other areas own (inspection reports through createInspectionReport, form
 * entries through recordFormEntry), then the durable write (./ingest.ts). Results come back in the
 * order the records were sent.
 *
 * Each record lands whole or not at all: an inspection report or form entry is created in the
 * transaction that stores its record, so a rejected one leaves no report, entry, log or event behind.
 * Values the databases disagree on are rejected when the record is parsed (../records.ts); should the
 * database still refuse a record's values (storage/refused.ts), that record is rejected and the others
 * of the batch are stored, never a 500 that the device would send again for ever.
 */
import type { Db } from '../../storage/db.js';
import { toIso } from '../../storage/values.js';
import { AppError } from '../../core/errors.js';
import { isRefusedValue } from '../../storage/refused.js';
import type { DevicePrincipal } from '../../domain/devices/service.js';
import { createInspectionReport, type NewInspectionReport } from '../../domain/inspections/create.js';
import { lookupReport } from '../../domain/inspections/service.js';
import { findFormEntry, recordFormEntry, type FormEntryInput } from '../../domain/dispatch/forms.js';
import { parseRecord, seqOf, type ParsedRecord } from '../records.js';
import { RecordError, type ParseLimits } from '../record-fields.js';
import type { TelemetryConfig } from '../thresholds.js';
import { storeBatch, storeIn, type Accepted, type InBatch, type RecordResult, type Stored } from './ingest.js';
import type { ProcessOptions } from './process.js';
import { writeTx } from './tx.js';
import { driversQuery } from '../../domain/users/repository.js';

export const DEVICE_INTEGRATION = 'fleet_device';

const rejected = (index: number, seq: number | null, error_message: string): RecordResult => ({
  index,
  seq,
  status: 'rejected',
  error_message,
});

/** The answer to a record whose values the database refused (what it said is logged, not sent). */
export const REFUSED = 'the database refused to store this record (the server log has the reason)';

/** A record the database refused, and what it said. */
export interface Refusal {
  index: number;
  seq: number;
  err: unknown;
}

/** A record's rejection when `err` is a service's refusal (4xx) or the database's; any other error goes on. */
function rejection(a: Accepted, err: unknown, refused: Refusal[]): RecordResult {
  if (err instanceof AppError && err.status < 500) return rejected(a.index, a.rec.seq, err.message);
  if (!isRefusedValue(err)) throw err;
  refused.push({ index: a.index, seq: a.rec.seq, err });
  return rejected(a.index, a.rec.seq, REFUSED);
}

async function companyDrivers(db: Db, companyId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await driversQuery(db.kysely, companyId, [...new Set(ids)])
    .select('id')
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * An inspection report or form entry: created through its area's service, once per (device, seq), in
 * the transaction that stores its record.
 */
async function serviceRecord(
  db: Db,
  d: DevicePrincipal,
  channel: number,
  a: Accepted,
  cfg: TelemetryConfig,
  nowMs: number,
): Promise<RecordResult> {
  return writeTx(db, async (trx) => {
    const inTrx: Db = { ...db, kysely: trx };
    const r = a.rec;
    const stored = await trx
      .selectFrom('telemetry_records')
      .select('id')
      .where('device_id', '=', d.deviceId)
      .where('channel', '=', channel)
      .where('seq', '=', r.seq)
      .executeTakeFirst();
    if (stored) return { index: a.index, seq: r.seq, status: 'duplicate' } satisfies RecordResult;
    const t = { companyId: d.companyId };
    const data = (r.data ?? {}) as Record<string, unknown>;
    let extra: Record<string, unknown>;
    if (r.type === 'inspection') {
      const key = { external_id: `${d.identifier}:${r.seq}`, integration_name: DEVICE_INTEGRATION };
      // A report already holding this record's external id is not created twice (one that an earlier
      // version stored without its record, before a crash, or one made by hand with that id).
      const existing = await lookupReport(inTrx, t, key).catch(() => null);
      const own = Array.isArray(data.external_ids) ? (data.external_ids as NewInspectionReport['external_ids'])! : [];
      const report =
        existing ??
        (await createInspectionReport(
          db,
          t,
          {
            ...(data as Partial<NewInspectionReport>),
            driver_id: r.driverRef!,
            vehicle_id: d.vehicleId!,
            time: toIso(r.t),
            external_ids: [...own, key],
          },
          trx,
        ));
      extra = { inspection_report_id: report.id };
    } else {
      const input: FormEntryInput = {
        ...(data as Partial<FormEntryInput>),
        form_id: String(data.form_id ?? ''),
        driver_id: r.driverRef!,
        vehicle_id: d.vehicleId,
        entry: (data.entry ?? {}) as Record<string, unknown>,
        submitted_at: toIso(r.t),
      };
      // An entry an earlier version stored without its record, before a crash, is found again: same
      // form, driver, submission instant and answers, which the re-sent record repeats.
      const entry =
        (await findFormEntry(inTrx, t, { ...input, submitted_at: input.submitted_at! })) ??
        (await recordFormEntry(db, t, input, trx));
      extra = { form_entry_id: entry.id };
    }
    const out = await storeIn(trx, db, d, channel, [{ ...a, extra }], cfg.thresholds, nowMs);
    return out.results.get(a.index)!;
  });
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
  /** Records rejected because the database refused their values (for the log). */
  refused: Refusal[];
}

/**
 * The plain records, in one transaction. When the database refuses it for the values of a record,
 * each record is stored on its own (rare: the checks at parse time stand before it), so that only the
 * refused ones are rejected; processing then waits for the caller.
 */
async function storePlain(
  db: Db,
  d: DevicePrincipal,
  channel: number,
  plain: Accepted[],
  cfg: TelemetryConfig,
  nowMs: number,
  process: ProcessOptions | undefined,
  refused: Refusal[],
): Promise<Pick<Stored, 'results' | 'inBatch'>> {
  try {
    return await storeBatch(db, d, channel, plain, cfg.thresholds, nowMs, process);
  } catch (err) {
    if (!isRefusedValue(err)) throw err;
  }
  const results = new Map<number, RecordResult>();
  for (const a of plain) {
    try {
      results.set(a.index, (await storeBatch(db, d, channel, [a], cfg.thresholds, nowMs)).results.get(a.index)!);
    } catch (err) {
      results.set(a.index, rejection(a, err, refused));
    }
  }
  return { results, inBatch: null };
}

/**
 * With `process`, a batch of plain records is processed in the transaction that stores it. A batch with
 * inspection reports or form entries is not: each of those is stored in a transaction of its own (with
 * the report or entry it creates) after the plain records, and processing must see them all (the
 * caller processes after this returns).
 */
export async function handleBatch(
  db: Db,
  d: DevicePrincipal,
  channel: number,
  raws: unknown[],
  cfg: TelemetryConfig,
  process?: ProcessOptions,
  nowMs = Date.now(),
): Promise<HandledBatch> {
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
  const drivers = await companyDrivers(
    db,
    d.companyId,
    ok.map((a) => a.rec.driverRef).filter((x): x is number => x !== null),
  );
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
  const refused: Refusal[] = [];
  const stored = await storePlain(
    db,
    d,
    channel,
    plain,
    cfg,
    nowMs,
    services.length === 0 ? process : undefined,
    refused,
  );
  for (const [index, res] of stored.results) results[index] = res;
  for (const a of services) {
    try {
      results[a.index] = await serviceRecord(db, d, channel, a, cfg, nowMs);
    } catch (err) {
      results[a.index] = rejection(a, err, refused);
    }
  }
  for (const { index, rec } of repeats) {
    const at = first.get(rec.seq)!;
    // Never `duplicate` for a record that was not stored: the device would drop it as done.
    results[index] =
      results[at].status === 'rejected'
        ? rejected(
            index,
            rec.seq,
            `seq ${rec.seq} was already used by the record at index ${at} of this batch, which was rejected`,
          )
        : { index, seq: rec.seq, status: 'duplicate' };
  }
  let accepted = 0;
  let duplicates = 0;
  for (const r of results) {
    if (r.status === 'accepted') accepted++;
    else if (r.status === 'duplicate') duplicates++;
  }
  return {
    summary: { accepted, duplicates, rejected: results.length - accepted - duplicates, results },
    inBatch: stored.inBatch,
    refused,
  };
}
