/**
 * Redis while it answers, this process's memory while it does not. A Redis outage (refused
 * connection, Redis stopped, a command past its timeout) never fails a request: the operation runs on
 * the memory store instead, so limits still hold, per node. One warning is logged when an outage
 * starts and one line when Redis answers again; then counting goes back to Redis. While Redis is
 * connected but not answering, one operation a second tries it again and the rest go to memory, so a
 * hung Redis costs at most one command timeout a second.
 *
 * A slot is released in the store that gave it; a Redis slot whose release fails is freed by its lease.
 */
import type { LimitStore, Slot, WindowCount } from './store.js';
import type { MemoryStore } from './memory-store.js';
import type { RedisStore } from './redis-store.js';

export interface LimitsLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** While degraded, how often an operation tries Redis again, milliseconds. */
export const PROBE_INTERVAL_MS = 1000;

export class FailoverStore implements LimitStore {
  private degraded = false;
  private probeAtMs = 0;
  private readonly onError = (err: unknown) => this.down(err);
  private readonly onReady = () => this.up();

  constructor(
    private readonly redis: RedisStore,
    readonly memory: MemoryStore,
    private readonly log: LimitsLog,
  ) {
    redis.client.on('error', this.onError);
    redis.client.on('ready', this.onReady);
  }

  /** Connects to Redis; when it cannot, logs the outage and carries on in memory. */
  async connect(): Promise<void> {
    try {
      await this.redis.client.connect();
    } catch (err) {
      this.down(err);
    }
  }

  async close(): Promise<void> {
    this.redis.client.off('error', this.onError);
    this.redis.client.off('ready', this.onReady);
    this.redis.client.on('error', () => {});
    this.redis.client.disconnect();
  }

  /** Where the next operation goes. */
  get backend(): 'redis' | 'memory' {
    if (this.redis.client.status !== 'ready') return 'memory';
    return !this.degraded || Date.now() >= this.probeAtMs ? 'redis' : 'memory';
  }

  private down(err: unknown): void {
    this.probeAtMs = Date.now() + PROBE_INTERVAL_MS;
    if (this.degraded) return;
    this.degraded = true;
    const message = err instanceof Error ? err.message : String(err);
    this.log.warn(
      { err: message },
      `Redis is unavailable (${message}): rate limits and concurrency slots are counted per node, in memory, until it answers again`,
    );
  }

  private up(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.log.info({}, 'Redis answers again: rate limits and concurrency slots are shared through Redis again');
  }

  private async run<T>(op: (store: LimitStore) => Promise<T>): Promise<T> {
    if (this.backend === 'redis') {
      try {
        const result = await op(this.redis);
        this.up();
        return result;
      } catch (err) {
        this.down(err);
      }
    } else if (!this.degraded) {
      this.down(new Error(`connection ${this.redis.client.status}`));
    }
    return op(this.memory);
  }

  hit(key: string, windowMs: number): Promise<WindowCount> {
    return this.run(async (s) => s.hit(key, windowMs));
  }

  peek(key: string): Promise<WindowCount> {
    return this.run((s) => s.peek(key));
  }

  clear(key: string): Promise<void> {
    return this.run((s) => s.clear(key));
  }

  async acquire(key: string, max: number, leaseMs: number): Promise<Slot | null> {
    const slot = await this.run((s) => s.acquire(key, max, leaseMs));
    if (!slot) return null;
    return { release: () => slot.release().catch((err) => this.down(err)) };
  }

  taken(key: string): Promise<number> {
    return this.run((s) => s.taken(key));
  }
}
