/**
 * Messages between the fleet office and its users (docs/reference/wire.md §4.26). A message is sent as an admin
 * (X-User-Id, or the company's first active admin) to one or more users of the company; the recipient,
 * or an integration on its behalf, marks it read (docs/records.md).
 */
import type { Db } from '../../storage/db.js';
import { nowIso } from '../../storage/values.js';
import { badRequest, notFound, validation } from '../../core/errors.js';
import { recordEvent } from '../../events/outbox.js';
import { actingUserId } from '../users/acting.js';
import type { Tenant } from '../tenant.js';
import * as repo from './repository.js';
import { userRefs } from '../users/refs.js';
import type { SendInput } from './input.js';

export type { MessageRow, MessageFilters } from './repository.js';

export function listMessages(db: Db, t: Tenant, f: repo.MessageFilters, limit: number, offset: number) {
  return repo.listMessages(db.kysely, t.companyId, f, limit, offset);
}

function recipientsOf(input: SendInput): { field: string; ids: number[] } {
  if (input.recipient_id !== undefined && input.recipient_ids !== undefined) {
    throw badRequest('send either recipient_id or recipient_ids, not both');
  }
  if (input.recipient_ids !== undefined) return { field: 'recipient_ids', ids: [...new Set(input.recipient_ids)] };
  if (input.recipient_id === undefined) throw validation('recipient_id', 'is required');
  return { field: 'recipient_id', ids: [input.recipient_id] };
}

/** Sends one message per recipient; every recipient must be an active user of the company, or nothing is sent. */
export async function sendMessage(
  db: Db,
  t: Tenant & { actingUserId?: number | null },
  input: SendInput,
): Promise<number[]> {
  const { field, ids } = recipientsOf(input);
  if (input.body === undefined) throw validation('body', 'is required');
  const body = input.body.trim();
  if (body === '') throw validation('body', 'must not be empty');
  const users = await userRefs(db.kysely, t.companyId, ids);
  const found = new Map(users.map((u) => [u.id, u]));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(`recipient ${missing}`);
  const inactive = ids.find((id) => found.get(id)!.status !== 'active');
  if (inactive !== undefined) throw validation(field, `names user ${inactive}, who is deactivated`);
  const sender = await actingUserId(db, t);
  const now = nowIso();
  return db.kysely.transaction().execute(async (trx) => {
    const out: number[] = [];
    for (const recipient of ids) {
      const values = {
        company_id: t.companyId,
        sender_id: sender,
        recipient_id: recipient,
        body,
        sent_at: now,
        read_at: null,
        created_at: now,
        updated_at: now,
      };
      const id = await repo.insertMessage(trx, values);
      await recordEvent(trx, {
        companyId: t.companyId,
        action: 'message_created',
        subject: { type: 'message', id },
        data: { id, ...values },
      });
      out.push(id);
    }
    return out;
  });
}

/** Marks messages read (keeping the first read time) or unread; every id must be one of the company's. */
export async function markMessages(db: Db, t: Tenant, ids: number[], read: boolean): Promise<void> {
  const wanted = [...new Set(ids)];
  const rows = await repo.findMessages(db.kysely, t.companyId, wanted);
  const known = new Set(rows.map((r) => r.id));
  const missing = wanted.find((id) => !known.has(id));
  if (missing !== undefined) throw notFound(`message ${missing}`);
  const now = nowIso();
  await db.kysely.transaction().execute(async (trx) => {
    await repo.setReadAt(trx, t.companyId, wanted, read ? now : null, now);
    for (const row of await repo.findMessages(trx, t.companyId, wanted)) {
      await recordEvent(trx, {
        companyId: t.companyId,
        action: 'message_updated',
        subject: { type: 'message', id: row.id },
        data: row,
      });
    }
  });
}
