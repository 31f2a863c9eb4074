/**
 * What each user chose to receive, per kind: in the console's feed, and by email. A kind the user never
 * saved reads as the defaults: in the console yes, by email no (mail is asked for, never assumed).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { bool, fromBool, nowIso } from '../../storage/values.js';
import { ALERT_KINDS, isAlertKind, type AlertKind } from './kinds.js';

export interface Choice {
  console: boolean;
  email: boolean;
}
export type Preferences = Record<AlertKind, Choice>;

export const DEFAULT_CHOICE: Readonly<Choice> = { console: true, email: false };

const defaults = (): Preferences =>
  Object.fromEntries(ALERT_KINDS.map((k) => [k, { ...DEFAULT_CHOICE }])) as Preferences;

/** The preferences of several users, in one query. */
export async function preferencesOf(db: Kysely<Database>, userIds: number[]): Promise<Map<number, Preferences>> {
  const out = new Map(userIds.map((id) => [id, defaults()]));
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('alert_preferences')
    .select(['user_id', 'kind', 'console', 'email'])
    .where('user_id', 'in', userIds)
    .execute();
  for (const r of rows) {
    const p = out.get(r.user_id);
    if (p && isAlertKind(r.kind)) p[r.kind] = { console: fromBool(r.console), email: fromBool(r.email) };
  }
  return out;
}

/** Stores a user's choice for every kind. */
export async function savePreferences(
  db: Kysely<Database>,
  user: { companyId: number; userId: number },
  prefs: Preferences,
): Promise<void> {
  const now = nowIso();
  const rows = ALERT_KINDS.map((kind) => ({
    user_id: user.userId,
    kind,
    company_id: user.companyId,
    console: bool(prefs[kind].console),
    email: bool(prefs[kind].email),
    updated_at: now,
  }));
  await db
    .insertInto('alert_preferences')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['user_id', 'kind']).doUpdateSet((eb) => ({
        console: eb.ref('excluded.console'),
        email: eb.ref('excluded.email'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}
