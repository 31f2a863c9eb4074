/**
 * The user summary row: the columns every embedded user (driver, current_driver, a group's owner, a
 * message's sender …) is drawn from, and their batch loader. Its wire form is src/wire/summaries.ts.
 */
import type { Db } from '../../storage/db.js';

export interface UserSummaryRow {
  id: number;
  first_name: string;
  last_name: string;
  username: string | null;
  email: string | null;
  driver_company_id: string | null;
  status: string;
  role: string;
}

export const USER_SUMMARY_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'username',
  'email',
  'driver_company_id',
  'status',
  'role',
] as const;

/** The summary fields of a wider user row. */
export function userSummaryFields(u: UserSummaryRow): UserSummaryRow {
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    username: u.username,
    email: u.email,
    driver_company_id: u.driver_company_id,
    status: u.status,
    role: u.role,
  };
}

/** The summary rows of the company's users among `ids` (nulls and repeats ignored), one query. */
export async function userSummaryRows(
  db: Pick<Db, 'kysely'>,
  companyId: number,
  ids: Array<number | null | undefined>,
): Promise<Map<number, UserSummaryRow>> {
  const wanted = [...new Set(ids.filter((x): x is number => typeof x === 'number'))];
  const out = new Map<number, UserSummaryRow>();
  if (wanted.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('users')
    .select([...USER_SUMMARY_COLUMNS])
    .where('company_id', '=', companyId)
    .where('id', 'in', wanted)
    .execute();
  for (const r of rows) out.set(r.id, r);
  return out;
}

/** The user who uploaded a document, as the document embeds it: a summary with email, role and status. */
export interface UploaderRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  role: string;
  status: string;
  updated_at: string;
}

/** The uploader rows of the company's users among `ids` (nulls and repeats ignored), one query. */
export async function uploaderRows(
  db: Pick<Db, 'kysely'>,
  companyId: number,
  ids: Array<number | null | undefined>,
): Promise<Map<number, UploaderRow>> {
  const wanted = [...new Set(ids.filter((x): x is number => typeof x === 'number'))];
  if (wanted.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email', 'role', 'status', 'updated_at'])
    .where('company_id', '=', companyId)
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((u) => [u.id, u]));
}
