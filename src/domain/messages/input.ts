/**
 * What a client may send to send messages or mark them: the bodies of `POST` and `PUT /v1/messages`
 * (POST also as a form, whose ids the route makes numbers first), and the service inputs derived from them.
 */
import { Type, type Static } from 'typebox';
import { Id } from '../../core/ids.js';

const opt = Type.Optional;
const IdArray = (description: string) => Type.Array(Id(), { minItems: 1, maxItems: 1000, description });

export const SendBody = Type.Object({
  recipient_id: opt(Id('The user who receives the message')),
  recipient_ids: opt(IdArray('Several recipients: one message each (instead of recipient_id)')),
  body: opt(Type.String({ maxLength: 10_000, description: 'The text of the message' })),
});

export const MarkBody = Type.Object({
  ids: IdArray('The messages to mark'),
  read: opt(Type.Boolean({ description: 'true (the default) marks the messages read, false unread' })),
});

export type SendInput = Static<typeof SendBody>;
