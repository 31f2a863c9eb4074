/** The message object (docs/reference/wire.md §4.26; the shape of GET is ours, docs/records.md). */
import { Type } from 'typebox';
import { wireTime } from '../storage/values.js';
import type { MessageRow } from '../domain/messages/service.js';
import { DateTime, NDateTime } from './types.js';
import { UserSummary } from './summaries.js';
import type { Embeds } from './embeds.js';
import { Nullable } from '../core/schema.js';

export const Message = Type.Object({
  id: Type.Integer(),
  body: Type.String(),
  sender: Nullable(UserSummary),
  recipient: Nullable(UserSummary),
  sent_at: DateTime('When the message was sent'),
  read_at: NDateTime(),
});

/** The users a message embeds (loaded for a page by ./pages.ts). */
export const messageEmbeds = (m: MessageRow) => [m.sender_id, m.recipient_id];

export function messageWire(m: MessageRow, s: Embeds) {
  return {
    id: m.id,
    body: m.body,
    sender: s.user(m.sender_id),
    recipient: s.user(m.recipient_id),
    sent_at: wireTime(m.sent_at)!,
    read_at: wireTime(m.read_at),
  };
}
