/** The message object (docs/reference/wire.md §4.26; the shape of GET is ours, docs/records.md). */
import { Type } from 'typebox';
import type { Db } from '../storage/db.js';
import { wireTime } from '../storage/values.js';
import type { MessageRow } from '../domain/messages/service.js';
import { DateTime, NDateTime, Nullable } from './types.js';
import { UserSummary } from './summaries.js';
import { loadEmbeds } from './embeds.js';

export const Message = Type.Object({
  id: Type.Integer(),
  body: Type.String(),
  sender: Nullable(UserSummary),
  recipient: Nullable(UserSummary),
  sent_at: DateTime('When the message was sent'),
  read_at: NDateTime(),
});

export async function messagesWire(db: Db, companyId: number, rows: MessageRow[]) {
  const s = await loadEmbeds(db, companyId, { users: rows.flatMap((m) => [m.sender_id, m.recipient_id]) });
  return rows.map((m) => ({
    id: m.id,
    body: m.body,
    sender: s.user(m.sender_id),
    recipient: s.user(m.recipient_id),
    sent_at: wireTime(m.sent_at)!,
    read_at: wireTime(m.read_at),
  }));
}
