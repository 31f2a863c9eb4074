/**
 * The time layout of partitioned telemetry on PostgreSQL (docs/storage.md, Partitions): pure
 * arithmetic of weeks, partition names and bounds, shared by the migration that converts the table,
 * the maintenance job and retention.
 *
 * One partition a week, Monday 00:00 UTC to the next Monday. Measured against one a day (docs/storage.md):
 * a query the planner cannot prune to a few partitions (a device's sequence numbers, the newest record
 * id) touches every partition, and with the ~60 weeks of the accepted time window it costs ~2 ms where
 * ~400 days cost ~36 ms, and opening the table the first time on a connection 60 ms instead of 420.
 * A week of 100,000 vehicles' fixes is still a table that one backup or one drop handles.
 */

export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05, the first Monday of the epoch. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

/** The Monday 00:00 UTC at or before `ms`. */
export function weekStart(ms: number): number {
  const into = (((ms - FIRST_MONDAY_MS) % WEEK_MS) + WEEK_MS) % WEEK_MS;
  return ms - into;
}

/** A bound as the partition key stores it: ISO text with milliseconds, the format of every fix_time. */
export const boundText = (ms: number) => new Date(ms).toISOString();

/** `telemetry_records_w20270104`: the table's partition that starts at `startMs`. */
export const partitionName = (table: string, startMs: number) =>
  `${table}_w${new Date(startMs).toISOString().slice(0, 10).replaceAll('-', '')}`;

/** The partition that holds everything before the first weekly one (the table as it was, migration 0025). */
export const beforeName = (table: string) => `${table}_before`;

export interface PartitionRange {
  name: string;
  /** Epoch ms of the lower bound; -Infinity for MINVALUE. */
  from: number;
  /** Epoch ms of the upper bound (exclusive). */
  to: number;
}

/** A partition's range from `pg_get_expr(relpartbound)`: FOR VALUES FROM ('…') TO ('…'), or MINVALUE. */
export function parseBound(name: string, expr: string): PartitionRange | null {
  const m = /FROM \((MINVALUE|'([^']*)')\) TO \('([^']*)'\)/.exec(expr);
  if (!m) return null;
  return { name, from: m[1] === 'MINVALUE' ? -Infinity : Date.parse(m[2]), to: Date.parse(m[3]) };
}

/**
 * The weekly ranges still to create so that partitions reach past `untilMs`: from the highest existing
 * upper bound (the first one may be a part of a week, when the table was converted mid-week) to the end
 * of the week holding `untilMs`.
 */
export function missingWeeks(table: string, existing: PartitionRange[], untilMs: number): PartitionRange[] {
  let from = Math.max(...existing.map((p) => p.to));
  const out: PartitionRange[] = [];
  while (from <= untilMs) {
    const to = weekStart(from) + WEEK_MS;
    out.push({ name: partitionName(table, from), from, to });
    from = to;
  }
  return out;
}
