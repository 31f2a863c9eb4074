/** Kysely table types of the users area besides `users` itself (src/storage/schema.ts). */
import type { Generated } from 'kysely';

/** A one-time link to choose a password (migration 0028_password_links; ./password-links.ts). */
export interface PasswordLinksTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  /** SHA-256 of the link's token; the token itself is shown once, in the link. */
  token_digest: string;
  /** `invite` (the user had no password) or `reset` (their password was cleared). */
  purpose: string;
  /** The user who made the link; null when made outside a signed-in session. */
  created_by: number | null;
  created_at: string;
  expires_at: string;
}

export interface UserTables {
  password_links: PasswordLinksTable;
}
