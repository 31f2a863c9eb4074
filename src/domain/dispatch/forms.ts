/**
 * Forms (templates a driver fills in at a stop, with external ids) and form entries (what the driver
 * submitted). Entries come from drivers' devices; `recordFormEntry` is the one path that creates them.
 *
 * auto_complete_forms: when a dispatch has it and is active, an entry for one of its stops departs that
 * stop as soon as every form attached to the stop (its form_ids) has an entry for it (a stop with no
 * forms departs on its first entry). The consignee stop departing completes the dispatch. Without the
 * flag, entries are recorded and change nothing else.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { countOf } from '../../storage/query.js';
import { fromBool, fromJson, json, nowIso, toIso } from '../../storage/values.js';
import { validation } from '../../core/errors.js';
import { recordEvent } from '../../events/outbox.js';
import type { Tenant } from '../tenant.js';
import type { FormEntriesTable, FormsTable } from './tables.js';
import { checkDriver, checkVehicle } from './references.js';
import * as repo from './repository.js';
import { moveStop } from './service.js';

export type FormRow = Selectable<FormsTable>;
export type FormEntryRow = Selectable<FormEntriesTable>;

export interface FormField {
  name: string;
  label: string;
  type: string;
  required: boolean;
  /** 1-based order in the form (default: the field's place in the list). */
  position?: number;
  /** Most characters an answer may have (null: no limit). */
  length?: number | null;
  default_value?: string | null;
}

export interface ExternalId {
  external_id: string;
  integration_name: string;
}

export interface FormInput {
  /** The UUID (the wire's form_id). */
  id?: string;
  name: string;
  /** What drivers see (default: the name). */
  title?: string;
  available_for_driver?: boolean;
  version?: number;
  external_ids?: ExternalId[];
  fields?: FormField[];
}

