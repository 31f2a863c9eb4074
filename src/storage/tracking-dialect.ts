/**
 * A Kysely dialect wrapper that shows every statement to the ChangeTracker after it ran. Writes bump
 * their tables at once and again when the transaction that made them ends, so that a read which
 * began between the write and the commit (and so saw the old rows) cannot leave a fresh-looking cache
 * entry behind.
 *
 * It also tells query observers (src/ops metrics, the slow-request log) each statement's duration or
 * error, in the shape of Kysely's `log` events; with no observer that costs nothing. (Kysely's own `log`
 * option would wrap every query in several async calls whether anyone listens or not.) Streamed
 * queries are not timed (nothing here streams).
 */
import type {
  CompiledQuery,
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  LogEvent,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import type { ChangeTracker } from './changes.js';

export type QueryObserver = (e: LogEvent) => void;

class TrackedConnection implements DatabaseConnection {
  /** Tables written in the open transaction (bumped again at its end), or null outside one. */
  private pending: Set<string> | null = null;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly tracker: ChangeTracker,
    private readonly observers: ReadonlySet<QueryObserver>,
  ) {}

  begin(): void {
    this.pending = new Set();
  }

  end(): void {
    const tables = this.pending;
    this.pending = null;
    if (tables) for (const t of tables) this.tracker.bump(t);
  }

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const started = this.observers.size > 0 ? performance.now() : 0;
    try {
      const result = await this.inner.executeQuery<R>(q);
      if (started) this.notify({ level: 'query', query: q, queryDurationMillis: performance.now() - started });
      return result;
    } catch (error) {
      if (started) this.notify({ level: 'error', error, query: q, queryDurationMillis: performance.now() - started });
      throw error;
    } finally {
      // Even a failed statement may have changed something (e.g. the end of a failed COMMIT).
      const k = this.tracker.observe(q.sql);
      if (k.kind === 'begin') this.begin();
      else if (k.kind === 'end') this.end();
      else if (k.kind === 'write' && this.pending) for (const t of k.tables) this.pending.add(t);
    }
  }

  private notify(e: LogEvent): void {
    for (const fn of this.observers) fn(e);
  }

  streamQuery<R>(q: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.tracker.observe(q.sql);
    return this.inner.streamQuery<R>(q, chunkSize);
  }
}

class TrackingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly tracker: ChangeTracker,
    private readonly observers: ReadonlySet<QueryObserver>,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new TrackedConnection(await this.inner.acquireConnection(), this.tracker, this.observers);
  }

  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.inner.beginTransaction((c as TrackedConnection).inner, settings);
    (c as TrackedConnection).begin();
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    try {
      await this.inner.commitTransaction((c as TrackedConnection).inner);
    } finally {
      (c as TrackedConnection).end();
    }
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction((c as TrackedConnection).inner);
    } finally {
      (c as TrackedConnection).end();
    }
  }

  async savepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.((c as TrackedConnection).inner, name, compile);
  }

  async rollbackToSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.rollbackToSavepoint?.((c as TrackedConnection).inner, name, compile);
  }

  async releaseSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.((c as TrackedConnection).inner, name, compile);
  }

  releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((c as TrackedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

export class TrackingDialect implements Dialect {
  constructor(
    private readonly inner: Dialect,
    private readonly tracker: ChangeTracker,
    private readonly observers: ReadonlySet<QueryObserver> = new Set(),
  ) {}

  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }

  createDriver(): Driver {
    return new TrackingDriver(this.inner.createDriver(), this.tracker, this.observers);
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}
