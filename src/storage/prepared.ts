/**
 * Statements whose shape never changes, built and compiled once per dialect and then run with new
 * values. Building a Kysely query (immutable builders, frozen nodes) and compiling it costs more than
 * SQLite takes to run a small statement: on one-record device batches it was about a fifth of the
 * server's CPU (docs/telemetry.md, Performance). The statement text is also the same string every
 * time, which the SQLite statement cache (storage/db.ts) looks up by.
 *
 * `build` gets one placeholder per argument after the database and its kind (its parameter count is the
 * statement's arity) and uses each as a plain value (in a comparison, a
 * `values` row or a `set`), never in a list and never in a way that changes the statement's shape:
 * undefined values are dropped by Kysely, so an argument that may be missing is passed as null. The
 * compiled parameters that are placeholders are replaced by the call's arguments, in order of
 * appearance; every other parameter stays as built.
 */
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { Database } from './schema.js';
import type { DbKind } from './db.js';

class Placeholder {
  constructor(readonly index: number) {}
}

interface Compiled {
  sql: string;
  /** Per compiled parameter: the index of the argument it takes, or -1 for a value fixed at build time. */
  slots: number[];
  fixed: readonly unknown[];
}

export interface Prepared<A extends unknown[], R> {
  (trx: Kysely<Database>, kind: DbKind, ...args: A): Promise<QueryResult<R>>;
  /** The statement with the call's arguments, not run (to be sent together with another: ./along.ts). */
  compiled(trx: Kysely<Database>, kind: DbKind, ...args: A): CompiledQuery<R>;
}

export function prepared<A extends unknown[], R>(
  build: (db: Kysely<Database>, kind: DbKind, ...args: A) => Compilable<R>,
): Prepared<A, R> {
  const arity = build.length - 2;
  const byKind = new Map<DbKind, Compiled>();
  const compile = (trx: Kysely<Database>, kind: DbKind): Compiled => {
    const holders = Array.from({ length: arity }, (_, i) => new Placeholder(i));
    const q = build(trx, kind, ...(holders as unknown as A)).compile();
    const slots = q.parameters.map((p) => (p instanceof Placeholder ? p.index : -1));
    for (let i = 0; i < arity; i++)
      if (!slots.includes(i)) throw new Error(`prepared statement does not use its argument ${i}: ${q.sql}`);
    return { sql: q.sql, slots, fixed: q.parameters };
  };
  const compiled = (trx: Kysely<Database>, kind: DbKind, ...args: A): CompiledQuery<R> => {
    let c = byKind.get(kind);
    if (!c) byKind.set(kind, (c = compile(trx, kind)));
    const params = new Array<unknown>(c.slots.length);
    for (let i = 0; i < params.length; i++) params[i] = c.slots[i] === -1 ? c.fixed[i] : args[c.slots[i]];
    return CompiledQuery.raw(c.sql, params) as CompiledQuery<R>;
  };
  const run = async (trx: Kysely<Database>, kind: DbKind, ...args: A) =>
    trx.executeQuery<R>(compiled(trx, kind, ...args));
  return Object.assign(run, { compiled });
}
