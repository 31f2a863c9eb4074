/**
 * The backup file (docs/operations.md, Backups): a gzip-compressed tar archive (`tar`, npm's own
 * implementation) holding
 *
 *   manifest.json          what is inside: format version, database kind, schema, migrations, rows per table, documents
 *   database.sqlite        SQLite: a copy of the database file (rollback-journal mode, one self-contained file)
 *   database.pgdump        PostgreSQL: pg_dump's custom format, the schema of the tables only
 *   documents/<key>        the document files the database refers to, under their blob keys
 *
 * A file anyone can open with `tar -xzf`, one archive per backup to copy elsewhere or keep for a while.
 */
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import type { BlobStore } from '../blobs/index.js';

export const FORMAT = 'fleet-backup';
export const FORMAT_VERSION = 1;
export const SQLITE_FILE = 'database.sqlite';
export const PG_FILE = 'database.pgdump';
const MANIFEST = 'manifest.json';
const DOCUMENTS = 'documents';

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  /** When the snapshot was taken (ISO-8601, UTC). */
  created_at: string;
  database: 'sqlite' | 'postgres';
  /** PostgreSQL: the schema that held the tables (restored into the schema of the same name); null on SQLite. */
  schema: string | null;
  /** The migrations applied to the database when it was copied, in order (src/storage/migrate.ts). */
  migrations: string[];
  /** Rows per table in the copy (the same snapshot as the data). */
  tables: Record<string, number>;
  documents: {
    /** Document files in the archive, and their total size. */
    files: number;
    bytes: number;
    /** Blob keys the copy refers to whose file was gone when it was read (a document deleted meanwhile). */
    missing: string[];
  };
}

/** What a database snapshot says, before its documents are copied. */
export type Snapshot = Pick<Manifest, 'database' | 'schema' | 'migrations' | 'tables'> & { blobKeys: string[] };

export class BackupError extends Error {}

/** A scratch folder (next to `near`, so that a large copy stays on the same disk), removed by `done`. */
export async function scratch(near: string): Promise<{ dir: string; done(): Promise<void> }> {
  const dir = await mkdtemp(join(dirname(resolve(near)), '.fleet-backup-'));
  return { dir, done: () => rm(dir, { recursive: true, force: true }) };
}

/** Copies the documents `keys` name from the blob store into the scratch folder. */
export async function copyDocumentsOut(blobs: BlobStore, keys: string[], dir: string): Promise<Manifest['documents']> {
  const out: Manifest['documents'] = { files: 0, bytes: 0, missing: [] };
  for (const key of keys) {
    const stream = await blobs.open(key);
    if (!stream) {
      out.missing.push(key);
      continue;
    }
    const target = join(dir, DOCUMENTS, ...key.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await pipeline(stream, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
    out.files++;
    out.bytes += (await stat(target)).size;
  }
  return out;
}

/** The files under `dir`, as paths relative to it with `/` between folders (none when it does not exist). */
export async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

/** Puts the archive's documents into the blob store (a file of the same key is replaced); resolves to how many. */
export async function copyDocumentsIn(blobs: BlobStore, dir: string): Promise<number> {
  const keys = await filesUnder(join(dir, DOCUMENTS));
  for (const key of keys)
    await blobs.put(key, createReadStream(join(dir, DOCUMENTS, ...key.split('/'))), {
      maxBytes: Number.MAX_SAFE_INTEGER,
    });
  return keys.length;
}

/** Writes the manifest and packs the scratch folder into `file` (via a temporary name, so a failed run leaves no half archive). */
export async function pack(dir: string, manifest: Manifest, databaseFile: string, file: string): Promise<number> {
  await writeFile(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  const entries = [MANIFEST, databaseFile];
  if (manifest.documents.files > 0) entries.push(DOCUMENTS);
  const part = `${file}.part`;
  try {
    await tar.c({ gzip: true, file: part, cwd: dir, portable: true }, entries);
    await rename(part, file);
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
  return (await stat(file)).size;
}

/** Unpacks `file` into the scratch folder and reads its manifest. */
export async function unpack(file: string, dir: string): Promise<Manifest> {
  try {
    await tar.x({ file, cwd: dir, strict: true });
  } catch (err) {
    throw new BackupError(`${file} is not a backup made by fleet backup (${(err as Error).message})`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    throw new BackupError(`${file} is not a backup made by fleet backup: it has no ${MANIFEST}`);
  }
  if (manifest.format !== FORMAT) throw new BackupError(`${file} is not a backup made by fleet backup`);
  if (manifest.version !== FORMAT_VERSION) {
    throw new BackupError(
      `${file} is a backup of format version ${manifest.version}; this fleet reads version ${FORMAT_VERSION}`,
    );
  }
  return manifest;
}
