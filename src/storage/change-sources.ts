/**
 * How a process learns of changes other processes made, for the ChangeTracker (changes.ts).
 *
 * SQLite: `PRAGMA data_version` changes whenever another connection commits to the file (the CLI, a
 * second server). That says nothing of which tables, so any such change makes every cached read stale.
 * It is asked at most once a millisecond.
 * Foreign keys with ON DELETE CASCADE / SET NULL change child tables that no statement names; the
 * cascade map, read from the schema, bumps those with their parent.
 *
 * PostgreSQL: migration 0012 puts a statement-level trigger on the tables worth caching reads of, which
 * calls `pg_notify('fleet_changes', '<schema>.<table>')`; notifications are sent at commit. A dedicated
 * connection LISTENs. Only reads of those tables are cached (`covers`). While the listener is down
 * (PostgreSQL restarting, network), nothing is cached and every entry counts as stale; it reconnects
 * by itself. A change committed on another node reaches this one after the notification's delivery
 * time (milliseconds on a LAN); that is the window in which this node may still answer from its cache.
 */
import type SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { ChangeSource, ChangeTracker } from './changes.js';

export const CHANGE_CHANNEL = 'fleet_changes';
/** The listening connection's application_name, as pg_stat_activity shows it. */
export const LISTENER_NAME = 'fleet-change-listener';

/**
 * SQLite: how long a `PRAGMA data_version` answer is trusted, ms. A commit by another process reaches
 * this one's cache within this time; this process's own writes are seen at once.
 */
export const POLL_INTERVAL_MS = 1;

export function sqliteChanges(conn: SqliteDatabase.Database, tracker: ChangeTracker): void {
  const dataVersion = conn.prepare('PRAGMA data_version').pluck();
  const schemaVersion = conn.prepare('PRAGMA schema_version').pluck();
  let seen = dataVersion.get();
  let open = true;
  // The cascade map is rebuilt when the schema changed: DDL run here (the tracker's DDL count) or by
  // another process (its schema_version, looked at only when data_version says it wrote something).
  let schemaSeen = schemaVersion.get();
  let builtAt = -1;
  let children = new Map<string, string[]>();

  const cascades = (table: string): readonly string[] => {
    if (builtAt !== tracker.ddlCount) {
      children = cascadeMap(conn);
      builtAt = tracker.ddlCount;
    }
    return children.get(table) ?? [];
  };
  let polledAt = -Infinity;
  const source: ChangeSource = {
    poll() {
      if (!open) return;
      // The pragma costs a WAL read-lock round (several µs); once per POLL_INTERVAL_MS is enough.
      const now = performance.now();
      if (now - polledAt < POLL_INTERVAL_MS) return;
      polledAt = now;
      const v = dataVersion.get();
      if (v !== seen) {
        seen = v;
        const sv = schemaVersion.get();
        if (sv !== schemaSeen) {
          schemaSeen = sv;
          tracker.schemaChanged();
        }
        tracker.bumpAll();
      }
    },
    live: () => open,
    covers: () => true,
    async close() {
      open = false;
    },
  };
  tracker.useSource(source, cascades);
}

/** parent table → every table a delete in it can change through foreign-key actions, transitively. */
function cascadeMap(conn: SqliteDatabase.Database): Map<string, string[]> {
  const tables = conn.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[];
  const direct = new Map<string, Set<string>>();
  for (const t of tables) {
    const fks = conn.pragma(`foreign_key_list("${t.replace(/"/g, '""')}")`) as Array<{
      table: string;
      on_delete: string;
      on_update: string;
    }>;
    for (const fk of fks) {
      if (fk.on_delete === 'NO ACTION' && fk.on_update === 'NO ACTION') continue;
      if (!direct.has(fk.table)) direct.set(fk.table, new Set());
      direct.get(fk.table)!.add(t);
    }
  }
  const out = new Map<string, string[]>();
  for (const parent of direct.keys()) {
    const seen = new Set<string>();
    const stack = [...direct.get(parent)!];
    while (stack.length) {
      const t = stack.pop()!;
      if (seen.has(t)) continue;
      seen.add(t);
      stack.push(...(direct.get(t) ?? []));
    }
    out.set(parent, [...seen]);
  }
  return out;
}

export interface PgChangeOptions {
  /** How often the listening connection is checked, ms. */
  heartbeatMs?: number;
  /** Called when the listener goes down or comes back (for logs). */
  onState?: (live: boolean, err?: unknown) => void;
}

/** Starts listening; resolves once the first attempt finished (live or not: it keeps retrying). */
export async function pgChanges(url: string, tracker: ChangeTracker, opts: PgChangeOptions = {}): Promise<void> {
  const heartbeatMs = opts.heartbeatMs ?? 2000;
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let schema = '';
  let covered = new Set<string>();
  let retry: NodeJS.Timeout | null = null;
  let attempts = 0;
  let pid: number | null = null;

  const coverage = async (c: pg.Client) => {
    const r = await c.query<{ t: string }>(
      `select distinct event_object_table as t from information_schema.triggers
        where trigger_schema = current_schema() and trigger_name = $1`,
      [CHANGE_CHANNEL],
    );
    covered = new Set(r.rows.map((x) => x.t));
  };

  const down = (err?: unknown) => {
    if (client === null) return;
    const c = client;
    client = null;
    const wasLive = live;
    live = false;
    tracker.bumpAll();
    c.removeAllListeners('notification');
    c.on('error', () => {});
    void c.end().catch(() => {});
    if (wasLive) opts.onState?.(false, err);
    schedule();
  };

  const schedule = () => {
    if (closed || retry) return;
    const delay = Math.min(5000, 100 * 2 ** Math.min(attempts++, 6));
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, delay);
    retry.unref();
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: url, application_name: LISTENER_NAME });
    client = c;
    c.on('error', (err) => down(err));
    c.on('end', () => down());
    c.on('notification', (msg) => {
      if (msg.channel !== CHANGE_CHANNEL || !msg.payload) return;
      const dot = msg.payload.indexOf('.');
      if (msg.payload.slice(0, dot) === schema) tracker.bump(msg.payload.slice(dot + 1));
    });
    try {
      await c.connect();
      const me = (await c.query<{ s: string; pid: number }>('select current_schema() as s, pg_backend_pid() as pid'))
        .rows[0]!;
      schema = me.s;
      pid = me.pid;
      await coverage(c);
      await c.query(`listen ${CHANGE_CHANNEL}`);
      if (client !== c || closed) return;
      tracker.bumpAll();
      live = true;
      attempts = 0;
      opts.onState?.(true);
    } catch (err) {
      if (client === c) down(err);
    }
  };

  const beat = setInterval(() => {
    const c = client;
    if (!c || !live) return;
    const timer = setTimeout(() => {
      if (client === c) down(new Error(`change listener did not answer within ${heartbeatMs} ms`));
    }, heartbeatMs);
    coverage(c).then(
      () => clearTimeout(timer),
      (err) => {
        clearTimeout(timer);
        if (client === c) down(err);
      },
    );
  }, heartbeatMs);
  beat.unref();

  tracker.useSource({
    poll() {},
    live: () => live,
    covers: (t) => covered.has(t),
    backendPid: () => (live ? pid : null),
    async close() {
      closed = true;
      clearInterval(beat);
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      live = false;
      if (c) {
        c.removeAllListeners('end');
        c.removeAllListeners('error');
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  });
  await connect();
}
