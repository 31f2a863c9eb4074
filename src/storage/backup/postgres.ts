/**
 * PostgreSQL backups through the PostgreSQL client tools: `pg_dump` of the schema that holds the tables
 * (custom format) and `pg_restore`. Consistency: a read-only REPEATABLE READ transaction exports its
 * snapshot, and pg_dump dumps that same snapshot (`--snapshot`), so the row counts and document keys
 * read in the transaction describe exactly the dumped data, whatever the server writes meanwhile.
 * pg_dump must be of the server's major version or newer (it refuses an older one).
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import { BackupError, type Snapshot } from './archive.js';

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The connection for libpq (the same URL as for the pg driver): without its password, which goes in
 * PGPASSWORD (not on a command line that `ps` shows).
 */
function libpq(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.password) {
    env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = '';
  }
  // libpq reads `%20` as a space but not `+`, which a URL written by URLSearchParams has
  // (`options=-c+search_path%3D…`, as the pg driver accepts).
  u.search = [...u.searchParams].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return { dbname: u.toString(), env };
}

/** Runs a PostgreSQL client tool; resolves to its stdout, or fails with what it wrote to stderr. */
function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'ENOENT'
          ? new BackupError(
              `${tool} is not installed (or not on PATH): install the PostgreSQL client tools of the server's version, or use the commands in docs/operations.md, Backups`,
            )
          : e,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new BackupError(`${tool} failed (exit ${code}): ${err.trim()}`)),
    );
  });
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function describe(client: pg.Client, schema: string): Promise<Omit<Snapshot, 'database' | 'schema'>> {
  const { rows } = await client.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE' order by table_name",
    [schema],
  );
  const names = rows.map((r) => r.name);
  const tables: Record<string, number> = {};
  const q = (t: string) => `${quoteIdent(schema)}.${quoteIdent(t)}`;
  for (const name of names)
    tables[name] = Number((await client.query<{ n: string }>(`select count(*) as n from ${q(name)}`)).rows[0].n);
  const migrations = names.includes('kysely_migration')
    ? (await client.query<{ name: string }>(`select name from ${q('kysely_migration')} order by name`)).rows.map(
        (r) => r.name,
      )
    : [];
  const blobKeys = names.includes('documents')
    ? (
        await client.query<{ k: string }>(
          `select blob_key as k from ${q('documents')} where blob_key is not null order by blob_key`,
        )
      ).rows.map((r) => r.k)
    : [];
  return { tables, migrations, blobKeys };
}

/** Dumps the connection's schema to `dest` while the server runs. */
export async function backupPostgres(url: string, dest: string): Promise<Snapshot> {
  const client = await connect(url);
  try {
    await client.query('begin isolation level repeatable read read only');
    const {
      rows: [{ snapshot, schema }],
    } = await client.query<{ snapshot: string; schema: string | null }>(
      'select pg_export_snapshot() as snapshot, current_schema() as schema',
    );
    if (!schema) throw new BackupError("DATABASE_URL's search_path names no schema that exists: nothing to back up");
    const described = await describe(client, schema);
    const { dbname, env } = libpq(url);
    // While this transaction stays open, pg_dump reads its snapshot.
    await run(
      'pg_dump',
      [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--schema=${quoteIdent(schema)}`,
        `--snapshot=${snapshot}`,
        `--file=${dest}`,
        `--dbname=${dbname}`,
      ],
      env,
    );
    await client.query('commit');
    return { database: 'postgres', schema, ...described };
  } finally {
    await client.end();
  }
}

/** What is in the target's schema `schema`: whether it exists, and its tables, views, sequences and functions. */
export async function postgresContents(
  url: string,
  schema: string,
): Promise<{ exists: boolean; objects: string[]; searchPath: string[] }> {
  const client = await connect(url);
  try {
    const {
      rows: [sp],
    } = await client.query<{ path: string; user: string }>(
      "select current_setting('search_path') as path, current_user as user",
    );
    const searchPath = sp.path
      .split(',')
      .map((s) => s.trim().replace(/^"(.*)"$/, '$1'))
      .map((s) => (s === '$user' ? sp.user : s));
    const ns = await client.query('select 1 from pg_namespace where nspname = $1', [schema]);
    const { rows } = await client.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'S')
       union all select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1 order by 1`,
      [schema],
    );
    return { exists: ns.rowCount === 1, objects: rows.map((r) => r.name), searchPath };
  } finally {
    await client.end();
  }
}

/** Drops `schema` and everything in it (restore --force). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = await connect(url);
  try {
    await client.query(`drop schema ${quoteIdent(schema)} cascade`);
  } finally {
    await client.end();
  }
}

/**
 * Restores the dump into the target in one transaction (all or nothing). When the schema already exists
 * (empty: the caller checked), the dump's own CREATE SCHEMA and its comment are left out.
 */
export async function restorePostgres(
  dump: string,
  url: string,
  schema: string,
  schemaExists: boolean,
  listFile: string,
): Promise<Record<string, number>> {
  const { dbname, env } = libpq(url);
  const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`];
  if (schemaExists) {
    const list = await run('pg_restore', ['--list', dump], env);
    const own = new RegExp(
      `^\\d+; \\d+ \\d+ (SCHEMA|COMMENT) - (SCHEMA )?${schema.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `,
    );
    await writeFile(
      listFile,
      list
        .split('\n')
        .filter((line) => !own.test(line))
        .join('\n'),
    );
    args.push(`--use-list=${listFile}`);
  }
  await run('pg_restore', [...args, dump], env);
  const client = await connect(url);
  try {
    return (await describe(client, schema)).tables;
  } finally {
    await client.end();
  }
}
