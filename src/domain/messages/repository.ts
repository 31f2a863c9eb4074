/** Tenant-scoped queries on messages. */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { countOf } from '../../storage/query.js';
import { toIso } from '../../storage/values.js';
import type { MessagesTable } from './tables.js';

export type MessageRow = Selectable<MessagesTable>;

export interface MessageFilters {
  /** Messages sent to or by any of these users. */
  driver_ids?: number[];
  sender_ids?: number[];
  recipient_ids?: number[];
  status?: 'all' | 'read' | 'unread';
  window?: { start: Date; end: Date };
}

function filtered(db: Kysely<Database>, companyId: number, f: MessageFilters) {
  let q = db.selectFrom('messages').where('company_id', '=', companyId);
  if (f.driver_ids?.length) {
    const ids = f.driver_ids;
    q = q.where((eb) => eb.or([eb('sender_id', 'in', ids), eb('recipient_id', 'in', ids)]));
  }
  if (f.sender_ids?.length) q = q.where('sender_id', 'in', f.sender_ids);
  if (f.recipient_ids?.length) q = q.where('recipient_id', 'in', f.recipient_ids);
  if (f.status === 'read') q = q.where('read_at', 'is not', null);
  if (f.status === 'unread') q = q.where('read_at', 'is', null);
  if (f.window) q = q.where('sent_at', '>=', toIso(f.window.start)).where('sent_at', '<', toIso(f.window.end));
  return q;
}

export async function listMessages(
  db: Kysely<Database>,
  companyId: number,
  f: MessageFilters,
  limit: number,
  offset: number,
) {
  const base = filtered(db, companyId, f);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    countOf(base.select('id')),
  ]);
  return { rows, total };
}

export function findMessages(db: Kysely<Database>, companyId: number, ids: number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('messages')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
}

export async function insertMessage(db: Kysely<Database>, values: Insertable<MessagesTable>): Promise<number> {
  return (await db.insertInto('messages').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function setReadAt(
  db: Kysely<Database>,
  companyId: number,
  ids: number[],
  readAt: string | null,
  now: string,
) {
  let q = db
    .updateTable('messages')
    .set({ read_at: readAt, updated_at: now })
    .where('company_id', '=', companyId)
    .where('id', 'in', ids);
  // Marking read keeps the first read time of a message that was already read.
  if (readAt !== null) q = q.where('read_at', 'is', null);
  else q = q.where('read_at', 'is not', null);
  await q.execute();
}
