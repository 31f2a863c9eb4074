/**
 * `fleet backup` and `fleet restore` (src/storage/backup/; docs/operations.md, Backups). Unlike the
 * other commands they apply no migration: a backup copies the database as it is (take one before an
 * upgrade), and a restore needs the target empty.
 */
import { requireFlag, type Command } from './io.js';
import { fields } from './format.js';

const sum = (tables: Record<string, number>) => Object.values(tables).reduce((a, b) => a + b, 0);
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** DATABASE_URL without its password, to print. */
function shown(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url)) return url;
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

const backupCommand: Command = {
  usage: 'backup --to FILE',
  summary: 'Copy the database and the document files it refers to into FILE (a .tar.gz), while the server runs.',
  details: [
    'The copy is one instant of the database (SQLite: its online backup API; PostgreSQL: pg_dump, which must be installed, of the schema in DATABASE_URL), with the documents (BLOB_DIR) the copy refers to.',
    'FILE must not exist yet. No migration is applied: take a backup before upgrading, with the version that runs.',
    'Example: fleet backup --to /var/backups/fleet-$(date +%F).tar.gz',
  ],
  flags: { to: { type: 'string' } },
  async run(flags, ctx) {
    const to = requireFlag(flags, 'to');
    // Loaded here, not at the top: src/cli/io.ts says why.
    const { backup } = await import('../storage/backup/index.js');
    const started = performance.now();
    const { file, bytes, manifest: m } = await backup(ctx.config, to);
    const seconds = (performance.now() - started) / 1000;
    const tables = Object.keys(m.tables).length;
    ctx.print(
      {
        file,
        bytes,
        created_at: m.created_at,
        database: m.database,
        schema: m.schema,
        migrations: m.migrations,
        tables: m.tables,
        documents: m.documents,
        seconds: Number(seconds.toFixed(2)),
      },
      [
        `Backed up ${shown(ctx.config.databaseUrl)} to ${file} (${mb(bytes)}, ${seconds.toFixed(1)} s):`,
        fields([
          ['taken at', m.created_at],
          ['tables', `${tables} (${sum(m.tables)} rows)`],
          ['documents', `${m.documents.files} files (${mb(m.documents.bytes)})`],
          ['migrations', `${m.migrations.length}, the last ${m.migrations.at(-1) ?? '-'}`],
        ]).replace(/^/gm, '  '),
        ...(m.documents.missing.length
          ? [
              `  ${m.documents.missing.length} document file(s) were deleted while the backup ran and are not in it: ${m.documents.missing.join(', ')}`,
            ]
          : []),
      ].join('\n'),
    );
    return 0;
  },
};

const restoreCommand: Command = {
  usage: 'restore --from FILE [--force]',
  summary:
    'Put a backup made by `fleet backup` into the empty database DATABASE_URL names, and its documents into BLOB_DIR.',
  details: [
    "The target must be empty: no table in the database (PostgreSQL: in the schema the backup came from, which DATABASE_URL's search_path must reach) and no file in BLOB_DIR. Stop the server first.",
    '--force: restore over what is there: the SQLite file is replaced; on PostgreSQL the schema and everything in it is dropped first; the documents are written over files of the same name, other files stay.',
    'The rows of every table are counted after the restore and must match the backup. Starting the server then applies the migrations newer than the backup.',
  ],
  flags: { from: { type: 'string' }, force: { type: 'boolean' } },
  async run(flags, ctx) {
    const from = requireFlag(flags, 'from');
    const { restore } = await import('../storage/backup/index.js');
    const started = performance.now();
    const r = await restore(ctx.config, from, { force: flags.force === true });
    const seconds = (performance.now() - started) / 1000;
    const m = r.manifest;
    ctx.print(
      {
        from,
        created_at: m.created_at,
        database: m.database,
        schema: m.schema,
        migrations: m.migrations,
        tables: r.tables,
        documents: r.documents,
        replaced: r.replaced,
        seconds: Number(seconds.toFixed(2)),
      },
      [
        `Restored the backup of ${m.created_at} into ${shown(ctx.config.databaseUrl)} (${seconds.toFixed(1)} s):`,
        fields([
          ['tables', `${Object.keys(r.tables).length} (${sum(r.tables)} rows, as in the backup)`],
          ['documents', `${r.documents} files into ${ctx.config.blobDir}`],
          [
            'migrations',
            `${m.migrations.length}, the last ${m.migrations.at(-1) ?? '-'} (the server applies newer ones when it starts)`,
          ],
          ...(r.replaced.length ? [['replaced', r.replaced.join('; ')] as [string, string]] : []),
        ]).replace(/^/gm, '  '),
      ].join('\n'),
    );
    return 0;
  },
};

export const BACKUP_COMMANDS: Record<string, Command> = { backup: backupCommand, restore: restoreCommand };
