/**
 * The delivery worker: fans new domain events out into deliveries (fanout.ts), claims due deliveries
 * (claims.ts), sends them (sender.ts) with up to `concurrency` in flight, and records each outcome.
 *
 * `start()` runs it in the background (the server does when WEBHOOK_WORKER is on); `runOnce()` does one
 * full pass and waits for it (tests drive it step by step with a controllable clock). Time comes from
 * the clock given, else from the database (PostgreSQL's clock_timestamp(), so every node schedules
 * retries on one clock and a restart keeps the plan), or the process clock on SQLite.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { Clock } from '../../auth/oauth/clock.js';
import type { WebhookConfig } from './settings.js';
import type { Sender, AttemptResult } from './sender.js';
import { fanOut } from './fanout.js';
import { outcomeOf } from './outcome.js';
import type { RequestState } from './tables.js';
import { claim, holdSqliteLease, recordResults, releaseSqliteLease, type Claimed, type Finished } from './claims.js';

export type { Clock };

export interface WorkerLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface AttemptReport {
  requestId: number;
  action: string;
  eventOccurredAt: string | null;
  /** Process time the attempt started, epoch milliseconds. */
  startedAtMs: number;
  result: AttemptResult;
  /** What the attempt made of the delivery: `delivered`, `rejected`, `pending` (a retry is due later) or `failed`. */
  state: RequestState;
}

export interface WorkerOptions {
  db: Db;
  config: WebhookConfig;
  publicUrl: string;
  sender: Sender;
  clock?: Clock;
  log: WorkerLog;
  /** Events read per fan-out pass (default 500). */
  batch?: number;
  /** Hears about every attempt (benchmarks measure the outbox lag with it). */
  onAttempt?: (a: AttemptReport) => void;
}

export interface RunSummary {
  /** False when another process holds the SQLite worker lease: nothing was done. */
  leased: boolean;
  events: number;
  queued: number;
  attempts: number;
}

const errText = (err: unknown) => ({
  message: (err as Error)?.message ?? String(err),
  code: (err as { code?: string })?.code,
});

export class DeliveryWorker {
  readonly id = randomUUID();
  private running = false;
  private loopDone: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private readonly inflight = new Set<Promise<void>>();
  private finished: Finished[] = [];
  private leaseValidUntil = 0;
  private readonly listeners = new Set<(a: AttemptReport) => void>();

  constructor(private readonly o: WorkerOptions) {}

