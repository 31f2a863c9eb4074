/**
 * The telemetry service of one database: accepts device batches and processes each vehicle or asset
 * right after its records are stored, in the same transaction (./ingest.ts), serialized per subject in
 * this process. A batch that cannot be processed that way (it carries inspection reports or form
 * entries), a processing failure and a backlog longer than one chunk are processed again after the
 * commit, or by the sweep. The sweep (every TELEMETRY_SWEEP_MS) processes subjects that went quiet with
 * records still inside the reorder window, and on start whatever a previous process stored but never
 * processed (after a crash). The HTTP device API and the OsmAnd listener share one instance per
 * database (`telemetryFor`).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../storage/db.js';
import { toIso } from '../../storage/values.js';
import type { DevicePrincipal } from '../../domain/devices/service.js';
import type { TelemetryConfig } from '../thresholds.js';
import { handleBatch, type BatchSummary } from './batch.js';
import { subjectKey } from './ingest.js';
import { processSubject, vehicleKey, type ProcessOptions } from './process.js';
import { PROCESS_CHUNK } from './pending.js';
import { KeyedQueue } from './tx.js';

const SWEEP_LIMIT = 200;

export class Telemetry {
  readonly queue = new KeyedQueue();
  private timer: NodeJS.Timeout | null = null;
  private sweeping = false;
  private stopped = false;

  constructor(
    readonly db: Db,
    readonly cfg: TelemetryConfig,
    private readonly log?: FastifyBaseLogger,
  ) {}

  private options(flush: boolean): ProcessOptions {
    return { thresholds: this.cfg.thresholds, reorderWindowS: this.cfg.reorderWindowS, flush };
  }

  /** Stores a batch and processes its subject (acknowledgeable once this resolves: it is committed). */
  async ingest(device: DevicePrincipal, channel: number, raws: unknown[]): Promise<BatchSummary> {
    const key = subjectKey(device);
    return this.queue.run(key, async () => {
      const { summary, inBatch, refused } = await handleBatch(
        this.db,
        device,
        channel,
        raws,
        this.cfg,
        this.options(false),
      );
      for (const { err, index, seq } of refused)
        this.log?.warn(
          { err, subject: key, device: device.identifier, index, seq },
          'telemetry record refused by the database',
        );
      if (inBatch && 'error' in inBatch) {
        // The records are committed; the next batch or the sweep processes them.
        this.log?.error({ err: inBatch.error, subject: key }, 'telemetry processing failed');
      } else if (inBatch ? inBatch.processed === PROCESS_CHUNK : summary.accepted > 0) {
        await this.processNow(key, false);
      }
      return summary;
    });
  }

  private async processNow(subject: string, flush: boolean): Promise<number> {
    try {
      return await processSubject(this.db, subject, this.options(flush));
    } catch (err) {
      // The records are stored; the next batch or the sweep processes them again.
      this.log?.error({ err, subject }, 'telemetry processing failed');
      return 0;
    }
  }

  /** Processes one vehicle's pending records in the queue; `flush` ignores the reorder window. */
  process(vehicleId: number, flush = true): Promise<number> {
    return this.processKey(vehicleKey(vehicleId), flush);
  }

  private processKey(subject: string, flush: boolean): Promise<number> {
    return this.queue.run(subject, () => this.processNow(subject, flush));
  }

  /** Subjects (`v:<id>`, `a:<id>`) with stored records not processed yet; `quietSince` keeps only those silent since then. */
  async pending(quietSince?: string, companyId?: number): Promise<string[]> {
    let q = this.db.kysely
      .selectFrom('telemetry_state')
      .select('subject')
      .where('max_fix_time', 'is not', null)
      .where((eb) => eb.or([eb('horizon', 'is', null), eb('horizon', '<', eb.ref('max_fix_time'))]));
    if (quietSince) q = q.where('last_received_at', '<=', quietSince);
    if (companyId !== undefined) q = q.where('company_id', '=', companyId);
    const rows = await q.orderBy('subject').limit(SWEEP_LIMIT).execute();
    return rows.map((r) => r.subject);
  }

  /** One sweep: subjects quiet for the reorder window get everything processed. */
  async sweep(): Promise<number> {
    if (this.sweeping || this.stopped) return 0;
    this.sweeping = true;
    try {
      const keys = await this.pending(toIso(Date.now() - this.cfg.reorderWindowS * 1000));
      let n = 0;
      for (const key of keys) {
        if (this.stopped) break;
        n += await this.processKey(key, true);
      }
      return n;
    } catch (err) {
      this.log?.error({ err }, 'telemetry sweep failed');
      return 0;
    } finally {
      this.sweeping = false;
    }
  }

  /** Processes everything stored (tests, the CLI, shutdown of a simulator). Bounded in rounds. */
  async settle(companyId?: number): Promise<void> {
    await this.queue.idle();
    for (let round = 0; round < 50; round++) {
      const keys = await this.pending(undefined, companyId);
      if (keys.length === 0) return;
      let n = 0;
      for (const key of keys) n += await this.processKey(key, true);
      if (n === 0) return;
    }
  }

  start(): void {
    if (this.timer || this.cfg.sweepMs === 0) return;
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.cfg.sweepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.queue.idle();
  }
}

const instances = new WeakMap<Db, Telemetry>();

/** The one telemetry service of this database in this process. */
export function telemetryFor(db: Db, cfg: TelemetryConfig, log?: FastifyBaseLogger): Telemetry {
  let t = instances.get(db);
  if (!t) {
    t = new Telemetry(db, cfg, log);
    instances.set(db, t);
  }
  return t;
}

/** Forgets the instance of a database being closed. */
export function dropTelemetry(db: Db): void {
  instances.delete(db);
}
