/**
 * A user's alert feed, for the console: their entries newest first, how many are unread, marking read,
 * and the state the live stream watches. Always one user's own entries (alert_recipients), which were
 * decided when each alert was made (audience.ts), so nobody reads another user's feed.
 */
import type { Db } from '../../storage/db.js';
import { fromJson, nowIso } from '../../storage/values.js';
import { isAlertKind, KIND_LABELS, type AlertFacts, type AlertKind } from './kinds.js';
import { companyText } from './store.js';
import { alertText, zonedStamp } from './text.js';

export interface FeedUser {
  companyId: number;
  userId: number;
}

export interface FeedItem {
  id: number;
  kind: AlertKind;
  kind_label: string;
  title: string;
  detail: string;
  occurred_at: string;
  /** occurred_at in the company's zone, the zone named. */
  when: string;
  read: boolean;
}

export const FEED_PAGE_SIZE = 50;

function entries(db: Db, u: FeedUser, unreadOnly: boolean) {
  let q = db.kysely
    .selectFrom('alert_recipients as r')
    .innerJoin('alerts as a', 'a.id', 'r.alert_id')
    .where('r.user_id', '=', u.userId)
    .where('r.company_id', '=', u.companyId);
  if (unreadOnly) q = q.where('r.read_at', 'is', null);
  return q;
}

/** A page of the user's feed (newest first), or the entries newer than `afterId` (the live view). */
export async function feedPage(
  db: Db,
  u: FeedUser,
  o: { page?: number; unreadOnly?: boolean; afterId?: number } = {},
): Promise<{ items: FeedItem[]; total: number; unread: number }> {
  const base = entries(db, u, o.unreadOnly ?? false);
  let rows = base
    .select(['a.id', 'a.kind', 'a.occurred_at', 'a.facts', 'r.read_at'])
    .orderBy('a.id', 'desc')
    .limit(FEED_PAGE_SIZE);
  if (o.afterId !== undefined) rows = rows.where('a.id', '>', o.afterId);
  else rows = rows.offset(((o.page ?? 1) - 1) * FEED_PAGE_SIZE);
  const [list, total, unread, company] = await Promise.all([
    rows.execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    unreadCount(db, u.userId),
    companyText(db.kysely, u.companyId),
  ]);
  const items = list
    .filter((r) => isAlertKind(r.kind))
    .map((r) => {
      const kind = r.kind as AlertKind;
      const facts = fromJson<AlertFacts>(r.facts, {});
      const text = alertText({ kind, occurredAt: r.occurred_at, facts }, company);
      return {
        id: r.id,
        kind,
        kind_label: KIND_LABELS[kind],
        ...text,
        occurred_at: r.occurred_at,
        when: zonedStamp(r.occurred_at, company.zone),
        read: r.read_at !== null,
      };
    });
  return { items, total: Number(total.n), unread };
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const row = await db.kysely
    .selectFrom('alert_recipients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What the live stream sends when it changes: the unread count and the newest entry's id. */
export async function feedState(db: Db, userId: number): Promise<{ unread: number; latest: number }> {
  const [unread, latest] = await Promise.all([
    unreadCount(db, userId),
    db.kysely
      .selectFrom('alert_recipients')
      .select((eb) => eb.fn.max('alert_id').as('id'))
      .where('user_id', '=', userId)
      .executeTakeFirst(),
  ]);
  return { unread, latest: Number(latest?.id ?? 0) };
}

/** Marks the user's entries read: these ids, or every one. Returns how many changed. */
export async function markRead(db: Db, u: FeedUser, ids: number[] | 'all'): Promise<number> {
  if (ids !== 'all' && ids.length === 0) return 0;
  let q = db.kysely
    .updateTable('alert_recipients')
    .set({ read_at: nowIso() })
    .where('user_id', '=', u.userId)
    .where('company_id', '=', u.companyId)
    .where('read_at', 'is', null);
  if (ids !== 'all') q = q.where('alert_id', 'in', ids);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}
