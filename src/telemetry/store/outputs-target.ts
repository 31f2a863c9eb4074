/** What the output writers share: the vehicle they write for, and keeping the last output per key. */
import type { CompiledQuery } from 'kysely';
import type { DbKind } from '../../storage/db.js';

export interface Target {
  companyId: number;
  vehicleId: number;
  announce: boolean;
  /** The database's kind, for the statements prepared once per kind (storage/prepared.ts). */
  kind: DbKind;
  /**
   * Where writes whose answers nobody reads go instead of running, to be sent along with a later
   * statement of the transaction (PostgreSQL, storage/along.ts); run at once when absent.
   */
  defer?: CompiledQuery[];
}

/** Keeps the last output per natural key (a period opened and closed in one run is written once). */
export function lastByKey<T>(items: T[], key: (t: T) => string): T[] {
  const m = new Map<string, T>();
  for (const it of items) {
    const k = key(it);
    m.delete(k);
    m.set(k, it);
  }
  return [...m.values()];
}