export async function createForm(db: Db, t: Tenant, input: FormInput): Promise<FormRow> {
  if (!input.name?.trim()) throw validation('name', 'is required');
  const now = nowIso();
  const id = input.id ?? randomUUID();
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto('forms')
      .values({
        id,
        // PostgreSQL numbers forms with its sequence; SQLite has one writer at a time.
        ...(db.kind === 'sqlite' ? { seq: sql<number>`(select coalesce(max(seq), 0) + 1 from forms)` } : {}),
        company_id: t.companyId,
        name: input.name.trim(),
        title: input.title?.trim() || null,
        available_for_driver: input.available_for_driver ? 1 : 0,
        version: input.version ?? 1,
        external_ids: json(input.external_ids ?? []),
        fields: json(input.fields ?? []),
        created_at: now,
        updated_at: now,
      })
      .execute();
    const saved = await trx.selectFrom('forms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const data = { ...saved, external_ids: input.external_ids ?? [], fields: input.fields ?? [] };
    await recordEvent(trx, {
      companyId: t.companyId,
      action: 'form_upserted',
      trigger: 'created',
      subject: { type: 'form', id },
      data,
    });
  });
  return db.kysely.selectFrom('forms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function listForms(db: Db, t: Tenant, limit: number, offset: number) {
  const base = db.kysely.selectFrom('forms').where('company_id', '=', t.companyId);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

/**
 * The company's form a reference names: its UUID (`form_id`) or its integer id (a number, or a string
 * of digits, as a device record may send it).
 */
export async function findForm(
  db: Kysely<Database>,
  companyId: number,
  ref: string | number,
): Promise<FormRow | undefined> {
  const q = db.selectFrom('forms').selectAll().where('company_id', '=', companyId);
  const digits = typeof ref === 'number' || /^\d{1,9}$/.test(ref);
  return (digits ? q.where('seq', '=', Number(ref)) : q.where('id', '=', ref)).executeTakeFirst();
}

export interface FormEntryFilters {
  dispatch_ids?: number[];
  driver_ids?: number[];
  vehicle_ids?: number[];
  /** Half-open window on submitted_at. */
  window?: { start: Date; end: Date };
}

/** An entry as listed: with its form's integer id and its stop's trip (v1's form_id, dispatch_trip_id). */
export type ListedFormEntry = FormEntryRow & { form_seq: number; dispatch_trip_id: number | null };

export async function listFormEntries(db: Db, t: Tenant, f: FormEntryFilters, limit: number, offset: number) {
  let base = db.kysely.selectFrom('form_entries as e').where('e.company_id', '=', t.companyId);
  if (f.dispatch_ids?.length) base = base.where('e.dispatch_id', 'in', f.dispatch_ids);
  if (f.driver_ids?.length) base = base.where('e.driver_id', 'in', f.driver_ids);
  if (f.vehicle_ids?.length) base = base.where('e.vehicle_id', 'in', f.vehicle_ids);
  if (f.window)
    base = base.where('e.submitted_at', '>=', toIso(f.window.start)).where('e.submitted_at', '<', toIso(f.window.end));
  const [rows, total] = await Promise.all([
    base
      .innerJoin('forms as f', 'f.id', 'e.form_id')
      .leftJoin('dispatch_stops as s', 's.id', 'e.dispatch_stop_id')
      .selectAll('e')
      .select(['f.seq as form_seq', 's.trip_id as dispatch_trip_id'])
      .orderBy('e.id')
      .limit(limit)
      .offset(offset)
      .execute(),
    countOf(base.select('e.id')),
  ]);
  return { rows: rows as ListedFormEntry[], total };
}

export interface FormEntryInput {
  /** The form, by its UUID or its integer id. */
  form_id: string | number;
  driver_id: number;
  vehicle_id?: number | null;
  /** The dispatch, by id or by vendor_id. */
  dispatch_id?: number;
  vendor_dispatch_id?: string;
  vendor_stop_id?: string;
  entry: Record<string, unknown>;
  submitted_at?: string;
}

async function lockedDispatch(trx: Kysely<Database>, db: Db, t: Tenant, input: FormEntryInput) {
  if (input.dispatch_id !== undefined) {
    const row = await repo.findById(trx, db.kind, t.companyId, input.dispatch_id, true);
    if (!row) throw validation('dispatch_id', `names no dispatch of this company (${input.dispatch_id})`);
    return row;
  }
  if (input.vendor_dispatch_id !== undefined) {
    const row = await repo.findByVendorId(trx, db.kind, t.companyId, input.vendor_dispatch_id, true);
    if (!row)
      throw validation('vendor_dispatch_id', `names no dispatch of this company ("${input.vendor_dispatch_id}")`);
    return row;
  }
  if (input.vendor_stop_id !== undefined) throw validation('vendor_stop_id', 'needs dispatch_id or vendor_dispatch_id');
  return undefined;
}

/**
 * A driver's entry of a form submitted at an instant with the same answers, if one exists: what a
 * device re-sending the entry after a crash (the entry created, the answer lost) finds instead of
 * creating it twice.
 */
export async function findFormEntry(
  db: Db,
  t: Tenant,
  key: { form_id: string | number; driver_id: number; submitted_at: string; entry: Record<string, unknown> },
): Promise<{ id: number } | undefined> {
  const form = await findForm(db.kysely, t.companyId, key.form_id);
  if (!form) return undefined;
  const rows = await db.kysely
    .selectFrom('form_entries')
    .select(['id', 'entry'])
    .where('company_id', '=', t.companyId)
    .where('form_id', '=', form.id)
    .where('driver_id', '=', key.driver_id)
    .where('submitted_at', '=', toIso(new Date(key.submitted_at)))
    .execute();
  // The same answers too: another entry of the same form by the same driver in the same instant is another entry.
  return rows.find((r) => isDeepStrictEqual(fromJson(r.entry, null), key.entry));
}

/**
 * Records a driver's form entry and, under auto_complete_forms, departs the stop it completes. With
 * `joined` (the caller's transaction: a device record is stored with the entry it creates), everything
 * happens there and is rolled back with it; otherwise in a transaction of its own.
 */
export async function recordFormEntry(
  db: Db,
  t: Tenant,
  input: FormEntryInput,
  joined?: Kysely<Database>,
): Promise<FormEntryRow> {
  const write = async (trx: Kysely<Database>) => {
    const form = await findForm(trx, t.companyId, input.form_id);
    if (!form) throw validation('form_id', `names no form of this company (${JSON.stringify(input.form_id)})`);
    for (const f of fromJson<FormField[]>(form.fields, [])) {
      if (f.required && (input.entry[f.name] === undefined || input.entry[f.name] === null)) {
        throw validation(`entry.${f.name}`, `is required by form "${form.name}"`);
      }
    }
    await checkDriver(trx, t.companyId, input.driver_id);
    if (input.vehicle_id) await checkVehicle(trx, t.companyId, input.vehicle_id);
    const dispatch = await lockedDispatch(trx, db, t, input);
    const view = dispatch ? (await repo.viewsOf(trx, [dispatch]))[0] : undefined;
    const stop =
      input.vendor_stop_id === undefined ? undefined : view?.stops.find((s) => s.vendor_id === input.vendor_stop_id);
    if (input.vendor_stop_id !== undefined && !stop) {
      throw validation('vendor_stop_id', `names no stop of the dispatch ("${input.vendor_stop_id}")`);
    }
    const now = nowIso();
    const { id } = await trx
      .insertInto('form_entries')
      .values({
        company_id: t.companyId,
        form_id: form.id,
        form_version: form.version,
        dispatch_id: dispatch?.id ?? null,
        dispatch_stop_id: stop?.id ?? null,
        vendor_dispatch_id: dispatch?.vendor_id ?? null,
        vendor_stop_id: stop?.vendor_id ?? null,
        driver_id: input.driver_id,
        vehicle_id: input.vehicle_id ?? dispatch?.vehicle_id ?? null,
        entry: json(input.entry),
        submitted_at: input.submitted_at ? toIso(new Date(input.submitted_at)) : now,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const saved = await trx.selectFrom('form_entries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await recordEvent(trx, {
      companyId: t.companyId,
      action: 'form_entry_created',
      subject: { type: 'form_entry', id },
      data: { ...saved, entry: input.entry },
    });
    if (
      dispatch &&
      view &&
      stop &&
      fromBool(dispatch.auto_complete_forms) &&
      view.status === 'active' &&
      stop.status !== 'departed'
    ) {
      const done = await trx
        .selectFrom('form_entries')
        .select('form_id')
        .distinct()
        .where('dispatch_stop_id', '=', stop.id!)
        .execute();
      const submitted = new Set(done.map((r) => r.form_id));
      if (stop.form_ids.every((f) => submitted.has(f)))
        await moveStop(trx, t, dispatch, view.stops, stop.vendor_id, 'departed');
    }
    return id;
  };
  const id = await (joined ? write(joined) : db.kysely.transaction().execute(write));
  return (joined ?? db.kysely).selectFrom('form_entries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
