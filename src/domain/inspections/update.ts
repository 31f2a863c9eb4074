/**
 * The inspection report update (`PUT /v1/inspection_reports/:id`, docs/assets-inspections-devices.md): sets the
 * report's external ids and records a mechanic's sign-off, either for the whole report (`status`
 * corrected or harmless) or per defect (`defect_statuses`, the form real clients send). Everything is
 * checked before anything is written; the change and its `inspection_report_upserted` event are one
 * transaction.
 */
import type { Db } from '../../storage/db.js';
import { nowIso } from '../../storage/values.js';
import { isUniqueViolation } from '../../storage/query.js';
import { badRequest, notFound, validation } from '../../core/errors.js';
import { actingUserId } from '../users/acting.js';
import type { Tenant } from '../tenant.js';
import { assertExternalIdsFree, normalizeExternalIds, setExternalIds } from '../assets/external-ids.js';
import { parseInstant } from './instant.js';
import { isSignedOff, planDefectChanges, reportStatus } from './status.js';
import { announceReport, getReport, reportDefects } from './service.js';
import { userRef } from '../users/refs.js';
import type { ReportUpdate } from './input.js';

type Caller = Tenant & { actingUserId?: number | null };

async function assertMechanic(db: Db, t: Tenant, field: string, id: number): Promise<void> {
  const u = await userRef(db.kysely, t.companyId, id);
  if (!u) throw notFound(`${field}: user ${id}`);
  if (u.role === 'driver') throw validation(field, `must name an admin or fleet user; user ${id} is a driver`);
  if (u.status !== 'active') throw validation(field, `must name an active user; user ${id} is ${u.status}`);
}

function signedAt(field: string, value: string, inspectedAt: string): string {
  const d = parseInstant(field, value);
  if (d.getTime() > Date.now() + 5 * 60_000) throw validation(field, 'must not be in the future');
  if (d.toISOString() < inspectedAt) throw validation(field, 'must not be before the inspection (time)');
  return d.toISOString();
}

