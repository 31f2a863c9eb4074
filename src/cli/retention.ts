/**
 * `fleet retention [--dry-run] [--compact]`: runs the storage maintenance job now (src/storage/partitions):
 * PostgreSQL partitions ahead, then retention by the RETENTION_* settings; `--dry-run` only says what
 * would go; `--compact` also rewrites the past weeks due for it (PostgreSQL; docs/storage.md). On
 * PostgreSQL a run that finds another node's run in progress does nothing and says so (exit 1).
 */
import type { Command } from './io.js';
import type { MaintenanceRun } from '../storage/partitions/maintain.js';

function describeRun(run: MaintenanceRun, dryRun: boolean): string {
  if (!run.ran) return 'Another node is running the maintenance job; nothing done.';
  const lines = run.retention.map((l) => {
    if (l.cutoff === null) return `${l.table}: kept for ever`;
    const what = `${l.rows} row${l.rows === 1 ? '' : 's'}${l.partitions.length ? ` in ${l.partitions.length} partition${l.partitions.length === 1 ? '' : 's'} (${l.partitions.join(', ')})` : ''}`;
    return `${l.table}: ${what} older than ${l.cutoff} ${dryRun ? 'would go' : 'deleted'}`;
  });
  if (run.created.length) lines.unshift(`Partitions created: ${run.created.join(', ')}`);
  if (run.compacted.length) lines.push(`Weeks compacted: ${run.compacted.join(', ')}`);
  return lines.join('\n');
}

export const retentionCommand: Command = {
  usage: 'retention [--dry-run] [--compact]',
  summary:
    'Apply the retention settings now (RETENTION_*: raw device records, derived telemetry and IFTA distance, outbox, webhook log); --dry-run says what would go.',
  details: [
    'PostgreSQL: creates the weekly partitions ahead, drops whole weeks past retention; SQLite: deletes in small batches.',
    '--compact also drops the stored history text of weeks past RETENTION_COMPACT_AFTER_DAYS (PostgreSQL; docs/storage.md).',
  ],
  flags: { 'dry-run': { type: 'boolean' }, compact: { type: 'boolean' } },
  async run(flags, ctx) {
    const dryRun = flags['dry-run'] === true;
    // Loaded here, not at the top: src/cli/io.ts says why.
    const { runMaintenance } = await import('../storage/partitions/maintain.js');
    const { db } = await ctx.database();
    const cfg = ctx.config.retention;
    const run = await runMaintenance(db, cfg, {
      nowMs: Date.now(),
      dryRun,
      retention: true,
      compact: flags.compact === true ? { afterDays: cfg.compactAfterDays, limit: Infinity } : undefined,
    });
    ctx.print(
      {
        ran: run.ran,
        dry_run: dryRun,
        partitions_created: run.created,
        weeks_compacted: run.compacted,
        tables: run.retention.map((l) => ({
          table: l.table,
          cutoff: l.cutoff,
          rows: l.rows,
          partitions: l.partitions,
        })),
      },
      describeRun(run, dryRun),
    );
    return run.ran ? 0 : 1;
  },
};
