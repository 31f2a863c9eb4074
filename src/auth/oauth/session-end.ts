/** Ending every web session of one subject (./sessions.ts owns the table), e.g. after a password reset. */
import type { Db } from '../../storage/db.js';
import type { SessionKind } from './sessions.js';

export async function endSessionsOf(db: Pick<Db, 'kysely'>, kind: SessionKind, subjectId: number): Promise<number> {
  const res = await db.kysely
    .deleteFrom('web_sessions')
    .where('kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