export async function updateInspectionReport(db: Db, t: Caller, id: number, input: ReportUpdate) {
  const report = await getReport(db, t, id);
  const entries = input.defect_statuses ?? [];
  const reportLevelSignOff = ['mechanic_id', 'mechanic_signed_at', 'mechanic_note', 'mechanic_signature_url'].filter(
    (k) => input[k as keyof ReportUpdate] !== undefined,
  );
  if (
    input.external_ids_attributes === undefined &&
    input.status === undefined &&
    entries.length === 0 &&
    reportLevelSignOff.length === 0
  ) {
    throw badRequest(
      'nothing to update: send external_ids_attributes, status, defect_statuses or the mechanic sign-off fields',
    );
  }
  const externalIds =
    input.external_ids_attributes && normalizeExternalIds('external_ids_attributes', input.external_ids_attributes);
  if (externalIds) await assertExternalIdsFree(db.kysely, t.companyId, 'inspection_report', id, externalIds);

  const defects = (await reportDefects(db, [id])).get(id) ?? [];
  const plan = planDefectChanges(defects, entries, input.status);
  if (plan.problem) {
    const { field, message, kind } = plan.problem;
    throw kind === 'not_found'
      ? notFound(`${field}: ${message} of inspection report ${id}`)
      : validation(field, message);
  }
  const after = defects.map((d) => ({ ...d, status: plan.changed.find((c) => c.id === d.id)?.to ?? d.status }));
  const status = reportStatus(after);
  if (input.status && status !== input.status) {
    // e.g. harmless asked while a defect was repaired: the defects decide, so the request contradicts them.
    throw validation(
      'status',
      `cannot be ${input.status}: with its defects settled the report is ${status}; change the defects with defect_statuses`,
    );
  }
  if (reportLevelSignOff.length && !isSignedOff(status)) {
    const why =
      status === 'satisfactory'
        ? 'the report has no defects, so there is nothing for a mechanic to sign off'
        : `the report still has open defects (${after
            .filter((d) => d.status === 'open')
            .map((d) => d.id)
            .join(', ')}); settle them with status or defect_statuses`;
    throw validation(reportLevelSignOff[0], `cannot be set: ${why}`);
  }

  // Who signs and when: the request's mechanic, else the last defect entry's, else the one already on the
  // report, else the admin the request acts as.
  if (input.mechanic_id !== undefined) await assertMechanic(db, t, 'mechanic_id', input.mechanic_id);
  for (const [i, e] of entries.entries())
    if (e.mechanic_id !== undefined) await assertMechanic(db, t, `defect_statuses[${i}].mechanic_id`, e.mechanic_id);
  const entryTimes = entries.map((e, i) =>
    e.mechanic_signed_at === undefined
      ? undefined
      : signedAt(`defect_statuses[${i}].mechanic_signed_at`, e.mechanic_signed_at, report.time),
  );
  const bodyTime =
    input.mechanic_signed_at === undefined
      ? undefined
      : signedAt('mechanic_signed_at', input.mechanic_signed_at, report.time);
  const lastEntry = [...entries].reverse().find((e) => e.mechanic_id !== undefined);
  const lastTime = [...entryTimes].reverse().find((x) => x !== undefined);
  const wasSigned = isSignedOff(report.status);
  const acting = isSignedOff(status) || plan.changed.length > 0 ? await actingUserId(db, t) : null;
  const mechanicId = input.mechanic_id ?? lastEntry?.mechanic_id ?? (wasSigned ? report.mechanic_id : null) ?? acting;
  const now = nowIso();
  const resigned = plan.changed.length > 0 || !wasSigned;
  const mechanicAt = bodyTime ?? lastTime ?? (resigned ? now : report.mechanic_signed_at) ?? now;
  const lastNote = [...entries].reverse().find((e) => e.mechanic_note !== undefined)?.mechanic_note;
  const note =
    input.mechanic_note !== undefined ? input.mechanic_note : lastNote !== undefined ? lastNote : report.mechanic_note;
  const signature =
    input.mechanic_signature_url !== undefined ? input.mechanic_signature_url : report.mechanic_signature_url;
  for (const [field, v, max] of [
    ['mechanic_note', note, 2000],
    ['mechanic_signature_url', signature, 2000],
  ] as const) {
    if (typeof v === 'string' && v.length > max) throw validation(field, `must be at most ${max} characters long`);
  }

  // Which entry settled each defect: the last one naming it (a report-level status settles the rest).
  const byEntry = new Map<number, number>();
  entries.forEach((e, i) => e.resolved_defects.forEach((d) => byEntry.set(d, i)));

  try {
    await db.kysely.transaction().execute(async (trx) => {
      for (const c of plan.changed) {
        const i = byEntry.get(c.id);
        const e = i === undefined ? undefined : entries[i];
        const reopened = c.to === 'open';
        await trx
          .updateTable('inspection_defects')
          .set({
            status: c.to,
            resolved_by: reopened ? null : (e?.mechanic_id ?? mechanicId),
            resolved_at: reopened ? null : ((i === undefined ? undefined : entryTimes[i]) ?? mechanicAt),
            resolution_note: reopened ? null : (e?.mechanic_note ?? (typeof note === 'string' ? note : null)),
          })
          .where('report_id', '=', id)
          .where('id', '=', c.id)
          .execute();
      }
      const signed = isSignedOff(status);
      await trx
        .updateTable('inspection_reports')
        .set({
          status,
          mechanic_id: signed ? mechanicId : null,
          mechanic_signed_at: signed ? mechanicAt : null,
          mechanic_note: signed ? (note ?? null) : null,
          mechanic_signature_url: signed ? (signature ?? null) : null,
          updated_at: now,
        })
        .where('company_id', '=', t.companyId)
        .where('id', '=', id)
        .execute();
      if (externalIds) await setExternalIds(trx, t.companyId, 'inspection_report', id, externalIds);
      await announceReport(trx, t.companyId, id, 'updated');
    });
  } catch (err) {
    // Another request took one of these external ids meanwhile: the unique index decides, the loser gets a 400.
    if (isUniqueViolation(err) && externalIds)
      await assertExternalIdsFree(db.kysely, t.companyId, 'inspection_report', id, externalIds);
    throw err;
  }
  return getReport(db, t, id);
}
