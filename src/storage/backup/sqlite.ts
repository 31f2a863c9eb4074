/**
 * SQLite backups with SQLite's online backup API (better-sqlite3's `backup`): the whole file is copied
 * in one step, inside one read transaction of the backup's own connection, so the copy is the database
 * as of one instant while the server goes on writing (WAL: readers and the writer do not wait for each
 * other). Copied in several steps, a write by the server between two steps would restart the copy.
 */
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { BackupError, type Snapshot } from './archive.js';

/** Every page left in one step (the largest count better-sqlite3 takes). */
const ALL_PAGES = 0x7fffffff;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function tablesOf(db: SqliteDatabase.Database): string[] {
  const rows = db
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name",
    )
    .all() as Array<{ name: string }>;
  return rows.map((r) => r.name);
}

/** Rows per table, the applied migrations and the documents' blob keys of an open database. */
function describe(db: SqliteDatabase.Database): Omit<Snapshot, 'database' | 'schema'> {
  const names = tablesOf(db);
  const tables: Record<string, number> = {};
  for (const name of names)
    tables[name] = (db.prepare(`select count(*) as n from ${quote(name)}`).get() as { n: number }).n;
  const migrations = names.includes('kysely_migration')
    ? (db.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map(
        (r) => r.name,
      )
    : [];
  const blobKeys = names.includes('documents')
    ? (
        db.prepare('select blob_key from documents where blob_key is not null order by blob_key').all() as Array<{
          blob_key: string;
        }>
      ).map((r) => r.blob_key)
    : [];
  return { tables, migrations, blobKeys };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Copies the database at `path` to `dest` while it is in use. */
export async function backupSqlite(path: string, dest: string): Promise<Snapshot> {
  if (!(await exists(path))) throw new BackupError(`there is no database file at ${resolve(path)} (DATABASE_URL)`);
  const source = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(dest, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  const copy = new SqliteDatabase(dest);
  try {
    // A single file without a -wal beside it, whatever mode the source was in.
    copy.pragma('journal_mode = DELETE');
    return { database: 'sqlite', schema: null, ...describe(copy) };
  } finally {
    copy.close();
  }
}

/** The tables of the database at `path` (none when there is no file). */
export async function sqliteTables(path: string): Promise<string[]> {
  if (!(await exists(path))) return [];
  const db = new SqliteDatabase(path, { fileMustExist: true });
  try {
    return tablesOf(db);
  } finally {
    db.close();
  }
}

/**
 * Puts the backup's database file at `path`, replacing what is there (the caller checked it may). The
 * file is copied beside it and renamed into place; a -wal and -shm left by the database it replaces go,
 * or SQLite would apply the old write-ahead log to the restored file.
 */
export async function restoreSqlite(source: string, path: string): Promise<Record<string, number>> {
  await mkdir(dirname(resolve(path)), { recursive: true });
  const part = `${path}.restoring`;
  await copyFile(source, part);
  await rm(`${path}-wal`, { force: true });
  await rm(`${path}-shm`, { force: true });
  await rename(part, path);
  const db = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
  try {
    return describe(db).tables;
  } finally {
    db.close();
  }
}
