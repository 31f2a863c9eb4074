/**
 * A dialect wrapper that tells observers about every query a connection executes: its duration, or its
 * error (the event has the shape of Kysely's `log` events). With no observer a query runs exactly as
 * before; with one it costs a timer read and one promise. Kysely's own `log` option would do the same
 * but wraps every query in several async calls whether anyone listens or not. Streamed queries are
 * not observed (nothing here streams).
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, LogEvent, QueryResult, TransactionSettings } from 'kysely';

export type QueryObserver = (e: LogEvent) => void;

function notify(observers: ReadonlySet<QueryObserver>, e: LogEvent): void {
  for (const fn of observers) fn(e);
}

function observeConnection(conn: DatabaseConnection, observers: ReadonlySet<QueryObserver>): void {
  const execute = conn.executeQuery.bind(conn);
  conn.executeQuery = <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
    if (observers.size === 0) return execute<R>(query);
    const started = performance.now();
    return execute<R>(query).then(
      (result) => {
        notify(observers, { level: 'query', query, queryDurationMillis: performance.now() - started });
        return result;
      },
      (error: unknown) => {
        notify(observers, { level: 'error', error, query, queryDurationMillis: performance.now() - started });
        throw error;
      },
    );
  };
}

class ObservedDriver implements Driver {
  private readonly seen = new WeakSet<DatabaseConnection>();
  readonly savepoint?: Driver['savepoint'];
  readonly rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  readonly releaseSavepoint?: Driver['releaseSavepoint'];

  constructor(private readonly inner: Driver, private readonly observers: ReadonlySet<QueryObserver>) {
    this.savepoint = inner.savepoint?.bind(inner);
    this.rollbackToSavepoint = inner.rollbackToSavepoint?.bind(inner);
    this.releaseSavepoint = inner.releaseSavepoint?.bind(inner);
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection().then((conn) => {
      if (!this.seen.has(conn)) {
        this.seen.add(conn);
        observeConnection(conn, this.observers);
      }
      return conn;
    });
  }

  beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(conn, settings);
  }

  commitTransaction(conn: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(conn);
  }

  rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(conn);
  }

  releaseConnection(conn: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(conn);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

export function observed(dialect: Dialect, observers: ReadonlySet<QueryObserver>): Dialect {
  return {
    createDriver: () => new ObservedDriver(dialect.createDriver(), observers),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
