/**
 * Which tables changed, so that caches of read results know when an entry is stale.
 *
 * Every statement this process runs passes through `observe` (see tracking-dialect.ts): a write bumps
 * the version of the tables it names, at once and again when its transaction ends; DDL bumps
 * everything. Changes made by other processes arrive through a `ChangeSource` (SQLite's
 * `PRAGMA data_version`, PostgreSQL's LISTEN/NOTIFY; see change-sources.ts). Versions come from one
 * counter, so "nothing in these tables changed since the read began" is "no table's version is above
 * the stamp taken when it began".
 *
 * A read that wants caching runs inside `recordReads`, which collects the tables read while it runs;
 * the cache stores that set with the entry, so no list of dependencies is kept by hand. It collects
 * every read statement of the process in that time, its own and any concurrent request's: a superset,
 * so a dependency is never missed (an extra one only makes the entry go stale sooner). This avoids
 * AsyncLocalStorage, whose promise hooks cost every request of the process on Node 20.
 */

/** Where changes made by other processes come from. */
export interface ChangeSource {
  /** Called before every stamp and check; bumps the tracker for changes seen since the last call. */
  poll(): void;
  /** False while changes made elsewhere could go unseen (e.g. the listener is reconnecting): cache nothing. */
  live(): boolean;
  /** True when changes other processes make to `table` reach this source. */
  covers(table: string): boolean;
  /** The PostgreSQL backend process of the listening connection, for operators (pg_stat_activity). */
  backendPid?(): number | null;
  close(): Promise<void>;
}

const ALL = '*';
const NONE: readonly string[] = [];
const WRITE_RE = /\b(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from|replace\s+into)\s+"?([a-z_][a-z0-9_]*)"?/gi;
const READ_RE = /\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi;
const NEUTRAL = new Set([
  'select',
  'pragma',
  'begin',
  'commit',
  'end',
  'rollback',
  'savepoint',
  'release',
  'set',
  'show',
  'listen',
  'unlisten',
  'explain',
  'values',
]);

/** What one statement does to the tables, from its SQL text. */
export type StatementKind =
  { kind: 'read' } | { kind: 'write'; tables: string[] } | { kind: 'ddl' } | { kind: 'begin' } | { kind: 'end' };

function matches(re: RegExp, text: string): string[] {
  const out: string[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1]!.toLowerCase());
  return out;
}

/**
 * The same statements run again and again (prepared, one per row on the ingest path): their kinds are
 * kept, for the most recent SQL texts.
 */
const kinds = new Map<string, StatementKind>();
const KINDS_MAX = 2000;

export function classify(sqlText: string): StatementKind {
  let k = kinds.get(sqlText);
  if (k === undefined) {
    k = classifyText(sqlText);
    if (kinds.size >= KINDS_MAX) kinds.clear();
    kinds.set(sqlText, k);
  }
  return k;
}

