/**
 * The telemetry service of one database: accepts device batches, then processes the vehicle right
 * after the batch commits ("process after commit"), serialized per vehicle in this process. A sweep
 * (every TELEMETRY_SWEEP_MS) processes vehicles that went quiet with records still inside the reorder
 * window, and on start whatever a previous process stored but never processed (after a crash). The
 * HTTP device API and the OsmAnd listener share one instance per database (`telemetryFor`).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../storage/db.js';
import { toIso } from '../../storage/values.js';
import type { DevicePrincipal } from '../../domain/devices/service.js';
import type { TelemetryConfig } from '../thresholds.js';
import { handleBatch, type BatchSummary } from './batch.js';
import { subjectKey, type FreshRow } from './ingest.js';
import { processVehicle } from './process.js';
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

  /** Stores a batch (acknowledgeable once this resolves) and processes the vehicle. */
  async ingest(device: DevicePrincipal, channel: number, raws: unknown[]): Promise<BatchSummary> {
    const key = subjectKey(device);
    return this.queue.run(key, async () => {
      const { summary, fresh } = await handleBatch(this.db, device, channel, raws, this.cfg);
      if (device.vehicleId !== null && summary.accepted > 0) await this.processNow(device.vehicleId, false, fresh);
      return summary;
    });
  }

  private async processNow(vehicleId: number, flush: boolean, fresh?: FreshRow[]): Promise<number> {
    try {
      return await processVehicle(this.db, vehicleId, {
        thresholds: this.cfg.thresholds, reorderWindowS: this.cfg.reorderWindowS, flush,
      }, 100, fresh);
    } catch (err) {
      // The records are stored; the next batch or the sweep processes them again.
      this.log?.error({ err, vehicleId }, 'telemetry processing failed');
      return 0;
    }
  }

  /** Processes one vehicle's pending records in the queue; `flush` ignores the reorder window. */
  process(vehicleId: number, flush = true): Promise<number> {
    return this.queue.run(`v:${vehicleId}`, () => this.processNow(vehicleId, flush));
  }

  /** Vehicles with stored records not processed yet; `quietSince` keeps only those silent since then. */
  async pending(quietSince?: string, companyId?: number): Promise<number[]> {
    let q = this.db.kysely
      .selectFrom('telemetry_state')
      .select('vehicle_id')
      .where('vehicle_id', 'is not', null)
      .where('max_fix_time', 'is not', null)
      .where((eb) => eb.or([eb('horizon', 'is', null), eb('horizon', '<', eb.ref('max_fix_time'))]));
    if (quietSince) q = q.where('last_received_at', '<=', quietSince);
    if (companyId !== undefined) q = q.where('company_id', '=', companyId);
    const rows = await q.orderBy('subject').limit(SWEEP_LIMIT).execute();
    return rows.map((r) => r.vehicle_id!);
  }

  /** One sweep: vehicles quiet for the reorder window get everything processed. */
  async sweep(): Promise<number> {
    if (this.sweeping || this.stopped) return 0;
    this.sweeping = true;
    try {
      const ids = await this.pending(toIso(Date.now() - this.cfg.reorderWindowS * 1000));
      let n = 0;
      for (const id of ids) {
        if (this.stopped) break;
        n += await this.process(id, true);
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
      const ids = await this.pending(undefined, companyId);
      if (ids.length === 0) return;
      let n = 0;
      for (const id of ids) n += await this.process(id, true);
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
