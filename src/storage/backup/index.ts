/**
 * `fleet backup` and `fleet restore` (docs/operations.md, Backups): a consistent copy of the database
 * and of the document files it refers to, taken while the server runs, and put back into an empty
 * database. Neither applies migrations: a backup is the database as it is, and a restore writes the
 * tables as they were (the server migrates them forward when it starts).
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../../config/index.js';
import { databaseKind } from '../../config/index.js';
import { sqlitePath } from '../db.js';
import { openBlobStore } from '../blobs/index.js';
import {
  BackupError,
  FORMAT,
  FORMAT_VERSION,
  PG_FILE,
  SQLITE_FILE,
  copyDocumentsIn,
  copyDocumentsOut,
  filesUnder,
  pack,
  scratch,
  unpack,
  type Manifest,
} from './archive.js';
import { backupSqlite, restoreSqlite, sqliteTables } from './sqlite.js';
import { backupPostgres, dropSchema, postgresContents, restorePostgres } from './postgres.js';

export { BackupError, type Manifest } from './archive.js';

type Settings = Pick<Config, 'databaseUrl' | 'blobDir'>;

function sqliteFile(url: string): string {
  const path = sqlitePath(url);
  if (path === ':memory:')
    throw new BackupError(
      'DATABASE_URL is sqlite::memory:, a database that lives only inside its process: there is nothing to copy or restore into',
    );
  return path;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: Manifest;
}

/** Writes a backup of the configured database and its documents to `to` (which must not exist yet). */
export async function backup(config: Settings, to: string): Promise<BackupResult> {
  const file = resolve(to);
  if (
    await stat(file).then(
      () => true,
      () => false,
    )
  ) {
    throw new BackupError(`${file} already exists: choose a new file name (a backup never overwrites one)`);
  }
  const kind = databaseKind(config.databaseUrl);
  const work = await scratch(file);
  try {
    const databaseFile = kind === 'sqlite' ? SQLITE_FILE : PG_FILE;
    const dest = join(work.dir, databaseFile);
    const createdAt = new Date().toISOString();
    const snap =
      kind === 'sqlite'
        ? await backupSqlite(sqliteFile(config.databaseUrl), dest)
        : await backupPostgres(config.databaseUrl, dest);
    // After the snapshot: a document uploaded meanwhile is not referred to by it, and its file is left out.
    const documents = await copyDocumentsOut(openBlobStore(config), snap.blobKeys, work.dir);
    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      created_at: createdAt,
      database: snap.database,
      schema: snap.schema,
      migrations: snap.migrations,
      tables: snap.tables,
      documents,
    };
    const bytes = await pack(work.dir, manifest, databaseFile, file);
    return { file, bytes, manifest };
  } finally {
    await work.done();
  }
}

export interface RestoreResult {
  manifest: Manifest;
  /** Rows per table in the restored database (the same as the manifest's, or the restore fails). */
  tables: Record<string, number>;
  documents: number;
  /** --force replaced a database that had tables (their names), or documents that were there. */
  replaced: string[];
}

/**
 * Restores the backup `from` into the configured database, which must be empty (no table) and whose
 * documents folder must be empty, unless `force`: then the database's tables (SQLite: the file;
 * PostgreSQL: the schema and everything in it) are dropped first, and the documents are added to the
 * folder, replacing files of the same name.
 */
export async function restore(config: Settings, from: string, opts: { force: boolean }): Promise<RestoreResult> {
  const file = resolve(from);
  const kind = databaseKind(config.databaseUrl);
  const work = await scratch(file);
  try {
    const manifest = await unpack(file, work.dir);
    if (manifest.database !== kind) {
      throw new BackupError(
        `${file} is a ${manifest.database} backup and DATABASE_URL names a ${kind} database: a backup restores into the same kind of database`,
      );
    }
    const replaced: string[] = [];
    let tables: Record<string, number>;
    const files = (await filesUnder(config.blobDir)).length;
    if (files > 0) replaced.push(`${files} files in ${config.blobDir}`);
    if (kind === 'sqlite') {
      const path = sqliteFile(config.databaseUrl);
      const existing = await sqliteTables(path);
      if (existing.length > 0) replaced.unshift(`${existing.length} tables in ${resolve(path)}`);
      refuseUnlessForced(replaced, opts.force);
      tables = await restoreSqlite(join(work.dir, SQLITE_FILE), path);
    } else {
      const schema = manifest.schema ?? 'public';
      const target = await postgresContents(config.databaseUrl, schema);
      if (!target.searchPath.includes(schema)) {
        throw new BackupError(
          `the backup's tables are in schema ${schema}, which DATABASE_URL's search_path (${target.searchPath.join(', ')}) does not reach: the server would not see them`,
        );
      }
      if (target.objects.length > 0)
        replaced.unshift(`${target.objects.length} tables, sequences and functions in schema ${schema}`);
      refuseUnlessForced(replaced, opts.force);
      let exists = target.exists;
      if (target.objects.length > 0) {
        await dropSchema(config.databaseUrl, schema);
        exists = false;
      }
      tables = await restorePostgres(
        join(work.dir, PG_FILE),
        config.databaseUrl,
        schema,
        exists,
        join(work.dir, 'restore.list'),
      );
    }
    const wrong = Object.keys({ ...manifest.tables, ...tables }).filter((t) => manifest.tables[t] !== tables[t]);
    if (wrong.length > 0) {
      throw new BackupError(
        `the restored database differs from the backup in ${wrong.map((t) => `${t} (${tables[t] ?? 'missing'} rows, backed up ${manifest.tables[t] ?? 'none'})`).join(', ')}`,
      );
    }
    const documents = await copyDocumentsIn(openBlobStore(config), work.dir);
    return { manifest, tables, documents, replaced };
  } finally {
    await work.done();
  }
}

function refuseUnlessForced(found: string[], force: boolean): void {
  if (found.length === 0 || force) return;
  throw new BackupError(
    `the target is not empty (${found.join('; ')}): restore into an empty database, or pass --force to drop what is there first`,
  );
}
