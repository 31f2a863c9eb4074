/**
 * Making alerts, in the transaction that marks their events done (src/events/alerts/generate.ts): one
 * alert per event, a feed entry for each manager who may see it and chose that kind in the console, an
 * email in the queue for each who chose email (when the server sends email), and the company's feed
 * trimmed to its newest `keep` alerts.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { fromBool, fromJson, json, nowIso } from '../../storage/values.js';
import type { Db } from '../../storage/db.js';
import { companyTimeZone, getCompany } from '../companies/service.js';
import { findGeofence } from '../geofences/repository.js';
import { companyAudience, maySee, subjectGroups } from './audience.js';
import type { AlertDraft, AlertFacts } from './kinds.js';
import { alertEmail } from './text.js';

export interface NewAlert {
  eventId: number;
  draft: AlertDraft;
}

export interface MakeOptions {
  /** Alerts kept per company (ALERT_FEED_MAX). */
  keep: number;
  /** Queue emails (SMTP_URL is set), with links to this origin. */
  email: { publicUrl: string } | null;
}

const ROWS_PER_INSERT = 100;

async function insertMany<T extends keyof Database & string>(
  trx: Kysely<Database>,
  table: T,
  rows: Array<Record<string, unknown>>,
) {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + ROWS_PER_INSERT) as never)
      .execute();
  }
}

/** Geofence names, read when the alert is made (the event names only the geofence's id). */
async function nameGeofences(trx: Kysely<Database>, companyId: number, drafts: AlertDraft[]) {
  const ids = [...new Set(drafts.map((d) => d.facts.geofence_id).filter((x): x is number => typeof x === 'number'))];
  const names = new Map<number, string>();
  for (const id of ids) {
    const g = await findGeofence(trx, companyId, id);
    if (g) names.set(id, g.name);
  }
  for (const d of drafts) {
    if (typeof d.facts.geofence_id === 'number') d.facts.geofence = names.get(d.facts.geofence_id) ?? null;
  }
}

/** Makes the alerts of one company's events; returns how many alerts and emails. */
export async function makeAlerts(
  trx: Kysely<Database>,
  companyId: number,
  items: NewAlert[],
  o: MakeOptions,
): Promise<{ alerts: number; emails: number }> {
  if (items.length === 0) return { alerts: 0, emails: 0 };
  const drafts = items.map((i) => i.draft);
  await nameGeofences(trx, companyId, drafts);
  const [audience, groupsOf] = await Promise.all([companyAudience(trx, companyId), subjectGroups(trx, drafts)]);
  const now = nowIso();
  let emails = 0;
  let company: { name: string; metric: boolean; zone: string } | null = null;
  for (const { eventId, draft } of items) {
    const groups = groupsOf(draft);
    const told = audience.filter((m) => maySee(m, groups));
    const inFeed = told.filter((m) => m.prefs[draft.kind].console);
    const byEmail = o.email ? told.filter((m) => m.prefs[draft.kind].email && m.email) : [];
    const { id } = await trx
      .insertInto('alerts')
      .values({
        company_id: companyId,
        event_id: eventId,
        kind: draft.kind,
        subject: draft.subject,
        vehicle_id: draft.vehicleId,
        driver_id: draft.driverId,
        occurred_at: draft.occurredAt,
        facts: json(draft.facts),
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertMany(
      trx,
      'alert_recipients',
      inFeed.map((m) => ({ user_id: m.id, alert_id: id, company_id: companyId, read_at: null })),
    );
    if (byEmail.length === 0 || !o.email) continue;
    company ??= await companyText(trx, companyId);
    const mail = alertEmail(
      { kind: draft.kind, occurredAt: draft.occurredAt, facts: draft.facts },
      { metric: company.metric, zone: company.zone, companyName: company.name, publicUrl: o.email.publicUrl },
    );
    await insertMany(
      trx,
      'alert_emails',
      byEmail.map((m) => ({
        company_id: companyId,
        alert_id: id,
        user_id: m.id,
        to_address: m.email,
        subject: mail.subject,
        body: mail.body,
        state: 'pending',
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })),
    );
    emails += byEmail.length;
  }
  await trimFeed(trx, companyId, o.keep);
  return { alerts: items.length, emails };
}

/**
 * A withdrawn violation: its alert says so and leaves everyone's unread count (nothing is left to act
 * on); an email already queued still goes.
 */
export async function withdrawAlert(trx: Kysely<Database>, companyId: number, subject: string): Promise<void> {
  const alert = await trx
    .selectFrom('alerts')
    .select(['id', 'facts'])
    .where('company_id', '=', companyId)
    .where('subject', '=', subject)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!alert) return;
  const facts = { ...fromJson<AlertFacts>(alert.facts, {}), withdrawn: true };
  await trx
    .updateTable('alerts')
    .set({ facts: json(facts) })
    .where('id', '=', alert.id)
    .execute();
  await trx
    .updateTable('alert_recipients')
    .set({ read_at: nowIso() })
    .where('alert_id', '=', alert.id)
    .where('read_at', 'is', null)
    .execute();
}

/** The company's name, units and zone, as its alerts are written. */
export async function companyText(trx: Kysely<Database>, companyId: number) {
  const on = { kysely: trx } as Db;
  const [row, tz] = await Promise.all([getCompany(on, companyId), companyTimeZone(on, companyId)]);
  return { name: row.name, metric: fromBool(row.metric_units), zone: tz?.zone ?? 'UTC' };
}

/** Deletes the company's alerts older than its newest `keep` (their feed entries go with them). */
async function trimFeed(trx: Kysely<Database>, companyId: number, keep: number) {
  const edge = await trx
    .selectFrom('alerts')
    .select('id')
    .where('company_id', '=', companyId)
    .orderBy('id', 'desc')
    .limit(1)
    .offset(keep)
    .executeTakeFirst();
  if (!edge) return;
  await trx.deleteFrom('alerts').where('company_id', '=', companyId).where('id', '<=', edge.id).execute();
}