  /** Hears about every attempt from now on, as `onAttempt` does (metrics); returns the removal. */
  addAttemptListener(fn: (a: AttemptReport) => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /** Now, epoch milliseconds: the given clock, else the database's. */
  async now(): Promise<number> {
    if (this.o.clock) return this.o.clock();
    if (this.o.db.kind !== 'postgres') return Date.now();
    const r = await sql<{
      ms: number;
    }>`select floor(extract(epoch from clock_timestamp()) * 1000)::bigint as ms`.execute(this.o.db.kysely);
    return Number(r.rows[0].ms);
  }

  private async leased(nowMs: number): Promise<boolean> {
    if (this.o.db.kind === 'postgres') return true;
    const { leaseMs } = this.o.config;
    if (nowMs < this.leaseValidUntil - leaseMs / 2) return true;
    const ok = await holdSqliteLease(this.o.db, this.id, nowMs, leaseMs);
    this.leaseValidUntil = ok ? nowMs + leaseMs : 0;
    return ok;
  }

  private fanOut(nowMs: number) {
    return fanOut({
      db: this.o.db,
      publicUrl: this.o.publicUrl,
      nowMs,
      batch: this.o.batch ?? 500,
      onRenderFallback: (action, err) =>
        this.o.log.warn({ action, err: errText(err) }, 'webhook body rendered from the raw snapshot'),
    });
  }

  private nextExpiredLook = 0;

  /** Claims due deliveries; claims whose lease ran out are looked for on every runOnce pass, else every tenth of a lease. */
  private claim(nowMs: number, limit: number, always = true): Promise<Claimed[]> {
    const expired = always || nowMs >= this.nextExpiredLook;
    if (expired) this.nextExpiredLook = nowMs + Math.max(1000, this.o.config.leaseMs / 10);
    return claim(this.o.db, { nowMs, leaseMs: this.o.config.leaseMs, limit, token: randomUUID(), expired });
  }

  private async attempt(c: Claimed, nowMs: number): Promise<Finished> {
    const startedAtMs = Date.now();
    const result = await this.o.sender.send({ url: c.url, secret: c.secret, body: c.body, requestId: c.id, nowMs });
    if (this.o.onAttempt || this.listeners.size > 0) {
      const { state } = outcomeOf(
        { numFailures: c.num_failures, retryStep: c.retry_step },
        result.status,
        nowMs,
        this.o.config.retryScheduleS,
      );
      const report: AttemptReport = {
        requestId: c.id,
        action: c.action,
        eventOccurredAt: c.event_occurred_at,
        startedAtMs,
        result,
        state,
      };
      this.o.onAttempt?.(report);
      for (const fn of this.listeners) fn(report);
    }
    return { claim: c, result, attemptedAtMs: nowMs };
  }

  /** One full pass: fan out every new event, then attempt everything due (bounded rounds), and wait. */
  async runOnce(): Promise<RunSummary> {
    if (this.running) throw new Error('runOnce() is for a stopped worker; this one runs in the background');
    const nowMs = await this.now();
    const summary: RunSummary = { leased: await this.leased(nowMs), events: 0, queued: 0, attempts: 0 };
    if (!summary.leased) return summary;
    for (let i = 0; i < 1000; i++) {
      const f = await this.fanOut(nowMs);
      summary.events += f.events;
      summary.queued += f.deliveries;
      if (!f.more) break;
    }
    for (let round = 0; round < 100; round++) {
      const claimed = await this.claim(nowMs, this.o.config.concurrency);
      if (claimed.length === 0) break;
      const done = await Promise.all(claimed.map((c) => this.attempt(c, nowMs)));
      await recordResults(this.o.db, done, this.o.config.retryScheduleS);
      summary.attempts += done.length;
    }
    return summary;
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Stops claiming, lets attempts in flight finish (each is bounded by the timeout), records them. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loopDone;
    await Promise.allSettled([...this.inflight]);
    await this.flush().catch((err) => this.o.log.error({ err: errText(err) }, 'webhook results not recorded at stop'));
    if (this.o.db.kind !== 'postgres') await releaseSqliteLease(this.o.db, this.id).catch(() => {});
  }

  private woken = false;

  private wake() {
    const w = this.wakeUp;
    this.wakeUp = null;
    if (w) w();
    else this.woken = true;
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.wakeUp = null;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  private async flush(): Promise<void> {
    if (this.finished.length === 0) return;
    const batch = this.finished;
    this.finished = [];
    try {
      await recordResults(this.o.db, batch, this.o.config.retryScheduleS);
    } catch (err) {
      this.finished.unshift(...batch);
      throw err;
    }
  }

  private launch(c: Claimed, nowMs: number) {
    const { concurrency } = this.o.config;
    const p: Promise<void> = this.attempt(c, nowMs).then((f) => {
      this.finished.push(f);
      this.inflight.delete(p);
      if (concurrency - this.inflight.size >= Math.max(1, concurrency >> 2)) this.wake();
    });
    this.inflight.add(p);
  }

  /** One background step; true when there is more to do at once. */
  private async tick(): Promise<boolean> {
    const nowMs = await this.now();
    if (!(await this.leased(nowMs))) return false;
    const { concurrency } = this.o.config;
    const free = concurrency - this.inflight.size;
    const claiming = free >= Math.max(1, concurrency >> 2) || this.inflight.size === 0;
    // Fan-out, recording finished attempts and claiming the next ones each use their own connection
    // (PostgreSQL): overlap them. New deliveries are claimed on the next step.
    const [fanned, flushed, claimed] = await Promise.allSettled([
      this.fanOut(nowMs),
      this.flush(),
      claiming ? this.claim(nowMs, free, false) : Promise.resolve([]),
    ]);
    if (claimed.status === 'fulfilled') for (const c of claimed.value) this.launch(c, nowMs);
    for (const r of [fanned, flushed, claimed]) if (r.status === 'rejected') throw r.reason;
    const more = fanned.status === 'fulfilled' && (fanned.value.more || fanned.value.deliveries > 0);
    return more || (claiming && claimed.status === 'fulfilled' && claimed.value.length === free && free > 0);
  }

  private async loop(): Promise<void> {
    let backoffMs = 0;
    while (this.running) {
      let busy = false;
      try {
        busy = await this.tick();
        backoffMs = 0;
      } catch (err) {
        backoffMs = Math.min(backoffMs ? backoffMs * 2 : 250, 10_000);
        this.o.log.error({ err: errText(err), retry_in_ms: backoffMs }, 'webhook worker step failed');
      }
      if (!this.running) break;
      if (backoffMs) await this.sleep(backoffMs);
      else if (!busy || this.inflight.size >= this.o.config.concurrency) await this.sleep(this.o.config.pollMs);
    }
  }
}
