/** Kysely table types of messages (migration 0004_records). Timestamps are ISO text (storage/values.ts). */
import type { Generated } from 'kysely';

export interface MessagesTable {
  id: Generated<number>;
  company_id: number;
  /** The admin the message was sent as (X-User-Id or the acting admin); null when the company had none. */
  sender_id: number | null;
  recipient_id: number;
  body: string;
  sent_at: string;
  /** When the recipient (or an integration through PUT /v1/messages) marked it read; null while unread. */
  read_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MessageTables {
  messages: MessagesTable;
}