function classifyText(sqlText: string): StatementKind {
  const head = /^\s*\(?\s*([a-z]+)/i.exec(sqlText)?.[1]?.toLowerCase() ?? '';
  if (head === 'begin' || head === 'start') return { kind: 'begin' };
  if (head === 'commit' || head === 'end' || head === 'rollback') {
    // `rollback to savepoint` keeps the transaction open.
    return /^\s*rollback\s+to\b/i.test(sqlText) ? { kind: 'read' } : { kind: 'end' };
  }
  if (
    head === 'insert' ||
    head === 'update' ||
    head === 'delete' ||
    head === 'replace' ||
    head === 'with' ||
    head === 'merge'
  ) {
    const tables = matches(WRITE_RE, sqlText);
    if (head === 'merge') tables.push(...matches(/\bmerge\s+into\s+"?([a-z_][a-z0-9_]*)"?/gi, sqlText));
    return tables.length > 0 ? { kind: 'write', tables } : { kind: 'read' };
  }
  if (NEUTRAL.has(head)) return { kind: 'read' };
  return { kind: 'ddl' };
}

/** The tables a read statement names in FROM and JOIN clauses. */
export const readTables = (sqlText: string): string[] => matches(READ_RE, sqlText);

export class ChangeTracker {
  private seq = 0;
  private readonly versions = new Map<string, number>();
  /** The table sets of the reads being recorded right now. */
  private readonly recorders = new Set<Set<string>>();
  private source: ChangeSource | null = null;
  private ddl = 0;
  /** Tables that change with a write to the key (foreign keys with ON DELETE CASCADE / SET NULL). */
  private cascades: ((table: string) => readonly string[]) | null = null;

  constructor() {
    this.versions.set(ALL, 0);
  }

  /** Plugs in the source of other processes' changes (one per database handle). */
  useSource(source: ChangeSource, cascades?: (table: string) => readonly string[]): void {
    this.source = source;
    this.cascades = cascades ?? null;
  }

  get sourceAttached(): boolean {
    return this.source !== null;
  }

  /** True while changes made by other processes are seen (the read cache works only then). */
  get live(): boolean {
    return this.source?.live() ?? false;
  }

  get listenerPid(): number | null {
    return this.source?.backendPid?.() ?? null;
  }

  bump(table: string): void {
    const v = ++this.seq;
    this.versions.set(table, v);
    for (const child of this.cascades?.(table) ?? NONE) this.versions.set(child, v);
  }

  bumpAll(): void {
    this.versions.set(ALL, ++this.seq);
  }

  /** How many schema changes were seen (DDL here, or reported by the source): derived maps rebuild on a change. */
  get ddlCount(): number {
    return this.ddl;
  }

  /** A schema change made elsewhere (the source saw it). */
  schemaChanged(): void {
    this.ddl++;
  }

  /**
   * The stamp to keep with a read that begins now, or null when the read must not be cached (no
   * source of other processes' changes, or it is not live).
   */
  stamp(): number | null {
    if (!this.source) return null;
    this.source.poll();
    return this.source.live() ? this.seq : null;
  }

  /** True when none of `tables` changed after `stamp` was taken (and changes elsewhere are visible). */
  unchangedSince(stamp: number, tables: Iterable<string>): boolean {
    if (!this.source) return false;
    this.source.poll();
    if (!this.source.live()) return false;
    // Nothing at all changed since the stamp: no table to look up (every change bumps seq).
    if (this.seq <= stamp) return true;
    if ((this.versions.get(ALL) ?? 0) > stamp) return false;
    for (const t of tables) if ((this.versions.get(t) ?? 0) > stamp) return false;
    return true;
  }

  /** True when every table is one whose changes by other processes reach this tracker. */
  covered(tables: Iterable<string>): boolean {
    if (!this.source) return false;
    for (const t of tables) if (!this.source.covers(t)) return false;
    return true;
  }

  /** Runs `fn`, collecting the tables read while it runs (its own statements among them). */
  async recordReads<T>(fn: () => Promise<T>): Promise<{ value: T; tables: Set<string> }> {
    const tables = new Set<string>();
    this.recorders.add(tables);
    try {
      return { value: await fn(), tables };
    } finally {
      this.recorders.delete(tables);
    }
  }

  /**
   * Called for every statement this process runs, after it ran. Returns the tables it wrote, for the
   * caller to bump again when the surrounding transaction ends.
   */
  observe(sqlText: string): StatementKind {
    const k = classify(sqlText);
    if (k.kind === 'write') {
      for (const t of k.tables) this.bump(t);
    } else if (k.kind === 'ddl') {
      this.ddl++;
      this.bumpAll();
    } else if (k.kind === 'read' && this.recorders.size > 0) {
      const tables = readTables(sqlText);
      for (const rec of this.recorders) for (const t of tables) rec.add(t);
    }
    return k;
  }

  async close(): Promise<void> {
    const s = this.source;
    this.source = null;
    if (s) await s.close();
  }
}
