/**
 * Stored violations follow the engine's: a violation that appears is inserted, one whose end changed
 * (it closed, or was extended) is updated, and one that disappeared (a later rest completed a split
 * pair, an edit) is marked withdrawn. Each change is announced as `hos_violation_upserted` in the same
 * transaction (trigger `created` or `updated`; a withdrawal carries `"withdrawn": true`).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { nowIso, toIso, wireTime } from '../../storage/values.js';
import { recordEvent } from '../../events/outbox.js';
import type { Tenant } from '../tenant.js';
import type { Violation } from './engine/types.js';
import { payloadDriver, type HosDriver } from './drivers.js';

type Trx = Kysely<Database>;

interface StoredViolation {
  id: number;
  type: string;
  name: string;
  start_at: string;
  end_at: string | null;
}

export function violationPayload(v: StoredViolation, driver: HosDriver, withdrawn = false) {
  return {
    id: v.id,
    type: v.type,
    name: v.name,
    start_time: wireTime(v.start_at),
    end_time: wireTime(v.end_at),
    driver: payloadDriver(driver),
    ...(withdrawn ? { withdrawn: true } : {}),
  };
}

/** Makes the stored violations starting at or after `from` match `computed`. */
export async function syncViolations(
  trx: Trx,
  t: Tenant,
  driver: HosDriver,
  computed: Violation[],
  from: number,
): Promise<void> {
  const fromIso = toIso(from);
  const stored = await trx
    .selectFrom('hos_violations')
    .select(['id', 'type', 'name', 'start_at', 'end_at'])
    .where('company_id', '=', t.companyId)
    .where('driver_id', '=', driver.id)
    .where('withdrawn_at', 'is', null)
    .where('start_at', '>=', fromIso)
    .execute();
  const byKey = new Map(stored.map((s) => [`${s.type}|${s.start_at}`, s]));
  const now = nowIso();
  const announce = (v: StoredViolation, trigger: 'created' | 'updated', withdrawn = false) =>
    recordEvent(trx, {
      companyId: t.companyId,
      action: 'hos_violation_upserted',
      trigger,
      subject: { type: 'hos_violation', id: v.id },
      data: violationPayload(v, driver, withdrawn),
    });
  for (const v of computed) {
    if (v.start < from) continue;
    const start = toIso(v.start);
    const end = v.end === null ? null : toIso(v.end);
    const key = `${v.type}|${start}`;
    const existing = byKey.get(key);
    byKey.delete(key);
    if (existing) {
      if (existing.end_at === end) continue;
      await trx
        .updateTable('hos_violations')
        .set({ end_at: end, updated_at: now })
        .where('id', '=', existing.id)
        .execute();
      await announce({ ...existing, end_at: end }, 'updated');
      continue;
    }
    const row = {
      company_id: t.companyId,
      driver_id: driver.id,
      type: v.type,
      name: v.name,
      start_at: start,
      end_at: end,
      withdrawn_at: null,
      created_at: now,
      updated_at: now,
    };
    const { id } = await trx.insertInto('hos_violations').values(row).returning('id').executeTakeFirstOrThrow();
    await announce({ id, ...row }, 'created');
  }
  for (const gone of byKey.values()) {
    await trx
      .updateTable('hos_violations')
      .set({ withdrawn_at: now, updated_at: now })
      .where('id', '=', gone.id)
      .execute();
    await announce(gone, 'updated', true);
  }
}
