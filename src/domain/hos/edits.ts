/**
 * Edits of a driver's log (docs/reference/domain-rules.md §2.3): an edit sets the status of a span [start, end). The
 * original records never disappear: those it replaces become inactive-changed (record status 2) and
 * point at the edit; new records (origin 2 for the driver's own edit, 3 for another user's) start the
 * span and restore, at its end, the status that was in effect there. Automatically recorded driving
 * cannot be shortened or converted. A carrier's edit is only a request until the driver accepts it.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { nowIso, toIso } from '../../storage/values.js';
import { AppError, notFound, validation } from '../../core/errors.js';
import type { Tenant } from '../tenant.js';
import type { HosEditsTable } from './tables.js';
import { DUTY_STATUS_INPUTS, normalize, type DutyStatusInput } from './records.js';
import { dutyAt, dutyBetween, lockDriver, nextSequence, rechain } from './store.js';
import { eventRow } from './service.js';
import { reevaluateDriver } from './evaluation.js';

type Trx = Kysely<Database>;
export type EditRow = Selectable<HosEditsTable>;

export interface EditInput {
  start: string;
  end: string;
  status: DutyStatusInput;
  /** Why: 4 to 60 characters (App. A). */
  annotation: string;
  /** `driver` (default): the driver's own edit, applied at once; `edit`: another user's, a request. */
  origin?: 'driver' | 'edit';
  requestedBy?: number | null;
}

function parse(input: EditInput, now: number): { start: number; end: number } {
  const start = Date.parse(input.start);
  const end = Date.parse(input.end);
  if (!Number.isFinite(start)) throw validation('start_time', 'is not a valid datetime');
  if (!Number.isFinite(end)) throw validation('end_time', 'is not a valid datetime');
  if (!(end > start)) throw validation('end_time', 'must be after start_time');
  if (end > now) throw validation('end_time', 'must not be in the future');
  if (!(DUTY_STATUS_INPUTS as readonly string[]).includes(input.status))
    throw validation('status', `must be one of: ${DUTY_STATUS_INPUTS.join(', ')}`);
  const a = (input.annotation ?? '').trim();
  if (a.length < 4 || a.length > 60) throw validation('annotation', 'must be 4 to 60 characters long');
  return { start, end };
}

export async function editDutyStatus(
  db: Db,
  t: Tenant,
  driverId: number,
  input: EditInput,
  opts: { now?: number } = {},
): Promise<EditRow> {
  const now = opts.now ?? Date.now();
  const { start, end } = parse(input, now);
  const origin = input.origin === 'edit' ? 3 : 2;
  return db.kysely.transaction().execute(async (trx) => {
    await lockDriver(trx, db.kind, t.companyId, driverId);
    const spec = normalize({ status: input.status, at: start }, 0, now);
    const edit = await trx
      .insertInto('hos_edits')
      .values({
        company_id: t.companyId,
        driver_id: driverId,
        start_at: toIso(start),
        end_at: toIso(end),
        status: spec.status!,
        special: spec.special,
        record_origin: origin,
        requested_by: input.requestedBy ?? null,
        annotation: input.annotation.trim(),
        state: origin === 3 ? 'requested' : 'applied',
        created_at: nowIso(),
        decided_at: origin === 3 ? null : nowIso(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (origin === 2) await apply(trx, t, driverId, edit, input.status, now);
    return edit;
  });
}

/** The driver accepts (the edit is applied) or rejects a requested edit. */
export async function decideEdit(
  db: Db,
  t: Tenant,
  driverId: number,
  editId: number,
  accept: boolean,
  opts: { now?: number } = {},
): Promise<EditRow> {
  const now = opts.now ?? Date.now();
  return db.kysely.transaction().execute(async (trx) => {
    await lockDriver(trx, db.kind, t.companyId, driverId);
    const edit = await trx
      .selectFrom('hos_edits')
      .selectAll()
      .where('company_id', '=', t.companyId)
      .where('driver_id', '=', driverId)
      .where('id', '=', editId)
      .executeTakeFirst();
    if (!edit) throw notFound(`edit ${editId}`);
    if (edit.state !== 'requested')
      throw new AppError('invalid_state', `edit ${editId} is ${edit.state}, not requested`);
    const state = accept ? 'applied' : 'rejected';
    const input = (edit.special ?? edit.status) as DutyStatusInput;
    if (accept) await apply(trx, t, driverId, edit, input, now);
    await trx.updateTable('hos_edits').set({ state, decided_at: nowIso() }).where('id', '=', editId).execute();
    return { ...edit, state, decided_at: nowIso() };
  });
}

async function apply(
  trx: Trx,
  t: Tenant,
  driverId: number,
  edit: EditRow,
  status: DutyStatusInput,
  now: number,
): Promise<void> {
  const { start_at: startIso, end_at: endIso } = edit;
  const before = await dutyAt(trx, t.companyId, driverId, startIso);
  const inside = await dutyBetween(trx, t.companyId, driverId, startIso, endIso);
  const atEnd = await dutyAt(trx, t.companyId, driverId, endIso);
  if (status !== 'driving') {
    for (const r of [before, ...inside]) {
      if (
        r &&
        r.status === 'driving' &&
        r.record_origin === 1 &&
        (r.ended_at ?? '') > startIso &&
        r.occurred_at < endIso
      ) {
        throw new AppError(
          'invalid_state',
          `automatically recorded driving (${r.occurred_at} to ${r.ended_at}) cannot be shortened or converted`,
        );
      }
    }
  }
  if (inside.length) {
    await trx
      .updateTable('hos_events')
      .set({ record_status: 2, superseded_by_edit_id: edit.id })
      .where(
        'id',
        'in',
        inside.map((r) => r.id),
      )
      .execute();
  }
  let seq = await nextSequence(trx, t.companyId, driverId);
  const add = async (s: DutyStatusInput, at: number) => {
    const e = normalize({ status: s, at, notes: edit.annotation }, 0, now);
    e.origin = edit.record_origin;
    await trx
      .insertInto('hos_events')
      .values(eventRow(t.companyId, driverId, e, seq, { edit_id: edit.id }))
      .execute();
    seq = (seq + 1) % 0x10000;
  };
  await add(status, Date.parse(startIso));
  const restartsAtEnd = atEnd && atEnd.occurred_at === endIso && !inside.some((r) => r.id === atEnd.id);
  if (!restartsAtEnd) {
    const restore = (atEnd ? (atEnd.special ?? atEnd.status) : 'off_duty') as DutyStatusInput;
    await add(restore, Date.parse(endIso));
  }
  await rechain(trx, t.companyId, driverId, startIso);
  await reevaluateDriver(trx, t, driverId, Date.parse(startIso), now);
}
